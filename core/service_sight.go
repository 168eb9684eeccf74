package core

import "context"

// dragSightOf reads the sight of tok's map for its drag; nil when the
// token has no vision, is hidden, or its map has line of sight off.
func (s *Service) dragSightOf(ctx context.Context, tok *Token) (*dragSight, error) {
	if !hasSight(tok) || tok.MapID == "" {
		return nil, nil
	}
	var ds *dragSight
	err := s.store.View(ctx, func(tx Tx) error {
		m, err := tx.Map(tok.MapID)
		if IsNotFound(err) {
			return nil
		}
		if err != nil || !m.LineOfSight {
			return err
		}
		segments := SightSegments(m)
		ds = &dragSight{segments: segments, box: sightBox(m, segments)}
		return nil
	})
	return ds, err
}
