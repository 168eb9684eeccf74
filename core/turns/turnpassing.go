package turns

import (
	"slices"

	"github.com/vttapp/companion/core"
)

// How a system's combat hands out turns (config combat.turns).
// TurnsByInitiative, the default, rolls initiative and acts in its order.
// TurnsPassed rolls none: the one acting hands the turn to someone who has
// not acted this round (the game master may pick anyone at any time), and
// a new round begins once everyone has acted.
const (
	TurnsByInitiative = "initiative"
	TurnsPassed       = "passed"
)

// CombatPass is the combat action that hands the turn to a named
// combatant (TurnsPassed).
const CombatPass = "pass"

// TurnStyler is implemented by Rules whose system says how turns pass.
// Rules without it take turns by initiative.
type TurnStyler interface {
	TurnStyle() string
}

// VisibleActed is acted without the combatants players do not see.
func VisibleActed(acted []string, shown []*core.Combatant) []string {
	var out []string
	for _, id := range acted {
		if core.HasCombatant(shown, id) {
			out = append(out, id)
		}
	}
	return out
}

// TurnPass names who acts next when a turn is passed: the data of endTurn
// (optional) and the body of POST /host/api/game/pass.
type TurnPass struct {
	To string `json:"to"`
}

// PassingOrder is the turn order of a game whose turns are passed: every
// combatant not defeated, one slot each, in the game's order (no
// initiative is needed).
func PassingOrder(combatants []*core.Combatant) []core.TurnSlot {
	var out []core.TurnSlot
	for _, c := range combatants {
		if c.Defeated {
			continue
		}
		slot := core.TurnSlot{CombatantID: c.ID, Name: c.Name, Hidden: c.Hidden, Role: c.Role}
		if len(c.Initiative) > 0 {
			slot.InitiativeID = c.Initiative[0].ID
		}
		out = append(out, slot)
	}
	return out
}

// StepPassing applies one action to a game whose turns are passed. to
// names the combatant CombatPass hands the turn to; CombatNext hands it to
// the first in the order who has not acted. The one acting is marked as
// having acted when the turn leaves them; once everyone in the order has
// acted a new round begins, and anyone may act first in it.
func StepPassing(g *core.Game, order []core.TurnSlot, action, to string) (bool, error) {
	switch action {
	case CombatStart:
		if g.Started {
			return false, core.Conflictf("combat has already started: end it before starting a new one")
		}
		if len(order) == 0 {
			return false, core.Invalidf("no combatant is in the game: add combatants before starting combat")
		}
		g.Started, g.Round, g.Acted = true, 1, nil
		pos := 0
		if to != "" {
			if pos = slotOf(order, to); pos < 0 {
				return false, core.NotFoundf("no combatant with id '%s' takes a turn", core.Clip(to))
			}
		}
		SetTurn(g, order, pos)
		return true, nil
	case CombatEnd:
		if !g.Started {
			return false, nil
		}
		g.Started, g.Round, g.Turn, g.Acted = false, 1, 1, nil
		g.CombatantID, g.InitiativeID = "", ""
		return true, nil
	case CombatPrevious:
		return false, core.Conflictf("turns are passed in this game: pass the turn to the one who acts instead of going back")
	}
	if !g.Started {
		return false, core.Conflictf("combat has not started: start it first")
	}
	if len(order) == 0 {
		return false, core.Conflictf("no combatant is left in the game: end combat")
	}
	acted := slices.Clone(g.Acted)
	if g.CombatantID != "" && !slices.Contains(acted, g.CombatantID) {
		acted = append(acted, g.CombatantID)
	}
	// Only those still in the order count: a defeated or removed one
	// does not hold up the round.
	acted = slices.DeleteFunc(acted, func(id string) bool { return slotOf(order, id) < 0 })
	round := max(g.Round, 1)
	if len(acted) >= len(order) {
		acted, round = nil, round+1
	}
	pos := -1
	if action == CombatNext {
		for i, slot := range order {
			if !slices.Contains(acted, slot.CombatantID) {
				pos = i
				break
			}
		}
	} else {
		if to == "" {
			return false, core.Invalidf("name the combatant to pass the turn to")
		}
		if pos = slotOf(order, to); pos < 0 {
			return false, core.NotFoundf("no combatant with id '%s' takes a turn", core.Clip(to))
		}
		if slices.Contains(acted, to) {
			return false, core.Conflictf("%s has acted this round: pass the turn to someone who has not", order[pos].Name)
		}
	}
	g.Round, g.Acted = round, acted
	SetTurn(g, order, pos)
	return true, nil
}

// slotOf is the position of combatant id in order, -1 when it takes no turn.
func slotOf(order []core.TurnSlot, id string) int {
	return slices.IndexFunc(order, func(s core.TurnSlot) bool { return s.CombatantID == id })
}

// PassChoices are the combatants players see whom the acting one (self)
// may hand the turn to: not defeated, not acted this round.
func PassChoices(g *core.Game, self string) []core.TurnPick {
	var out []core.TurnPick
	for _, c := range g.Combatants {
		if c.Hidden || c.Defeated || c.ID == self || slices.Contains(g.Acted, c.ID) {
			continue
		}
		name := c.Name
		if c.Label != "" && c.Label != c.Name {
			name += " " + c.Label
		}
		out = append(out, core.TurnPick{ID: c.ID, Name: name})
	}
	return out
}
