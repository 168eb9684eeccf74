package play

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// dragSightOf reads the sight of tok's map for its drag; nil when the
// token has no vision, is hidden, or its map has line of sight off.
func (s *PlayRoom) dragSightOf(ctx context.Context, tok *core.Token) (*redact.DragSight, error) {
	if !redact.HasSight(tok) || tok.MapID == "" {
		return nil, nil
	}
	var ds *redact.DragSight
	err := s.Store.View(ctx, func(tx core.Tx) error {
		m, err := tx.Map(tok.MapID)
		if core.IsNotFound(err) {
			return nil
		}
		if err != nil || !m.LineOfSight {
			return err
		}
		segments := redact.SightSegments(m)
		ds = &redact.DragSight{Segments: segments, Box: redact.SightBox(m, segments)}
		return nil
	})
	return ds, err
}
