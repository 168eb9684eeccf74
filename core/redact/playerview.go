package redact

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/core/turns"
)

// PlayerMap returns m as players may see it (GET /api and every map
// broadcast): a copy without the hidden tokens, and with each kind of
// object as its row of MapKinds shows it to players (mapkinds.go): hidden
// markers, tiles, area effects, measurements and drawings, and those on
// the game master's layer ("layer": "dm", dmLayer), left out; a secret
// door not yet open a plain wall. A marker is hidden unless it says
// otherwise, as the Marker schema defaults; the others are shown unless
// hidden. When nothing is hidden m itself is returned; it is never
// changed.
func PlayerMap(m *core.Map) *core.Map {
	if m == nil {
		return m
	}
	out := *m
	changed := tokensHaveHidden(m.Tokens) || tokensHaveSecrets(m.Tokens)
	for i := range mapobjects.MapKinds {
		if mapobjects.MapKinds[i].Redact(m, &out) {
			changed = true
		}
	}
	if !changed {
		return m
	}
	out.Tokens = visibleTokens(m.Tokens)
	return &out
}

// GameForPlayers returns g as players may see it when only the game is
// at hand (ForPlayers' guard on a game published without Views): as
// playerGame, with the turn order sorted highest first. The games the core
// publishes and GET /api are built with the loaded system's order
// (pinned.playerGameIn); on those, which have no hidden combatants left,
// it changes nothing.
func GameForPlayers(g *core.Game) *core.Game {
	if g == nil {
		return nil
	}
	return PlayerGame(g, func() []core.TurnSlot { return turns.TurnOrder(g.Combatants, false) })
}

// PlayerGame is a copy of g as players see it in GET /api and in
// gameUpdated: without its hidden combatants, the others as
// CombatantForPlayers shows them, and its turn as if the hidden ones did
// not exist (playerTurn). order gives the turn order of all of g's
// combatants, hidden ones included; it is asked only when a hidden or
// unknown combatant acts.
func PlayerGame(g *core.Game, order func() []core.TurnSlot) *core.Game {
	out := *g
	out.Combatants = playerCombatants(g.Combatants)
	out.Acted = turns.VisibleActed(g.Acted, out.Combatants)
	if g.CombatantID != "" && (len(out.Combatants) < len(g.Combatants) || !core.HasCombatant(g.Combatants, g.CombatantID)) {
		playerTurn(&out, g, order())
	}
	return &out
}

// playerTurn sets the acting combatant and the turn of out, the players'
// copy of g, as if g's hidden combatants did not exist: the turn counts
// the visible slots only, and a hidden combatant's turn (or that of one
// no longer in the game) shows as the previous visible slot's in this
// round, or as no one's (no combatantId, turn 0) when none comes before
// it. order is g's turn order, hidden slots included.
func playerTurn(out, g *core.Game, order []core.TurnSlot) {
	if g.CombatantID == "" {
		return // no one acts: nothing to hide
	}
	pos, found := turns.CurrentSlot(g, order)
	switch {
	case found && !order[pos].Hidden:
		out.Turn = visibleSlots(order[:pos+1])
		return
	case !found && isVisible(g.Combatants, g.CombatantID):
		// A visible acting combatant whose slot left the order (defeated)
		// keeps its turn, at its place among the visible slots.
		out.Turn = visibleSlots(order[:min(pos, len(order))]) + 1
		return
	}
	// pos is where the hidden slot is, or where the gone one was.
	for i := min(pos, len(order)) - 1; i >= 0; i-- {
		if !order[i].Hidden {
			out.CombatantID, out.InitiativeID = order[i].CombatantID, order[i].InitiativeID
			out.Turn = visibleSlots(order[:i+1])
			return
		}
	}
	out.CombatantID, out.InitiativeID, out.Turn = "", "", 0
}

// visibleSlots counts the slots of visible combatants.
func visibleSlots(order []core.TurnSlot) int {
	n := 0
	for _, slot := range order {
		if !slot.Hidden {
			n++
		}
	}
	return n
}

func isVisible(list []*core.Combatant, id string) bool {
	for _, c := range list {
		if c.ID == id {
			return !c.Hidden
		}
	}
	return false
}

// playerCombatants is a list of combatants as players may see it: the
// hidden ones left out, the others as CombatantForPlayers shows them. It
// is never nil; list is not changed.
func playerCombatants(list []*core.Combatant) []*core.Combatant {
	out := make([]*core.Combatant, 0, len(list))
	for _, c := range list {
		if !c.Hidden {
			out = append(out, CombatantForPlayers(c))
		}
	}
	return out
}

func tokensHaveHidden(tokens []*core.Token) bool {
	for _, t := range tokens {
		if t.Hidden {
			return true
		}
	}
	return false
}

// tokensHaveSecrets reports whether a visible token carries what players
// may not see (TokenForPlayers strips it): a list or a map with none of
// those and no hidden token goes to players as it is.
func tokensHaveSecrets(tokens []*core.Token) bool {
	for _, t := range tokens {
		if !t.Hidden && TokenForPlayers(t) != t {
			return true
		}
	}
	return false
}

// visibleTokens is the tokens players see, each as TokenForPlayers shows it.
func visibleTokens(tokens []*core.Token) []*core.Token {
	out := make([]*core.Token, 0, len(tokens))
	for _, t := range tokens {
		if !t.Hidden {
			out = append(out, TokenForPlayers(t))
		}
	}
	return out
}
