package systems

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// initiativeConfig is config.combat.initiative's rolling part.
type initiativeConfig struct {
	formula  string // rollFormula, "1d20" when absent
	autoRoll string // autoRoll: "hostile", "all" or "" (none)
}

func readInitiativeConfig(config any) initiativeConfig {
	c := initiativeConfig{formula: "1d20"}
	if f, ok := lookupPath(config, "combat", "initiative", "rollFormula").(string); ok && f != "" {
		c.formula = f
	}
	if a, ok := lookupPath(config, "combat", "initiative", "autoRoll").(string); ok {
		c.autoRoll = a
	}
	return c
}

// InitiativeFor returns how a combatant rolls initiative: the system's
// rollFormula, and from its entity's kind's initiative hook
// (companion.entity(kind, {initiative = function(e) ... end}), given the
// entity) a bonus added to the roll, a formula replacing the system's, and
// a tie-break (higher acts first among equal values; the system's rule,
// such as dexterity in D&D 5e). e may be nil (a combatant without entity).
func (s *System) InitiativeFor(ctx context.Context, e *core.Entity) (*core.InitiativeRule, error) {
	rule := &core.InitiativeRule{Formula: s.initiative.formula, AutoRoll: s.initiative.autoRoll}
	if e == nil {
		return rule, nil
	}
	k, ok := s.byName[e.Kind]
	if !ok || !s.rt.HasFunc(k.Name, "initiative") {
		return rule, nil
	}
	m, err := model(e)
	if err != nil {
		return nil, err
	}
	v, err := s.rt.Call(ctx, k.Name, "initiative", m)
	if err != nil {
		return nil, scriptFailure(err)
	}
	if v == nil {
		return rule, nil
	}
	file, line := s.rt.FuncPos(k.Name, "initiative")
	bad := func(format string, args ...any) error {
		return scriptFailure(&scripting.ScriptError{Problem: scripting.Problem{File: file, Line: line,
			Message: fmt.Sprintf("the initiative function of %q ", k.Name) + fmt.Sprintf(format, args...)}})
	}
	fields, ok := v.(map[string]any)
	if !ok {
		return nil, bad("returned %T; it must return a table such as {bonus = 2, tiebreak = 14}", v)
	}
	raw, _ := json.Marshal(fields)
	var got struct {
		Formula  string   `json:"formula"`
		Bonus    *float64 `json:"bonus"`
		Tiebreak *float64 `json:"tiebreak"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		return nil, bad("returned %s: %s", raw, core.JSONErrorText(err))
	}
	if got.Formula != "" {
		rule.Formula = got.Formula
	}
	if got.Bonus != nil {
		rule.Bonus = *got.Bonus
	}
	if got.Tiebreak != nil {
		rule.Tiebreak = *got.Tiebreak
	}
	return rule, nil
}

// InitiativeFor forwards to the current system (core.InitiativeRules).
func (h *Holder) InitiativeFor(ctx context.Context, e *core.Entity) (*core.InitiativeRule, error) {
	return h.Current().InitiativeFor(ctx, e)
}

var _ core.InitiativeRules = (*Holder)(nil)
