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
	// Options are the ids of the kind's roll options (RollOption) this
	// action may be rolled with; what they change is the system's.
	Options []string `json:"options"`
	// Follow is the id of the action rolled right after this one when the
	// player asks for it, with the options the outcome names.
	Follow string `json:"follow,omitempty"`
	// Data is what the system keeps with the action for its roll and
	// outcome hooks; it is never sent.
	Data any `json:"-"`
}

// Roll types: the kinds of roll the chat knows (the content types of the
// contract's roll messages).
const (
	ActionAttack = "attack"
	ActionDamage = "damage"
	ActionHeal   = "heal"
	ActionCheck  = "check"
	ActionSave   = "save"
)

// RollOption is an option a system offers on its rolls, as the sheet
// shows it (a toggle beside the actions).
type RollOption struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// RollPlan is what a system rolls for an action with the options chosen:
// the formula and the title the chat shows.
type RollPlan struct {
	Roll  string
	Title string
}

// RolledDie is one die of a roll as a system's outcome hook reads it.
type RolledDie struct {
	Sides int     `json:"sides"`
	Value float64 `json:"value"`
	// Dropped: the die does not count (kept out, or rerolled).
	Dropped bool `json:"dropped"`
	// Critical is the dice notation's mark: "success", "failure" or "".
	Critical string `json:"critical,omitempty"`
}

// Rolled is a roll as a system's outcome hook reads it.
type Rolled struct {
	Formula string      `json:"formula"`
	Total   float64     `json:"total"`
	Dice    []RolledDie `json:"dice"`
}

// Outcome is what a system names a roll's result: one of the outcomes its
// kind declares (ID and Title), and the options the follow-up action is
// rolled with.
type Outcome struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Next  []string `json:"-"`
}

// RollRules is implemented by Rules whose system defines how its actions
// roll: the options its kinds offer, the formula an action rolls with the
// options chosen, and the outcome a result names. The core knows none of
// it: it checks the options against the action's list, rolls the formula
// and records the outcome.
type RollRules interface {
	// RollOptions lists the options a kind's rolls offer (none when the
	// kind declares none).
	RollOptions(kind string) []RollOption
	// PlanRoll is the formula and title of a with options (the action's
	// own when the kind declares no roll hook).
	PlanRoll(ctx context.Context, e *Entity, a Action, options []string) (RollPlan, error)
	// OutcomeOf names a roll's result (nil when the kind declares no
	// outcome hook, or the hook names none).
	OutcomeOf(ctx context.Context, e *Entity, a Action, options []string, r Rolled) (*Outcome, error)
}

// Tally is a track a player marks on their sheet, as the system declares
// it: a data key holding a count for each mark (D&D 5e's death saves,
// {successes, failures}), each from 0 to Most. Shown is "always", or
// "down": while the character's health is 0 or below, or a mark is set.
type Tally struct {
	Key   string       `json:"key"`
	Title string       `json:"title"`
	Marks []RollOption `json:"marks"`
	Most  int          `json:"most"`
	Shown string       `json:"shown"`
}

// SheetRules is implemented by Rules whose system says what a sheet
// draws beside the actions: what it calls a kind's health, and its
// tallies.
type SheetRules interface {
	HealthTitle(kind string) string
	Tallies(kind string) []Tally
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

// Check refuses a value outside the bound; what names it in the error.
func (b ValueBound) Check(what string, v any) error {
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
