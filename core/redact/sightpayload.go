package redact

import (
	"math"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/sight"
)

// The sight players and the game master receive on a map, a token and a
// drag: whose vision is cast (PartySight), against which walls
// (SightSegments) and box (sightBox). The geometry itself is package
// sight's.

// SightSegments lists every straight piece (x1, y1, x2, y2) of every wall
// that currently blocks sight: closed and locked doors included; open
// doors, windows, invisible and terrain walls left out. A wall with fewer
// than two points has none.
func SightSegments(m *core.Map) [][4]float64 {
	segments := [][4]float64{}
	for _, w := range m.Walls {
		if !w.BlocksSight() || len(w.Data) < 4 {
			continue
		}
		for i := 0; i+3 < len(w.Data); i += 2 {
			segments = append(segments, [4]float64{w.Data[i], w.Data[i+1], w.Data[i+2], w.Data[i+3]})
		}
	}
	return segments
}

// HasSight reports whether a token casts vision: it is not hidden and its
// vision is on. The game master receives the sight of every such token.
func HasSight(t *core.Token) bool { return !t.Hidden && t.Vision != nil && t.Vision.Enabled }

// PartySight reports whether players receive a token's sight: it casts
// vision (hasSight) and it is the party's, a friendly token or a player
// character's, the tokens whose sight a player page shows (the
// shared-vision mode then picks among them on the page). What a foe or a
// neutral creature sees is the game master's: a client that draws every
// sight it receives, as the Encounter+ web client does, would light for
// players what only the monster sees. A player's write cannot make a
// token the party's (Token.keepFromPlayers).
func PartySight(t *core.Token) bool {
	return HasSight(t) && (t.Role == core.RoleFriendly || t.Player)
}

// MapSights computes the sight players receive on m (PartySight) and
// that of every enabled light, in that order, when m has line of sight
// on (nil otherwise: the client draws no vision layer then). m should be
// the players' map (PlayerMap): hidden tokens are skipped anyway.
func MapSights(m *core.Map) []sight.Sight { return mapSights(m, PartySight) }

// mapSights is MapSights for the tokens viewer accepts.
func mapSights(m *core.Map, viewer func(*core.Token) bool) []sight.Sight {
	if m == nil || !m.LineOfSight {
		return nil
	}
	segments := SightSegments(m)
	box := SightBox(m, segments)
	out := []sight.Sight{}
	for _, t := range m.Tokens {
		if viewer(t) {
			out = append(out, sight.Sight{Key: sight.VisionSightKey(t.Vision.ID), X: t.X, Y: t.Y, Polygon: sight.VisionPolygon(t.X, t.Y, segments, box)})
		}
	}
	for _, l := range m.Lights {
		if l.Enabled {
			out = append(out, sight.Sight{Key: sight.LightSightKey(l.ID), X: l.X, Y: l.Y, Polygon: sight.VisionPolygon(l.X, l.Y, segments, box)})
		}
	}
	return out
}

// WithSight returns a copy of the players' map m whose party tokens carry
// vision.sight and whose enabled lights carry sight (see MapSights); m
// itself when line of sight is off. Any other token's vision.sight is
// null. m is never changed.
func WithSight(m *core.Map) *core.Map { return WithSightFor(m, PartySight) }

func WithSightFor(m *core.Map, viewer func(*core.Token) bool) *core.Map {
	sights := mapSights(m, viewer)
	if sights == nil {
		return m
	}
	byKey := make(map[string]*sight.Sight, len(sights))
	for i := range sights {
		byKey[sights[i].Key] = &sights[i]
	}
	out := *m
	out.Tokens = make([]*core.Token, len(m.Tokens))
	for i, t := range m.Tokens {
		out.Tokens[i] = t
		switch {
		case viewer(t):
			out.Tokens[i] = TokenWithSight(t, byKey[sight.VisionSightKey(t.Vision.ID)])
		case t.Vision != nil && t.Vision.Sight != nil:
			out.Tokens[i] = TokenWithSight(t, nil) // a sight stored or written by a client is never passed on
		}
	}
	out.Lights = make([]core.Light, len(m.Lights))
	for i, l := range m.Lights {
		if s := byKey[sight.LightSightKey(l.ID)]; s != nil && l.Enabled {
			l.Sight = s
		}
		out.Lights[i] = l
	}
	return &out
}

// TokenWithSight is a copy of t whose vision.sight is s (null when s is
// nil).
func TokenWithSight(t *core.Token, s *sight.Sight) *core.Token {
	cp := *t
	v := *t.Vision
	v.Sight = nil
	if s != nil {
		v.Sight = s
	}
	cp.Vision = &v
	return &cp
}

// sightMargin pads the bounding box of a map without a size.
const sightMargin = 1000

// SightBox is the area vision is bounded by: the map's size when it has
// one, else everything on it with a margin.
func SightBox(m *core.Map, segments [][4]float64) [4]float64 {
	if m.Width > 0 && m.Height > 0 {
		return [4]float64{0, 0, float64(m.Width), float64(m.Height)}
	}
	box := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	grow := func(x, y float64) {
		box[0], box[1] = math.Min(box[0], x), math.Min(box[1], y)
		box[2], box[3] = math.Max(box[2], x), math.Max(box[3], y)
	}
	for _, s := range segments {
		grow(s[0], s[1])
		grow(s[2], s[3])
	}
	for _, t := range m.Tokens {
		grow(t.X, t.Y)
	}
	if math.IsInf(box[0], 1) {
		return [4]float64{-sightMargin, -sightMargin, sightMargin, sightMargin}
	}
	return [4]float64{box[0] - sightMargin, box[1] - sightMargin, box[2] + sightMargin, box[3] + sightMargin}
}

// WithHostSight is WithSight as the game master receives it: the sight of
// every token that casts vision.
func WithHostSight(m *core.Map) *core.Map { return WithSightFor(m, HasSight) }

// SightsIn lists the sights WithSight gave m's tokens and lights, in
// MapSights' order (tokens, then lights): the payload of
// lineOfSightUpdated, never nil.
func SightsIn(m *core.Map) []sight.Sight {
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

// TokenSight gives a token published alone (tokenUpdated) its vision.sight
// on its map, when it has vision and the map line of sight: the real client
// replaces the whole token and would lose its polygon otherwise.
func TokenSight(tx core.Tx, t *core.Token) (*core.Token, error) {
	if !HasSight(t) || t.MapID == "" {
		return t, nil
	}
	m, err := tx.Map(t.MapID)
	if core.IsNotFound(err) {
		return t, nil
	}
	if err != nil || !m.LineOfSight {
		return t, err
	}
	segments := SightSegments(m)
	box := SightBox(m, segments)
	return TokenWithSight(t, &sight.Sight{Key: sight.VisionSightKey(t.Vision.ID), X: t.X, Y: t.Y, Polygon: sight.VisionPolygon(t.X, t.Y, segments, box)}), nil
}

// DragSight is what a dragged token's vision is cast against: the blocking
// segments and the box of its map, read with the token.
type DragSight struct {
	Segments [][4]float64
	Box      [4]float64
}

// Cast sets m's polygon to what the token sees at m's position (none when
// ds is nil). A polygon a client sent is never passed on.
func (ds *DragSight) Cast(m *core.Movement) {
	if ds == nil {
		m.Polygon = nil
		return
	}
	m.Polygon = sight.VisionPolygon(m.X, m.Y, ds.Segments, ds.Box)
}
