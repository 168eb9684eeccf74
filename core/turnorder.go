package core

// TurnSlot is one place in the turn order: a combatant's initiative slot.
type TurnSlot struct {
	CombatantID  string `json:"combatantId"`
	InitiativeID string `json:"initiativeId"`
	Name         string `json:"name"`
	Value        any    `json:"value"`
	Hidden       bool   `json:"hidden"`
	Role         string `json:"role,omitempty"`
}
