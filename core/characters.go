package core

import "context"

// What a game system says about a player's own character (its Lua
// declarations: the kind's `editable` list and `actions` hook).

// CharacterRules is implemented by Rules whose system declares what a
// seated player may do with their character.
type CharacterRules interface {
	// Editable lists the data keys of a kind's entities that the player
	// holding its seat may change (none when the kind declares none).
	Editable(kind string) []string
	// ActionsFor lists the rolls a character can make, from its kind's
	// actions hook (none when the kind declares no hook).
	ActionsFor(ctx context.Context, e *Entity) ([]Action, error)
}

// Action is one roll a character can make from their sheet.
type Action struct {
	// ID names the action in a request (stable across reloads of the
	// sheet: the system derives it from what it rolls).
	ID    string `json:"id"`
	Title string `json:"title"`
	// Type is the roll's kind as the chat shows it: attack, damage, heal,
	// check, save, or "" for another roll.
	Type string `json:"type"`
	// Roll is the dice formula (docs/dice.md).
	Roll string `json:"roll"`
	// Group gathers actions on the sheet ("Abilities", "Skills"...).
	Group string `json:"group,omitempty"`
	// Advantage: the roll may be made with advantage or disadvantage (its
	// first lone d20 rolled twice).
	Advantage bool `json:"advantage"`
	// Critical is, for an attack, the lowest d20 face that is a critical
	// hit (20 unless the system says otherwise); 0 for other rolls.
	Critical int `json:"critical,omitempty"`
	// Damage is, for an attack, the id of the damage action that follows
	// it (doubled dice on a critical hit).
	Damage string `json:"damage,omitempty"`
}

// Roll types.
const (
	ActionAttack = "attack"
	ActionDamage = "damage"
	ActionHeal   = "heal"
	ActionCheck  = "check"
	ActionSave   = "save"
)

// ActionDice rewrites an action's formula for one roll: advantage (> 0)
// or disadvantage (< 0) on its first lone d20, the critical marks from
// critAt, doubled dice (the dice package's Roller).
type ActionDice interface {
	ActionFormula(formula string, advantage int, double bool, critAt int) (string, error)
}

// editableKeys is the kind's editable list as the loaded system gives it.
func (s pinned) editableKeys(kind string) []string {
	if cr, ok := s.rules.(CharacterRules); ok {
		return cr.Editable(kind)
	}
	return nil
}

// hitPointKeys are a kind's hit point keys, which a player changes only
// through damage, healing and temporary hit points (the game master's
// rules), never by writing them: the first range and its temporary hit
// points.
func (s pinned) hitPointKeys(kind string) []string {
	if s.rules == nil {
		return nil
	}
	ranges := s.rules.Ranges(kind)
	if len(ranges) == 0 {
		return nil
	}
	return []string{ranges[0], "temp_" + ranges[0]}
}

// sharedKeys are the data keys a shared combatant and its unique entity
// keep in step: the kind's ranges, and the temporary hit points of the
// first (temp_<range>), so that damage the game master deals to the
// combatant and temporary hit points the player sets on their character
// are one number.
func (s pinned) sharedKeys(kind string) []string {
	ranges := s.rules.Ranges(kind)
	if len(ranges) == 0 {
		return ranges
	}
	return append(ranges, "temp_"+ranges[0])
}
