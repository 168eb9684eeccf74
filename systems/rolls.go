package systems

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/scripting"
)

// How a system's rolls play, declared on a kind beside its actions hook:
//
//	rollOptions = { { id = "advantage", title = "Advantage" }, ... },
//	outcomes = { { id = "critical", title = "critical hit!" }, ... },
//	roll = function(r) ... end,    -- r.action, r.options, r.character
//	outcome = function(r) ... end, -- r.action, r.options, r.roll
//
// Each action lists the options it takes (options = { "advantage" }).
// The roll hook returns the formula to roll for the options chosen, or
// { roll = formula, title = title }; the outcome hook reads the dice and
// returns nil, an outcome id, or { outcome = id, next = { options } }, the
// options its action's follow-up is rolled with. core rolls and records;
// every rule is here, in the system's Lua.

// Limits of the roll hooks' declarations and answers.
const (
	maxRollOptions = 50
	maxOutcomeNext = 20
)

// namedListOption reads a list of { id = "...", title = "..." }, adding a
// problem for each mistake.
func namedListOption(d *scripting.EntityDecl, key string, add func(string, ...any)) []core.RollOption {
	v, ok := d.Fields[key]
	if !ok {
		return nil
	}
	list, isList := v.([]any)
	if !isList {
		add("%s must be a list such as { { id = \"bonus\", title = \"Bonus die\" } }", key)
		return nil
	}
	if len(list) > maxRollOptions {
		add("%s lists %d entries, more than %d", key, len(list), maxRollOptions)
		return nil
	}
	out := []core.RollOption{}
	for i, item := range list {
		t, isTable := item.(map[string]any)
		id, _ := t["id"].(string)
		title, _ := t["title"].(string)
		if !isTable || len(t) != 2 || !actionID.MatchString(id) || strings.TrimSpace(title) == "" || len(title) > maxActionText {
			add("%s[%d] must be { id = \"...\", title = \"...\" }: an id of letters, digits, '_', '.', ':' or '-' and a title of 1 to %d bytes", key, i+1, maxActionText)
			continue
		}
		if slices.ContainsFunc(out, func(o core.RollOption) bool { return o.ID == id }) {
			add("%s lists %q twice", key, id)
			continue
		}
		out = append(out, core.RollOption{ID: id, Title: strings.TrimSpace(title)})
	}
	return out
}

// RollOptions lists the options kind's rolls offer (core.RollRules).
func (s *System) RollOptions(kind string) []core.RollOption {
	if k, ok := s.byName[kind]; ok {
		return append([]core.RollOption(nil), k.RollOptions...)
	}
	return nil
}

// actionModel is an action as the roll hooks read it.
func actionModel(a core.Action) map[string]any {
	options := make([]any, len(a.Options))
	for i, o := range a.Options {
		options[i] = o
	}
	m := map[string]any{"id": a.ID, "title": a.Title, "type": a.Type, "roll": a.Roll, "group": a.Group, "options": options}
	if a.Follow != "" {
		m["follow"] = a.Follow
	}
	if a.Data != nil {
		m["data"] = a.Data
	}
	return m
}

func anyList(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// hookError is a roll hook's answer refused, located at the hook.
func (s *System) hookError(kind, field, format string, args ...any) error {
	file, line := s.rt.FuncPos(kind, field)
	return scriptFailure(&scripting.ScriptError{Problem: scripting.Problem{File: file, Line: line,
		Message: fmt.Sprintf("the %s function of %q ", field, kind) + fmt.Sprintf(format, args...)}})
}

// PlanRoll is the formula and title of an action rolled with options,
// through the kind's roll hook; the action's own without one
// (core.RollRules).
func (s *System) PlanRoll(ctx context.Context, e *core.Entity, a core.Action, options []string) (core.RollPlan, error) {
	plan := core.RollPlan{Roll: a.Roll, Title: a.Title}
	k, err := s.kindOf(e)
	if err != nil || !s.rt.HasFunc(k.Name, "roll") {
		return plan, err
	}
	m, err := model(e)
	if err != nil {
		return plan, err
	}
	v, err := s.rt.Call(ctx, k.Name, "roll", map[string]any{"action": actionModel(a), "options": anyList(options), "character": m})
	if err != nil {
		return plan, scriptFailure(err)
	}
	switch got := v.(type) {
	case string:
		plan.Roll = got
	case map[string]any:
		roll, rollOK := got["roll"].(string)
		title, titleOK := got["title"].(string)
		_, hasTitle := got["title"]
		if !rollOK || (hasTitle && !titleOK) || len(got) > 2 || (len(got) == 2 && !hasTitle) {
			return plan, s.hookError(k.Name, "roll", "returned %s for %q: it returns a formula, or { roll = formula, title = title }", clip(fmt.Sprint(v)), a.ID)
		}
		plan.Roll = roll
		if hasTitle {
			plan.Title = strings.TrimSpace(title)
		}
	default:
		return plan, s.hookError(k.Name, "roll", "returned %T for %q: it returns a formula, or { roll = formula, title = title }", v, a.ID)
	}
	plan.Roll = strings.TrimSpace(plan.Roll)
	switch {
	case plan.Roll == "" || len(plan.Roll) > maxActionRoll:
		return plan, s.hookError(k.Name, "roll", "returned a roll for %q that is empty or longer than %d bytes", a.ID, maxActionRoll)
	case plan.Title == "" || len(plan.Title) > maxActionText:
		return plan, s.hookError(k.Name, "roll", "returned a title for %q that is empty or longer than %d bytes", a.ID, maxActionText)
	}
	if _, err := dice.Parse(plan.Roll); err != nil {
		return plan, s.hookError(k.Name, "roll", "returned roll %q for %q: %v", clip(plan.Roll), a.ID, err)
	}
	return plan, nil
}

// OutcomeOf names a roll's result through the kind's outcome hook: one of
// the outcomes the kind declares, with the options of the follow-up
// (core.RollRules). nil without a hook, or when it names none.
func (s *System) OutcomeOf(ctx context.Context, e *core.Entity, a core.Action, options []string, r core.Rolled) (*core.Outcome, error) {
	k, err := s.kindOf(e)
	if err != nil || !s.rt.HasFunc(k.Name, "outcome") {
		return nil, err
	}
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var roll any
	if err := json.Unmarshal(raw, &roll); err != nil {
		return nil, err
	}
	v, err := s.rt.Call(ctx, k.Name, "outcome", map[string]any{"action": actionModel(a), "options": anyList(options), "roll": roll})
	if err != nil {
		return nil, scriptFailure(err)
	}
	shape := "it returns nil, an outcome id, or { outcome = id, next = { options of the follow-up } }"
	var id string
	var next []string
	switch got := v.(type) {
	case nil:
		return nil, nil
	case string:
		id = got
	case map[string]any:
		var ok bool
		if id, ok = got["outcome"].(string); !ok {
			return nil, s.hookError(k.Name, "outcome", "returned %s for %q without an outcome: %s", clip(fmt.Sprint(v)), a.ID, shape)
		}
		for key, value := range got {
			switch key {
			case "outcome":
			case "next":
				list, isList := value.([]any)
				if obj, isObj := value.(map[string]any); isObj && len(obj) == 0 {
					isList = true // an empty Lua table
				}
				if !isList || len(list) > maxOutcomeNext {
					return nil, s.hookError(k.Name, "outcome", "returned next %s for %q: a list of at most %d option ids", clip(fmt.Sprint(value)), a.ID, maxOutcomeNext)
				}
				for _, item := range list {
					opt, isString := item.(string)
					if !isString {
						return nil, s.hookError(k.Name, "outcome", "returned next %s for %q: a list of option ids", clip(fmt.Sprint(value)), a.ID)
					}
					next = append(next, opt)
				}
			default:
				return nil, s.hookError(k.Name, "outcome", "returned %q for %q: %s", clip(key), a.ID, shape)
			}
		}
	default:
		return nil, s.hookError(k.Name, "outcome", "returned %T for %q: %s", v, a.ID, shape)
	}
	i := slices.IndexFunc(k.Outcomes, func(o core.RollOption) bool { return o.ID == id })
	if i < 0 {
		ids := make([]string, len(k.Outcomes))
		for j, o := range k.Outcomes {
			ids[j] = o.ID
		}
		return nil, s.hookError(k.Name, "outcome", "returned the outcome %q for %q, which the kind does not declare (outcomes: %s)", clip(id), a.ID, strings.Join(ids, ", "))
	}
	return &core.Outcome{ID: id, Title: k.Outcomes[i].Title, Next: next}, nil
}

// RollOptions forwards to the current system (core.RollRules).
func (h *Holder) RollOptions(kind string) []core.RollOption { return h.Current().RollOptions(kind) }

// PlanRoll forwards to the current system (core.RollRules).
func (h *Holder) PlanRoll(ctx context.Context, e *core.Entity, a core.Action, options []string) (core.RollPlan, error) {
	return h.Current().PlanRoll(ctx, e, a, options)
}

// OutcomeOf forwards to the current system (core.RollRules).
func (h *Holder) OutcomeOf(ctx context.Context, e *core.Entity, a core.Action, options []string, r core.Rolled) (*core.Outcome, error) {
	return h.Current().OutcomeOf(ctx, e, a, options, r)
}

var (
	_ core.RollRules = (*Holder)(nil)
	_ core.RollRules = (*System)(nil)
)
