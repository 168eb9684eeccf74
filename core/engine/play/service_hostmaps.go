package play

import (
	"context"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/core/redact"
)

// CreateMap stores an empty map in the primary campaign and returns it.
// Nothing is broadcast: players see a map once it is on the player screen.
func (s *PlayRoom) CreateMap(ctx context.Context, n core.NewMap) (*core.Map, error) {
	p := s.pin()
	if err := n.Check(); err != nil {
		return nil, err
	}
	m := &core.Map{Name: strings.TrimSpace(n.Name), Width: n.Width, Height: n.Height, GridType: n.GridType,
		GridSize: n.GridSize, GridVisible: true, Image: n.Image,
		LosVisionLimit: -1} // no limit: 0 would let no token see anything once line of sight is on
	if err := m.Normalize(); err != nil {
		return nil, err
	}
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		m.Owner = c.ID
		return nil, tx.PutMap(m)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// RenameMap renames a map (ChangeMap with a name alone).
func (s *PlayRoom) RenameMap(ctx context.Context, id, name string) (*core.Map, error) {
	return s.ChangeMap(ctx, id, mapobjects.MapChange{Name: &name})
}

// ChangeMap changes a map's name or its line of sight. When it is on the
// player screen, clients get mapUpdated, and lineOfSightUpdated after a
// change of its sight; a map off screen tells the host alone.
func (s *PlayRoom) ChangeMap(ctx context.Context, id string, c mapobjects.MapChange) (*core.Map, error) {
	p := s.pin()
	if err := c.Check(); err != nil {
		return nil, err
	}
	var out *core.Map
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		m, err := kernel.MapByID(tx, id)
		if err != nil {
			return nil, err
		}
		if c.Name != nil {
			m.Name = strings.TrimSpace(*c.Name)
		}
		if c.LineOfSight != nil {
			m.LineOfSight = *c.LineOfSight
		}
		if c.LosDaylight != nil {
			m.LosDaylight = *c.LosDaylight
		}
		if c.LosVisionLimit != nil {
			m.LosVisionLimit = *c.LosVisionLimit
		}
		tokens := m.Tokens
		m.Tokens = nil
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		m.Tokens = tokens
		out = m
		onScreen, err := p.PlayersSee(tx, id)
		if err != nil {
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
		views := func(forPlayers, forHost any) redact.Views {
			if !onScreen {
				return redact.HostOnly(forHost)
			}
			return redact.Views{Players: forPlayers, Host: forHost, Map: id}
		}
		events := []core.Event{{Name: core.EventMapUpdated, Data: views(players, host)}}
		if c.LineOfSight != nil || c.LosDaylight != nil || c.LosVisionLimit != nil {
			events = append(events, core.Event{Name: core.EventLineOfSightUpdated, Data: views(redact.SightsIn(players), redact.SightsIn(host))})
		}
		return events, nil
	})
	return out, err
}

// DeleteMap deletes a map of the primary campaign with its tokens (a
// module's maps go with their module). A map on the player screen leaves
// it first: clients get screenUpdated with no map; seats on it return to
// the player screen's map (seatmaps.go). It returns the deleted
// map, for the caller to remove its files.
func (s *PlayRoom) DeleteMap(ctx context.Context, id string) (*core.Map, error) {
	p := s.pin()
	var out *core.Map
	var returned []*core.Seat
	err := p.WriteThen(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		m, err := kernel.MapByID(tx, id)
		if err != nil {
			return nil, err
		}
		if m.Owner != c.ID {
			return nil, core.Conflictf("map '%s' belongs to a module: delete the module, or copy the map into the campaign", core.Clip(m.Name))
		}
		if err := tx.DeleteMap(id); err != nil {
			return nil, err
		}
		out = m
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return nil, err
		}
		var events []core.Event
		if screen.MapID == id {
			screen.MapID = ""
			if err := tx.PutScreen(c.ID, screen); err != nil {
				return nil, err
			}
			p.LiveScreen(screen)
			events = append(events, core.Event{Name: core.EventScreenUpdated, Data: screen})
		}
		// Seats on the deleted map go back to the player screen's.
		var seatEvents []core.Event
		if returned, seatEvents, err = p.returnSeatsOf(tx, id, screen.MapID); err != nil {
			return nil, err
		}
		return append(events, seatEvents...), nil
	}, func() { p.SeatsByHash.Set(returned...) })
	return out, err
}
