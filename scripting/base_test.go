package scripting

import (
	"context"
	"strings"
	"testing"
)

// type() is replaced by an allocation-free version; it must answer as the
// base library does.
func TestTypeAnswersAsTheBaseLibrary(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
    local companion = require("companion")
    return { n = type(nil), b = type(true), num = type(1.5), s = type("x"), t = type({}),
      f = type(print), lf = type(function() end), u = type(companion.null), data = type(e.data) }
`)}, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"data": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"n": "nil", "b": "boolean", "num": "number", "s": "string", "t": "table",
		"f": "function", "lf": "function", "u": "userdata", "data": "table"}
	for k, w := range want {
		if v[k] != w {
			t.Errorf("%s: type gave %v, want %v", k, v[k], w)
		}
	}
	rt = start(t, map[string]string{"system.lua": kindWith(`return { x = type() }`)}, Options{})
	if _, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{}); err == nil || !strings.Contains(err.Error(), "system.lua:") {
		t.Fatalf("type() without a value: %v", err)
	}
}
