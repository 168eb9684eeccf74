package routes

import "github.com/vttapp/companion/core"

// hiddenStub is what players learn of a hidden token or combatant: that it
// is hidden, so a client showing it can drop it, and nothing else.
type hiddenStub struct {
	ID     string `json:"id"`
	Hidden bool   `json:"hidden"`
}

// forPlayers returns the payload of a broadcast as players may see it (a
// map without its hidden objects, see core.PlayerMap).
// WebSocket clients are players and player displays (the game master uses
// the host console), so hidden tokens and combatants never reach them in
// full, the same rule GET /api follows.
func forPlayers(data any) any {
	switch v := data.(type) {
	case *core.Token:
		if v != nil && v.Hidden {
			return hiddenStub{ID: v.ID, Hidden: true}
		}
	case *core.Combatant:
		if v != nil && v.Hidden {
			return hiddenStub{ID: v.ID, Hidden: true}
		}
	case *core.Game:
		if v != nil && hasHidden(v.Combatants, func(c *core.Combatant) bool { return c.Hidden }) {
			g := *v
			g.Combatants = visible(v.Combatants, func(c *core.Combatant) bool { return c.Hidden })
			return &g
		}
	case []*core.Combatant:
		if hasHidden(v, func(c *core.Combatant) bool { return c.Hidden }) {
			return visible(v, func(c *core.Combatant) bool { return c.Hidden })
		}
	case *core.Map:
		return core.PlayerMap(v)
	case []*core.Token:
		if hasHidden(v, func(t *core.Token) bool { return t.Hidden }) {
			return visible(v, func(t *core.Token) bool { return t.Hidden })
		}
	}
	return data
}

func hasHidden[T any](list []T, hidden func(T) bool) bool {
	for _, x := range list {
		if hidden(x) {
			return true
		}
	}
	return false
}

func visible[T any](list []T, hidden func(T) bool) []T {
	out := make([]T, 0, len(list))
	for _, x := range list {
		if !hidden(x) {
			out = append(out, x)
		}
	}
	return out
}
