package engine

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/sight"
)

// withHostSight is WithSight as the game master receives it: the sight of
// every token that casts vision.
func withHostSight(m *core.Map) *core.Map { return redact.WithSightFor(m, redact.HasSight) }

// sightsIn lists the sights WithSight gave m's tokens and lights, in
// MapSights' order (tokens, then lights): the payload of
// lineOfSightUpdated, never nil.
func sightsIn(m *core.Map) []sight.Sight {
	out := []sight.Sight{}
	for _, t := range m.Tokens {
		if t.Vision != nil {
			if s, ok := t.Vision.Sight.(*sight.Sight); ok && s != nil {
				out = append(out, *s)
			}
		}
	}
	for _, l := range m.Lights {
		if s, ok := l.Sight.(*sight.Sight); ok && s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// tokenSight gives a token published alone (tokenUpdated) its vision.sight
// on its map, when it has vision and the map line of sight: the real client
// replaces the whole token and would lose its polygon otherwise.
func tokenSight(tx core.Tx, t *core.Token) (*core.Token, error) {
	if !redact.HasSight(t) || t.MapID == "" {
		return t, nil
	}
	m, err := tx.Map(t.MapID)
	if core.IsNotFound(err) {
		return t, nil
	}
	if err != nil || !m.LineOfSight {
		return t, err
	}
	segments := redact.SightSegments(m)
	box := redact.SightBox(m, segments)
	return redact.TokenWithSight(t, &sight.Sight{Key: sight.VisionSightKey(t.Vision.ID), X: t.X, Y: t.Y, Polygon: sight.VisionPolygon(t.X, t.Y, segments, box)}), nil
}

// dragSight is what a dragged token's vision is cast against: the blocking
// segments and the box of its map, read with the token.
type dragSight struct {
	segments [][4]float64
	box      [4]float64
}

// cast sets m's polygon to what the token sees at m's position (none when
// ds is nil). A polygon a client sent is never passed on.
func (ds *dragSight) cast(m *core.Movement) {
	if ds == nil {
		m.Polygon = nil
		return
	}
	m.Polygon = sight.VisionPolygon(m.X, m.Y, ds.segments, ds.box)
}
