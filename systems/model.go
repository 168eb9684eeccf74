package systems

import (
	"encoding/json"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// model returns the stored entity as plain JSON values, exactly what
// json.Marshal(e) would give once decoded (see TestModelMatchesJSON), but
// built field by field: it sits on the path of every cold view.
func model(e *core.Entity) (map[string]any, error) {
	return buildModel(e, true)
}

// viewArg is the model handed to a Lua view when no template needs it
// afterwards: data and attributes are the entity's own maps, not copies.
// The Lua conversion only reads them and gives the same Lua values either
// way (numbers are all float64 in Lua), so the copy would be wasted.
func viewArg(e *core.Entity) (map[string]any, error) {
	return buildModel(e, false)
}

func buildModel(e *core.Entity, deep bool) (map[string]any, error) {
	object := plainObject
	if !deep {
		object = func(o core.Object) map[string]any { return o }
	}
	m := make(map[string]any, 24)
	m["id"] = e.ID
	optional(m, "kind", e.Kind)
	m["system"] = e.System
	m["name"] = e.Name
	m["slug"] = e.Slug
	optional(m, "type", e.Type)
	optional(m, "descr", e.Descr)
	optional(m, "notes", e.Notes)
	optional(m, "image", e.Image)
	optional(m, "token", e.Token)
	optional(m, "icon", e.Icon)
	if len(e.Data) > 0 {
		m["data"] = object(e.Data)
	}
	if e.Attributes == nil {
		m["attributes"] = nil
	} else {
		m["attributes"] = object(e.Attributes)
	}
	var err error
	if m["modifiers"], err = plainSlice(e.Modifiers, len(e.Modifiers)); err != nil {
		return nil, core.Invalidf("entity %q: modifiers cannot be written as JSON: %v", e.Name, err)
	}
	if e.Tags == nil {
		m["tags"] = nil
	} else {
		tags := make([]any, len(e.Tags))
		for i, t := range e.Tags {
			tags[i] = t
		}
		m["tags"] = tags
	}
	if e.Combatant != nil {
		if m["combatant"], err = scripting.PlainJSON(e.Combatant); err != nil {
			return nil, core.Invalidf("entity %q: combatant cannot be written as JSON: %v", e.Name, err)
		}
	}
	if m["sources"], err = plainSlice(e.Sources, len(e.Sources)); err != nil {
		return nil, core.Invalidf("entity %q: sources cannot be written as JSON: %v", e.Name, err)
	}
	optional(m, "appVersion", e.AppVersion)
	optional(m, "systemVersion", e.SystemVersion)
	m["created"] = jsonTime(e.Created)
	m["modified"] = jsonTime(e.Modified)
	if m["meta"], err = plain(e.Meta); err != nil {
		return nil, core.Invalidf("entity %q: meta cannot be written as JSON: %v", e.Name, err)
	}
	return m, nil
}

func optional(m map[string]any, key, value string) {
	if value != "" {
		m[key] = value
	}
}

// jsonTime formats t as encoding/json does.
func jsonTime(t time.Time) string {
	data, _ := t.MarshalJSON()
	return string(data[1 : len(data)-1])
}

// plainSlice converts a slice of structs; nil stays null, empty is [].
func plainSlice[T any](s []T, n int) (any, error) {
	if s == nil {
		return nil, nil
	}
	if n == 0 {
		return []any{}, nil
	}
	return scripting.PlainJSON(s)
}

// plainObject deep-copies a JSON object into plain values.
func plainObject(o core.Object) map[string]any {
	out := make(map[string]any, len(o))
	for k, v := range o {
		pv, err := plain(v)
		if err != nil {
			pv = nil // unreachable for decoded JSON; keep the key
		}
		out[k] = pv
	}
	return out
}

// plain converts a value decoded from JSON (or built in Go) into the plain
// values scripting uses: int64 for integers up to 2^53, float64 otherwise.
func plain(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool, int64:
		return x, nil
	case float64:
		return scripting.NumberValue(x), nil
	case int:
		return int64(x), nil
	case json.Number:
		return scripting.DecodeJSON([]byte(x))
	case map[string]any:
		return plainObject(x), nil
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			pv, err := plain(item)
			if err != nil {
				return nil, err
			}
			out[i] = pv
		}
		return out, nil
	default:
		return scripting.PlainJSON(x)
	}
}
