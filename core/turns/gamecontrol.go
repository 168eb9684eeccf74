package turns

import "github.com/vttapp/companion/core"

// Combat actions of the host console's game controls.
const (
	CombatStart    = "start"
	CombatNext     = "next"
	CombatPrevious = "previous"
	CombatEnd      = "end"
)

// CurrentSlot finds the acting slot in the order by its initiative id (then
// its combatant); when it is gone, the position its turn number names
// (which may be past the end when the last slot left).
func CurrentSlot(g *core.Game, order []core.TurnSlot) (int, bool) {
	for i, slot := range order {
		if g.InitiativeID != "" && slot.InitiativeID == g.InitiativeID && slot.CombatantID == g.CombatantID {
			return i, true
		}
	}
	if g.InitiativeID == "" && g.CombatantID != "" {
		for i, slot := range order {
			if slot.CombatantID == g.CombatantID {
				return i, true
			}
		}
	}
	return max(g.Turn-1, 0), false
}

// StepCombat applies one action to g given the turn order, and reports
// whether g changed. Turn is the 1-based position of the acting slot.
func StepCombat(g *core.Game, order []core.TurnSlot, action string) (bool, error) {
	switch action {
	case CombatStart:
		if g.Started {
			return false, core.Conflictf("combat has already started: end it before starting a new one")
		}
		if len(order) == 0 {
			return false, core.Invalidf("no combatant has an initiative value: roll initiative before starting combat")
		}
		g.Started, g.Round = true, 1
		SetTurn(g, order, 0)
		return true, nil
	case CombatEnd:
		if !g.Started {
			return false, nil
		}
		g.Started, g.Round, g.Turn = false, 1, 1
		g.CombatantID, g.InitiativeID = "", ""
		return true, nil
	}
	if !g.Started {
		return false, core.Conflictf("combat has not started: start it first")
	}
	if len(order) == 0 {
		return false, core.Conflictf("no combatant is left in the turn order: end combat or roll initiative")
	}
	pos, found := CurrentSlot(g, order)
	round := max(g.Round, 1)
	if action == CombatNext {
		if !found {
			// The acting slot left the order (defeated, removed): the one
			// that moved into its place acts next.
			pos--
		}
		next := pos + 1
		if next >= len(order) {
			next, round = 0, round+1
		}
		g.Round = round
		SetTurn(g, order, next)
		return true, nil
	}
	prev := min(pos-1, len(order)-1)
	if prev < 0 {
		if round <= 1 {
			return false, core.Conflictf("already at the first turn of the first round")
		}
		prev, round = len(order)-1, round-1
	}
	g.Round = round
	SetTurn(g, order, prev)
	return true, nil
}

func SetTurn(g *core.Game, order []core.TurnSlot, i int) {
	g.Turn = i + 1
	g.CombatantID = order[i].CombatantID
	g.InitiativeID = order[i].InitiativeID
}
