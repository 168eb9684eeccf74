package redact

import (
	"reflect"
	"sort"

	"github.com/vttapp/companion/core"
)

// ChangedKeys lists, in order, the keys whose value differs between two
// data objects (added and removed keys included).
func ChangedKeys(a, b core.Object) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || !reflect.DeepEqual(v, w) {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
