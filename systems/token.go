package systems

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// maxTokenCells bounds a token's footprint: a hook returning more is
// wrong, not a colossus.
const maxTokenCells = 32

// TokenFor returns the token an entity is placed as, through its kind's
// token hook (companion.entity(kind, {token = function(e) ... end})): nil
// when the kind declares none. The hook returns {width, height, image,
// role, label, vision = {...}}, every field optional.
func (s *System) TokenFor(ctx context.Context, e *core.Entity) (*core.TokenTemplate, error) {
	k, err := s.kindOf(e)
	if err != nil {
		return nil, err
	}
	if !s.rt.HasFunc(k.Name, "token") {
		return nil, nil
	}
	m, err := model(e)
	if err != nil {
		return nil, err
	}
	v, err := s.rt.Call(ctx, k.Name, "token", m)
	if err != nil {
		return nil, scriptFailure(err)
	}
	file, line := s.rt.FuncPos(k.Name, "token")
	bad := func(format string, args ...any) error {
		return scriptFailure(&scripting.ScriptError{Problem: scripting.Problem{File: file, Line: line,
			Message: fmt.Sprintf("the token function of %q ", k.Name) + fmt.Sprintf(format, args...)}})
	}
	fields, ok := v.(map[string]any)
	if !ok {
		if list, isList := v.([]any); isList && len(list) == 0 {
			return &core.TokenTemplate{}, nil // an empty table
		}
		if v == nil {
			return nil, nil
		}
		return nil, bad("returned %T; it must return a table such as {width = 1, height = 1}", v)
	}
	raw, err := json.Marshal(fields)
	if err != nil {
		return nil, bad("returned a value that is not JSON: %v", err)
	}
	var tpl core.TokenTemplate
	if err := json.Unmarshal(raw, &tpl); err != nil {
		return nil, bad("returned %s: %s", raw, core.JSONErrorText(err))
	}
	for name, n := range map[string]float64{"width": tpl.Width, "height": tpl.Height} {
		if n < 0 || n > maxTokenCells {
			return nil, bad("returned %s %g; it must be between 0 and %d cells", name, n, maxTokenCells)
		}
	}
	switch tpl.Role {
	case "", core.RoleHostile, core.RoleFriendly, core.RoleNeutral:
	default:
		return nil, bad("returned role %q; it must be hostile, friendly or neutral", tpl.Role)
	}
	return &tpl, nil
}

// TokenFor forwards to the current system (core.TokenRules).
func (h *Holder) TokenFor(ctx context.Context, e *core.Entity) (*core.TokenTemplate, error) {
	return h.Current().TokenFor(ctx, e)
}

var _ core.TokenRules = (*Holder)(nil)
