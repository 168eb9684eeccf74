package kernel

import (
	"github.com/vttapp/companion/core"
)

func entityOfKind(tx core.Tx, kind, id string) (*core.Entity, error) {
	e, err := tx.Entity(id)
	if core.IsNotFound(err) || (err == nil && kind != "" && e.Kind != kind) {
		if kind == "" {
			return nil, core.NotFoundf("no entity with id '%s'", core.Clip(id))
		}
		return nil, core.NotFoundf("no %s with id '%s'", kind, core.Clip(id))
	}
	return e, err
}

// copyRanges copies each range key from src to dst (removing it from dst
// when src has none).
func copyRanges(dst, src core.Object, ranges []string) {
	if dst == nil {
		return
	}
	for _, key := range ranges {
		if v, ok := src[key]; ok {
			dst[key] = CloneJSON(v)
		} else {
			delete(dst, key)
		}
	}
}

// CloneJSON deep-copies a decoded JSON value so two documents never share
// a nested map or slice.
func CloneJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = CloneJSON(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = CloneJSON(x)
		}
		return out
	default:
		return v
	}
}
