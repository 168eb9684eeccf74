package systems

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// A character's sheet, as a system declares it for its unique kinds:
// `editable`, the data keys the player holding the seat may change, and
// `actions`, a function(e) returning the rolls the character can make.

// Limits of the actions hook's answer.
const (
	maxActions      = 500
	maxActionText   = 200
	maxActionRoll   = 1000
	defaultCritical = 20
)

var actionID = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,100}$`)

// Editable lists the data keys of kind that a seated player may change.
func (s *System) Editable(kind string) []string {
	if k, ok := s.byName[kind]; ok {
		return append([]string(nil), k.Editable...)
	}
	return nil
}

// ActionsFor returns the rolls a character can make, through its kind's
// actions hook (companion.entity(kind, {actions = function(e) ... end})):
// a list of {id, title, type, roll, group, advantage, critical, damage}.
// None when the kind declares no hook.
func (s *System) ActionsFor(ctx context.Context, e *core.Entity) ([]core.Action, error) {
	k, err := s.kindOf(e)
	if err != nil {
		return nil, err
	}
	if !s.rt.HasFunc(k.Name, "actions") {
		return nil, nil
	}
	m, err := model(e)
	if err != nil {
		return nil, err
	}
	v, err := s.rt.Call(ctx, k.Name, "actions", m)
	if err != nil {
		return nil, scriptFailure(err)
	}
	file, line := s.rt.FuncPos(k.Name, "actions")
	bad := func(format string, args ...any) error {
		return scriptFailure(&scripting.ScriptError{Problem: scripting.Problem{File: file, Line: line,
			Message: fmt.Sprintf("the actions function of %q ", k.Name) + fmt.Sprintf(format, args...)}})
	}
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		if obj, isObj := v.(map[string]any); isObj && len(obj) == 0 {
			return nil, nil
		}
		return nil, bad("returned %T; it must return a list such as { {id = \"str-check\", title = \"Strength check\", type = \"check\", roll = \"1d20+2\"} }", v)
	}
	if len(list) > maxActions {
		return nil, bad("returned %d actions, more than %d", len(list), maxActions)
	}
	out := make([]core.Action, 0, len(list))
	byID := map[string]int{}
	for i, item := range list {
		raw, err := json.Marshal(item)
		if err != nil {
			return nil, bad("returned action %d that is not JSON: %v", i+1, err)
		}
		var got struct {
			ID        string `json:"id"`
			Title     string `json:"title"`
			Type      string `json:"type"`
			Roll      string `json:"roll"`
			Group     string `json:"group"`
			Advantage *bool  `json:"advantage"`
			Critical  *int   `json:"critical"`
			Damage    string `json:"damage"`
		}
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&got); err != nil {
			return nil, bad("returned action %d %s: %s (its fields: id, title, type, roll, group, advantage, critical, damage)", i+1, clip(string(raw)), core.JSONErrorText(err))
		}
		a := core.Action{ID: got.ID, Title: strings.TrimSpace(got.Title), Type: got.Type, Roll: strings.TrimSpace(got.Roll),
			Group: got.Group, Damage: got.Damage}
		switch {
		case !actionID.MatchString(a.ID):
			return nil, bad("returned action %d with id %q: an id is 1 to 100 letters, digits, '_', '.', ':' or '-'", i+1, clip(a.ID))
		case a.Title == "" || len(a.Title) > maxActionText || len(a.Group) > maxActionText:
			return nil, bad("returned action %q with a title that is empty or longer than %d bytes (or a group longer)", a.ID, maxActionText)
		case a.Roll == "" || len(a.Roll) > maxActionRoll:
			return nil, bad("returned action %q with a roll that is empty or longer than %d bytes", a.ID, maxActionRoll)
		}
		switch a.Type {
		case "", core.ActionAttack, core.ActionDamage, core.ActionHeal, core.ActionCheck, core.ActionSave:
		default:
			return nil, bad("returned action %q of type %q: the types are attack, damage, heal, check, save or none", a.ID, clip(a.Type))
		}
		if _, dup := byID[a.ID]; dup {
			return nil, bad("returned two actions with id %q", a.ID)
		}
		byID[a.ID] = i
		switch a.Type {
		case core.ActionAttack, core.ActionCheck, core.ActionSave:
			a.Advantage = true
		}
		if got.Advantage != nil {
			a.Advantage = *got.Advantage
		}
		if a.Type == core.ActionAttack {
			a.Critical = defaultCritical
			if got.Critical != nil {
				if *got.Critical < 1 || *got.Critical > 20 {
					return nil, bad("returned attack %q with critical %d: it is the lowest d20 face that hits critically, 1 to 20", a.ID, *got.Critical)
				}
				a.Critical = *got.Critical
			}
		} else if got.Critical != nil || a.Damage != "" {
			return nil, bad("returned action %q with critical or damage: those are for an attack", a.ID)
		}
		out = append(out, a)
	}
	for _, a := range out {
		if a.Damage == "" {
			continue
		}
		i, ok := byID[a.Damage]
		if !ok || out[i].Type != core.ActionDamage {
			return nil, bad("returned attack %q whose damage %q is not a damage action of the list", a.ID, clip(a.Damage))
		}
	}
	return out, nil
}

// clip shortens a value quoted in an error.
func clip(s string) string { return core.Clip(s) }

// Editable forwards to the current system (core.CharacterRules).
func (h *Holder) Editable(kind string) []string { return h.Current().Editable(kind) }

// ActionsFor forwards to the current system (core.CharacterRules).
func (h *Holder) ActionsFor(ctx context.Context, e *core.Entity) ([]core.Action, error) {
	return h.Current().ActionsFor(ctx, e)
}

var (
	_ core.CharacterRules = (*Holder)(nil)
	_ core.CharacterRules = (*System)(nil)
)
