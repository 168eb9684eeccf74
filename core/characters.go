package core

import (
	"context"
	"math"
	"strconv"
)

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

// ValueBound is what a system declares a numeric data key may hold when a
// player writes it: at least Min, at most Max (when set), and a whole
// number when Integer.
type ValueBound struct {
	Min, Max *float64
	Integer  bool
}

// BoundRules is implemented by Rules whose system declares bounds on its
// kinds' data keys (the `bounds` option of a kind): hit points, their
// maximum, temporary hit points.
type BoundRules interface {
	Bounds(kind string) map[string]ValueBound
}

// bound is the bound the system declares on a data key of kind, and
// whether it declares one.
func (s pinned) bound(kind, key string) (ValueBound, bool) {
	br, ok := s.rules.(BoundRules)
	if !ok {
		return ValueBound{}, false
	}
	b, ok := br.Bounds(kind)[key]
	return b, ok
}

// check refuses a value outside the bound; what names it in the error.
func (b ValueBound) check(what string, v any) error {
	n, isNumber := v.(float64)
	if !isNumber {
		return Invalidf("%s must be a number", what)
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return Invalidf("%s must be a finite number", what)
	}
	if b.Integer && n != math.Trunc(n) {
		return Invalidf("%s must be a whole number, not %s", what, strconv.FormatFloat(n, 'g', -1, 64))
	}
	if (b.Min != nil && n < *b.Min) || (b.Max != nil && n > *b.Max) {
		return Invalidf("%s must be %s, not %s", what, b.rangeText(), strconv.FormatFloat(n, 'g', -1, 64))
	}
	return nil
}

// rangeText says the bound in words: "from 0 to 9999", "at least 1".
func (b ValueBound) rangeText() string {
	f := func(p *float64) string { return strconv.FormatFloat(*p, 'g', -1, 64) }
	switch {
	case b.Min != nil && b.Max != nil:
		return "from " + f(b.Min) + " to " + f(b.Max)
	case b.Min != nil:
		return "at least " + f(b.Min)
	case b.Max != nil:
		return "at most " + f(b.Max)
	}
	return "a number"
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
