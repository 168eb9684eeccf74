package kernel

import (
	"github.com/vttapp/companion/core"
)

// encodedAtLeast is a lower bound of the length of v's JSON encoding (v a
// value decoded from JSON: maps, slices, strings, numbers, booleans, nil),
// counted without encoding it, and no further than past limit. A merge
// patch checks the document it made against the stored limit with it
// before encoding and decoding that document again (patchDocument).
func encodedAtLeast(v any, limit int) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		if n > limit {
			return
		}
		switch x := v.(type) {
		case string:
			n += len(x) + 2
		case map[string]any:
			n += 2
			for k, e := range x {
				n += len(k) + 4 // "k": and a comma
				walk(e)
				if n > limit {
					return
				}
			}
		case []any:
			n += 2
			for _, e := range x {
				n++ // a comma
				walk(e)
				if n > limit {
					return
				}
			}
		default:
			n++ // a number, true, false or null is one byte at least
		}
	}
	walk(v)
	return n
}

// storedLimit is the size limit of the stored form of a document being
// patched into out (0: none known).
func storedLimit(out any) (string, int) {
	switch out.(type) {
	case *core.Entity:
		return "entity", core.MaxEntityBytes
	case *core.Combatant:
		return "combatant", core.MaxCombatantBytes
	case *core.Token:
		return "token", core.MaxTokenBytes
	}
	return "", 0
}
