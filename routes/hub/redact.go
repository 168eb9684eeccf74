package hub

import "github.com/vttapp/companion/core"

// hiddenStub is what players learn of a hidden token or combatant: that it
// is hidden, so a client showing it can drop it, and nothing else.
type hiddenStub struct {
	ID     string `json:"id"`
	Hidden bool   `json:"hidden"`
}

// forPlayers returns the payload of a broadcast as players may see it (a
// map without its hidden objects, see core.PlayerMap; combatants without
// their notes and a foe's numbers, see core.CombatantForPlayers; a game
// without its hidden combatants and their turns, see core.GameForPlayers;
// a token with its stored combatant and a foe's sight stripped, see
// core.TokenForPlayers). WebSocket clients are players and player
// displays (the game master uses the host console), so hidden tokens and
// combatants never reach them in full, the same rule GET /api follows.
// Whether players receive an event at all (a token they never saw, a map
// off the player screen) the core decides (core.Views).
func forPlayers(data any) any {
	switch v := data.(type) {
	case *core.Token:
		if v != nil && v.Hidden {
			return hiddenStub{ID: v.ID, Hidden: true}
		}
		return onMap(core.TokenForPlayers(v))
	case *core.Combatant:
		if v != nil && v.Hidden {
			return hiddenStub{ID: v.ID, Hidden: true}
		}
		return core.CombatantForPlayers(v)
	case *core.Game:
		if v != nil {
			return core.GameForPlayers(v)
		}
	case []*core.Combatant:
		return playerCombatants(v)
	case *core.Map:
		return core.PlayerMap(v)
	case []*core.Token:
		if hasHidden(v, func(t *core.Token) bool { return t.Hidden }) {
			return visible(v, func(t *core.Token) bool { return t.Hidden })
		}
	}
	return data
}

// tokenOnMap is a token sent alone (tokenUpdated, the answer to
// updateToken) with the map it stands on, an extension beside the
// contract's Token: a page showing another map ignores it. Token.MapID is
// not part of the published token, so it is added here.
type tokenOnMap struct {
	*core.Token
	MapID string `json:"mapId,omitempty"`
}

// onMap names the map of a token sent alone; any other payload is
// returned as it is.
func onMap(data any) any {
	if t, ok := data.(*core.Token); ok && t != nil {
		return tokenOnMap{Token: t, MapID: t.MapID}
	}
	return data
}

// playerCombatants is a list of combatants as players may see it: the
// hidden ones left out, the others without what is the game master's
// (core.CombatantForPlayers: notes, and a foe's numbers).
func playerCombatants(list []*core.Combatant) []*core.Combatant {
	if list == nil {
		return nil
	}
	out := make([]*core.Combatant, 0, len(list))
	for _, c := range list {
		if !c.Hidden {
			out = append(out, core.CombatantForPlayers(c))
		}
	}
	return out
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
