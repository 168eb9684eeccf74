package core

import "strings"

// PlayerMap returns m as players may see it (GET /api and every map
// broadcast): a copy without the hidden tokens, markers, tiles, area
// effects and measurements, and without any of those or of its drawings
// that lies on the game master's layer ("layer": "dm", dmLayer). A marker
// is hidden unless it says otherwise, as the Marker schema defaults; the
// others are shown unless hidden. When nothing is hidden m itself is
// returned; it is never changed.
func PlayerMap(m *Map) *Map {
	if m == nil || !mapHasHidden(m) {
		return m
	}
	out := *m
	out.Tokens = visibleTokens(m.Tokens)
	out.Markers = visibleObjects(m.Markers, true)
	out.Tiles = visibleObjects(m.Tiles, false)
	out.AreaEffects = visibleObjects(m.AreaEffects, false)
	out.Measurements = visibleObjects(m.Measurements, false)
	out.Drawings = visibleObjects(m.Drawings, false)
	return &out
}

// playerGame is a copy of g without its hidden combatants and with the
// others as players may see them (CombatantForPlayers): the game as
// players see it in GET /api and in gameUpdated.
func playerGame(g *Game) *Game {
	out := *g
	out.Combatants = make([]*Combatant, 0, len(g.Combatants))
	for _, c := range g.Combatants {
		if !c.Hidden {
			out.Combatants = append(out.Combatants, CombatantForPlayers(c))
		}
	}
	return &out
}

func mapHasHidden(m *Map) bool {
	for _, t := range m.Tokens {
		if t.Hidden {
			return true
		}
	}
	for _, group := range []struct {
		list          []Object
		hiddenDefault bool
	}{{m.Markers, true}, {m.Tiles, false}, {m.AreaEffects, false}, {m.Measurements, false}, {m.Drawings, false}} {
		for _, o := range group.list {
			if objectHidden(o, group.hiddenDefault) {
				return true
			}
		}
	}
	return false
}

// dmLayer is the BattleMapLayer only the game master sees (shapes: "markers
// on the DM layer never reach players"); what lies on it is hidden whatever
// its own flag says.
const dmLayer = "dm"

// objectHidden reads an object's "hidden" flag, hiddenDefault when absent;
// an object on the dm layer is always hidden.
func objectHidden(o Object, hiddenDefault bool) bool {
	if layer, _ := o["layer"].(string); strings.EqualFold(layer, dmLayer) {
		return true
	}
	if h, ok := o["hidden"].(bool); ok {
		return h
	}
	return hiddenDefault
}

func visibleObjects(list []Object, hiddenDefault bool) []Object {
	if list == nil {
		return nil
	}
	out := make([]Object, 0, len(list))
	for _, o := range list {
		if !objectHidden(o, hiddenDefault) {
			out = append(out, o)
		}
	}
	return out
}

func visibleTokens(tokens []*Token) []*Token {
	out := make([]*Token, 0, len(tokens))
	for _, t := range tokens {
		if !t.Hidden {
			out = append(out, t)
		}
	}
	return out
}
