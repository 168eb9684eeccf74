package core

// Sight is the area a token's vision or a light reaches, as the real web
// client reads it: in a token's vision.sight, a light's sight and the
// array lineOfSightUpdated carries. Key names the source: "vision-<vision
// id>" or "light-<light id>". Polygon is a flat x,y list around (X, Y).
type Sight struct {
	Key     string    `json:"key"`
	X       float64   `json:"x"`
	Y       float64   `json:"y"`
	Polygon []float64 `json:"polygon"`
}

// VisionSightKey and LightSightKey are the keys of a Sight.
func VisionSightKey(visionID string) string { return "vision-" + visionID }

// LightSightKey is the key of a light's Sight.
func LightSightKey(lightID string) string { return "light-" + lightID }

// SightSegments lists every straight piece (x1, y1, x2, y2) of every wall
// that currently blocks sight: closed and locked doors included; open
// doors, windows, invisible and terrain walls left out. A wall with fewer
// than two points has none.
func SightSegments(m *Map) [][4]float64 {
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

// hasSight reports whether a token casts vision: it is not hidden and its
// vision is on. The game master receives the sight of every such token.
func hasSight(t *Token) bool { return !t.Hidden && t.Vision != nil && t.Vision.Enabled }

// PartySight reports whether players receive a token's sight: it casts
// vision (hasSight) and it is the party's, a friendly token or a player
// character's, the tokens whose sight a player page shows (the
// shared-vision mode then picks among them on the page). What a foe or a
// neutral creature sees is the game master's: a client that draws every
// sight it receives, as the Encounter+ web client does, would light for
// players what only the monster sees. A player's write cannot make a
// token the party's (Token.keepFromPlayers).
func PartySight(t *Token) bool {
	return hasSight(t) && (t.Role == RoleFriendly || t.Player)
}

// MapSights computes the sight players receive on m (PartySight) and
// that of every enabled light, in that order, when m has line of sight
// on (nil otherwise: the client draws no vision layer then). m should be
// the players' map (PlayerMap): hidden tokens are skipped anyway.
func MapSights(m *Map) []Sight { return mapSights(m, PartySight) }

// mapSights is MapSights for the tokens viewer accepts.
func mapSights(m *Map, viewer func(*Token) bool) []Sight {
	if m == nil || !m.LineOfSight {
		return nil
	}
	segments := SightSegments(m)
	box := sightBox(m, segments)
	out := []Sight{}
	for _, t := range m.Tokens {
		if viewer(t) {
			out = append(out, Sight{Key: VisionSightKey(t.Vision.ID), X: t.X, Y: t.Y, Polygon: VisionPolygon(t.X, t.Y, segments, box)})
		}
	}
	for _, l := range m.Lights {
		if l.Enabled {
			out = append(out, Sight{Key: LightSightKey(l.ID), X: l.X, Y: l.Y, Polygon: VisionPolygon(l.X, l.Y, segments, box)})
		}
	}
	return out
}

// WithSight returns a copy of the players' map m whose party tokens carry
// vision.sight and whose enabled lights carry sight (see MapSights); m
// itself when line of sight is off. Any other token's vision.sight is
// null. m is never changed.
func WithSight(m *Map) *Map { return withSight(m, PartySight) }

// withHostSight is WithSight as the game master receives it: the sight of
// every token that casts vision.
func withHostSight(m *Map) *Map { return withSight(m, hasSight) }

func withSight(m *Map, viewer func(*Token) bool) *Map {
	sights := mapSights(m, viewer)
	if sights == nil {
		return m
	}
	byKey := make(map[string]*Sight, len(sights))
	for i := range sights {
		byKey[sights[i].Key] = &sights[i]
	}
	out := *m
	out.Tokens = make([]*Token, len(m.Tokens))
	for i, t := range m.Tokens {
		out.Tokens[i] = t
		switch {
		case viewer(t):
			out.Tokens[i] = tokenWithSight(t, byKey[VisionSightKey(t.Vision.ID)])
		case t.Vision != nil && t.Vision.Sight != nil:
			out.Tokens[i] = tokenWithSight(t, nil) // a sight stored or written by a client is never passed on
		}
	}
	out.Lights = make([]Light, len(m.Lights))
	for i, l := range m.Lights {
		if s := byKey[LightSightKey(l.ID)]; s != nil && l.Enabled {
			l.Sight = s
		}
		out.Lights[i] = l
	}
	return &out
}

// sightsIn lists the sights WithSight gave m's tokens and lights, in
// MapSights' order (tokens, then lights): the payload of
// lineOfSightUpdated, never nil.
func sightsIn(m *Map) []Sight {
	out := []Sight{}
	for _, t := range m.Tokens {
		if t.Vision != nil {
			if s, ok := t.Vision.Sight.(*Sight); ok && s != nil {
				out = append(out, *s)
			}
		}
	}
	for _, l := range m.Lights {
		if s, ok := l.Sight.(*Sight); ok && s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// tokenWithSight is a copy of t whose vision.sight is s (null when s is
// nil).
func tokenWithSight(t *Token, s *Sight) *Token {
	cp := *t
	v := *t.Vision
	v.Sight = nil
	if s != nil {
		v.Sight = s
	}
	cp.Vision = &v
	return &cp
}

// tokenSight gives a token published alone (tokenUpdated) its vision.sight
// on its map, when it has vision and the map line of sight: the real client
// replaces the whole token and would lose its polygon otherwise.
func tokenSight(tx Tx, t *Token) (*Token, error) {
	if !hasSight(t) || t.MapID == "" {
		return t, nil
	}
	m, err := tx.Map(t.MapID)
	if IsNotFound(err) {
		return t, nil
	}
	if err != nil || !m.LineOfSight {
		return t, err
	}
	segments := SightSegments(m)
	box := sightBox(m, segments)
	return tokenWithSight(t, &Sight{Key: VisionSightKey(t.Vision.ID), X: t.X, Y: t.Y, Polygon: VisionPolygon(t.X, t.Y, segments, box)}), nil
}

// dragSight is what a dragged token's vision is cast against: the blocking
// segments and the box of its map, read with the token.
type dragSight struct {
	segments [][4]float64
	box      [4]float64
}

// cast sets m's polygon to what the token sees at m's position (none when
// ds is nil). A polygon a client sent is never passed on.
func (ds *dragSight) cast(m *Movement) {
	if ds == nil {
		m.Polygon = nil
		return
	}
	m.Polygon = VisionPolygon(m.X, m.Y, ds.segments, ds.box)
}
