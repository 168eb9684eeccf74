package systems

import (
	"fmt"
	"sort"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// A kind's bounds: the values a data key may hold when a player writes it
// (their character's editable keys, the amounts of damage, healing and
// temporary hit points they apply). Health values are the system's to
// declare:
//
//	bounds = {
//	  hit_points = { min = 0, max = 9999, integer = true },
//	  max_hit_points = { min = 1, max = 9999, integer = true },
//	}
//
// core applies them (core.BoundRules); a key without bounds takes any
// JSON value its kind allows.

// boundOption reads a kind's bounds, adding a problem for each mistake.
func boundOption(d *scripting.EntityDecl, add func(string, ...any)) map[string]core.ValueBound {
	v, ok := d.Fields["bounds"]
	if !ok {
		return nil
	}
	table, isTable := v.(map[string]any)
	if !isTable {
		add("bounds must be a table of data keys, each { min = n, max = n, integer = true }")
		return nil
	}
	out := map[string]core.ValueBound{}
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		spec, isSpec := table[key].(map[string]any)
		if !isSpec {
			add("bounds.%s must be a table such as { min = 0, max = 9999, integer = true }", key)
			continue
		}
		var b core.ValueBound
		for name, value := range spec {
			switch name {
			case "min", "max":
				n, isNumber := declaredNumber(value)
				if !isNumber {
					add("bounds.%s.%s must be a number", key, name)
					continue
				}
				if name == "min" {
					b.Min = &n
				} else {
					b.Max = &n
				}
			case "integer":
				flag, isBool := value.(bool)
				if !isBool {
					add("bounds.%s.integer must be true or false", key)
					continue
				}
				b.Integer = flag
			default:
				add("bounds.%s: unknown field %q (known: min, max, integer)", key, name)
			}
		}
		if b.Min != nil && b.Max != nil && *b.Min > *b.Max {
			add("bounds.%s: min %s is above max %s", key, fmt.Sprint(*b.Min), fmt.Sprint(*b.Max))
		}
		out[key] = b
	}
	return out
}

// Bounds lists the bounds kind declares on its data keys (core.BoundRules).
func (s *System) Bounds(kind string) map[string]core.ValueBound {
	if k, ok := s.Kind(kind); ok {
		return k.Bounds
	}
	return nil
}

// Bounds forwards to the current system (core.BoundRules).
func (h *Holder) Bounds(kind string) map[string]core.ValueBound { return h.Current().Bounds(kind) }

// declaredNumber reads a number of a declaration (the conversion from Lua
// gives integers as int64).
func declaredNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}
