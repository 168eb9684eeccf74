package systems

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// A character's sheet, as a system declares it for its unique kinds:
// `editable`, the data keys the player holding the seat may change, and
// `actions`, a function(e) returning the rolls the character can make.

// Limits of the actions hook's answer.
const (
	maxActions    = 500
	maxActionText = 200
	maxActionRoll = 1000
	maxActionJSON = 8 << 10
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
// a list of {id, title, type, roll, group, options, follow, data}
// (rolls.go: the options, and what a roll does with them).
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
			ID      string   `json:"id"`
			Title   string   `json:"title"`
			Type    string   `json:"type"`
			Roll    string   `json:"roll"`
			Group   string   `json:"group"`
			Options []string `json:"options"`
			Follow  string   `json:"follow"`
			Data    any      `json:"data"`
		}
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&got); err != nil {
			return nil, bad("returned action %d %s: %s (its fields: id, title, type, roll, group, options, follow, data)", i+1, clip(string(raw)), core.JSONErrorText(err))
		}
		a := core.Action{ID: got.ID, Title: strings.TrimSpace(got.Title), Type: got.Type, Roll: strings.TrimSpace(got.Roll),
			Group: got.Group, Options: got.Options, Follow: got.Follow, Data: got.Data}
		if a.Options == nil {
			a.Options = []string{}
		}
		switch {
		case !actionID.MatchString(a.ID):
			return nil, bad("returned action %d with id %q: an id is 1 to 100 letters, digits, '_', '.', ':' or '-'", i+1, clip(a.ID))
		case a.Title == "" || len(a.Title) > maxActionText || len(a.Group) > maxActionText:
			return nil, bad("returned action %q with a title that is empty or longer than %d bytes (or a group longer)", a.ID, maxActionText)
		case a.Roll == "" || len(a.Roll) > maxActionRoll:
			return nil, bad("returned action %q with a roll that is empty or longer than %d bytes", a.ID, maxActionRoll)
		case len(raw) > maxActionJSON:
			return nil, bad("returned action %q larger than %d bytes as JSON", a.ID, maxActionJSON)
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
		for j, opt := range a.Options {
			if !slices.ContainsFunc(k.RollOptions, func(o core.RollOption) bool { return o.ID == opt }) {
				return nil, bad("returned action %q with option %q, which the kind's rollOptions do not declare", a.ID, clip(opt))
			}
			if slices.Contains(a.Options[:j], opt) {
				return nil, bad("returned action %q with option %q twice", a.ID, clip(opt))
			}
		}
		out = append(out, a)
	}
	for _, a := range out {
		if a.Follow == "" {
			continue
		}
		if _, ok := byID[a.Follow]; !ok || a.Follow == a.ID {
			return nil, bad("returned action %q whose follow %q is not another action of the list", a.ID, clip(a.Follow))
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
