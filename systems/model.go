package systems

import (
	"encoding/json"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
	"github.com/vttapp/companion/templates"
)

// model returns the stored entity as plain JSON values, exactly what
// json.Marshal(e) would give once decoded (see TestModelMatchesJSON), but
// built field by field: it sits on the path of every cold view.
func model(e *core.Entity) (map[string]any, error) {
	return buildModel(e, true, nil)
}

// pageModel is model with every JSON null written as templates.Null, as
// templates.MarkNulls would leave it, but marked while it is built rather
// than in another walk: it is the page template's entity, and the view's
// argument too (the Lua conversion reads the mark as null).
func pageModel(e *core.Entity) (map[string]any, error) {
	return buildModel(e, true, templates.Null)
}

// viewArg is the model handed to a Lua view when no template needs it
// afterwards: data and attributes are the entity's own maps, not copies.
// The Lua conversion only reads them and gives the same Lua values either
// way (numbers are all float64 in Lua), so the copy would be wasted.
func viewArg(e *core.Entity) (map[string]any, error) {
	return buildModel(e, false, nil)
}

// buildModel builds the model; null is what JSON null becomes (nil, or
// templates.Null for pageModel; only with deep, as the entity's own maps
// are not written).
func buildModel(e *core.Entity, deep bool, null any) (map[string]any, error) {
	object := func(o core.Object) map[string]any {
		if !deep {
			return o
		}
		return plainObject(o, null)
	}
	// marked marks the nulls inside a value built here from JSON.
	marked := func(v any) any {
		if null == nil {
			return v
		}
		return templates.MarkNulls(v)
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
		m["attributes"] = null
	} else {
		m["attributes"] = object(e.Attributes)
	}
	var err error
	var v any
	if v, err = plainSlice(e.Modifiers, len(e.Modifiers)); err != nil {
		return nil, core.Invalidf("entity %q: modifiers cannot be written as JSON: %v", e.Name, err)
	}
	m["modifiers"] = marked(v)
	if e.Tags == nil {
		m["tags"] = null
	} else {
		tags := make([]any, len(e.Tags))
		for i, t := range e.Tags {
			tags[i] = t
		}
		m["tags"] = tags
	}
	if e.Combatant != nil {
		if v, err = scripting.PlainJSON(e.Combatant); err != nil {
			return nil, core.Invalidf("entity %q: combatant cannot be written as JSON: %v", e.Name, err)
		}
		m["combatant"] = marked(v)
	}
	if v, err = plainSlice(e.Sources, len(e.Sources)); err != nil {
		return nil, core.Invalidf("entity %q: sources cannot be written as JSON: %v", e.Name, err)
	}
	m["sources"] = marked(v)
	optional(m, "appVersion", e.AppVersion)
	optional(m, "systemVersion", e.SystemVersion)
	m["created"] = jsonTime(e.Created)
	m["modified"] = jsonTime(e.Modified)
	if v, err = plain(e.Meta, null); err != nil {
		return nil, core.Invalidf("entity %q: meta cannot be written as JSON: %v", e.Name, err)
	}
	m["meta"] = v
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

// plainObject deep-copies a JSON object into plain values, with null
// (nil or templates.Null) for JSON null.
func plainObject(o core.Object, null any) map[string]any {
	out := make(map[string]any, len(o))
	for k, v := range o {
		pv, err := plain(v, null)
		if err != nil {
			pv = null // unreachable for decoded JSON; keep the key
		}
		out[k] = pv
	}
	return out
}

// plain converts a value decoded from JSON (or built in Go) into the plain
// values scripting uses: int64 for integers up to 2^53, float64 otherwise,
// null (nil or templates.Null) for JSON null.
func plain(v any, null any) (any, error) {
	switch x := v.(type) {
	case nil:
		return null, nil
	case string, bool, int64:
		return x, nil
	case float64:
		return scripting.NumberValue(x), nil
	case int:
		return int64(x), nil
	case json.Number:
		return scripting.DecodeJSON([]byte(x)) // a number: never null
	case map[string]any:
		return plainObject(x, null), nil
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			pv, err := plain(item, null)
			if err != nil {
				return nil, err
			}
			out[i] = pv
		}
		return out, nil
	default:
		pv, err := scripting.PlainJSON(x)
		if err != nil || null == nil {
			return pv, err
		}
		return templates.MarkNulls(pv), nil
	}
}
