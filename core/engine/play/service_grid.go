package play

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/core/redact"
)

// GridPreview returns the preview of a map's grid (grid.go): as it stands,
// or, given a change, as the change would make it (nothing is stored).
func (s *PlayRoom) GridPreview(ctx context.Context, mapID string, change *mapobjects.GridChange) (*mapobjects.GridPreview, error) {
	m, err := s.Map(ctx, mapID)
	if err != nil {
		return nil, err
	}
	if change != nil {
		if err := change.Apply(m); err != nil {
			return nil, err
		}
	}
	return mapobjects.PreviewOf(m), nil
}

// SetGrid sets a map's grid and ends its wait for one (GridPending), so
// that it may go on the player screen. It answers the preview of the grid
// set. When the map is on the player screen, clients get mapUpdated.
func (s *PlayRoom) SetGrid(ctx context.Context, mapID string, change mapobjects.GridChange) (*mapobjects.GridPreview, error) {
	p := s.pin()
	var out *mapobjects.GridPreview
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		m, err := kernel.MapByID(tx, mapID)
		if err != nil {
			return nil, err
		}
		if err := change.Apply(m); err != nil {
			return nil, err
		}
		m.GridPending = false
		tokens := m.Tokens
		m.Tokens = nil // the map's document only: its tokens are rows of their own
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		m.Tokens = tokens
		out = mapobjects.PreviewOf(m)
		onScreen, err := p.PlayersSee(tx, mapID)
		if err != nil || !onScreen {
			return nil, err
		}
		players, err := p.PlayerMapIn(tx, m)
		if err != nil {
			return nil, err
		}
		host, err := p.HostMapIn(tx, m)
		if err != nil {
			return nil, err
		}
		return []core.Event{{Name: core.EventMapUpdated, Data: redact.Views{Players: players, Host: host}}}, nil
	})
	return out, err
}
