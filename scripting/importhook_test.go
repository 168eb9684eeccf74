package scripting

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

const importSystem = `local companion = require("companion")
local take, list = companion.import.take, companion.import.list
companion.entity("monster", { collection = "monsters", view = function(e) return {} end })

companion.import.compendium("monster", function(el)
  local actions = {}
  for i, a in ipairs(list(take(el, "action"))) do
    actions[i] = take(a, "name")
  end
  return { kind = "monster", name = take(el, "name"), data = { actions = actions } }
end)

companion.import.compendium("spell", function(el)
  return nil
end)

companion.import.compendium("twins", function(el)
  local name = take(el, "name")
  return { { name = name .. " A" }, { name = name .. " B" } }
end)
`

func TestImportHookMapsAndReturnsWhatIsLeft(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": importSystem}, Options{})
	if got := rt.ImportKinds(); !reflect.DeepEqual(got, []string{"monster", "spell", "twins"}) {
		t.Fatalf("kinds %v", got)
	}
	if file, line := rt.ImportPos("monster"); file != "system.lua" || line != 5 {
		t.Errorf("pos %s:%d", file, line)
	}
	element := map[string]any{
		"name":   "Reed Stalker",
		"action": []any{map[string]any{"name": "Bite", "text": "It bites."}, map[string]any{"name": "Tail"}},
		"cr":     "2",
		"_attr":  map[string]any{"id": "X1"},
	}
	result, rest, err := rt.CallImport(context.Background(), "monster", element)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"kind": "monster", "name": "Reed Stalker", "data": map[string]any{"actions": []any{"Bite", "Tail"}}}
	if !reflect.DeepEqual(result, want) {
		t.Errorf("result %#v", result)
	}
	// The action list was taken whole; cr and the attributes were not.
	if wantRest := (map[string]any{"cr": "2", "_attr": map[string]any{"id": "X1"}}); !reflect.DeepEqual(rest, wantRest) {
		t.Errorf("rest %#v", rest)
	}
	// A single action (not a list) reads the same through list().
	result, _, err = rt.CallImport(context.Background(), "monster", map[string]any{"name": "Toad", "action": map[string]any{"name": "Lick"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := result.(map[string]any)["data"].(map[string]any)["actions"]; !reflect.DeepEqual(got, []any{"Lick"}) {
		t.Errorf("actions %#v", got)
	}
	// nil: nothing, and the element is handed back whole.
	result, rest, err = rt.CallImport(context.Background(), "spell", map[string]any{"name": "Fog"})
	if err != nil || result != nil || !reflect.DeepEqual(rest, map[string]any{"name": "Fog"}) {
		t.Errorf("spell: %#v %#v %v", result, rest, err)
	}
	// A list of entities; everything taken, nothing left.
	result, rest, err = rt.CallImport(context.Background(), "twins", map[string]any{"name": "Gem"})
	if err != nil || len(result.([]any)) != 2 || rest != nil {
		t.Errorf("twins: %#v %#v %v", result, rest, err)
	}
	if _, _, err := rt.CallImport(context.Background(), "race", map[string]any{}); err == nil {
		t.Error("a kind without a handler was called")
	}
}

func TestImportHookFailuresAreLocated(t *testing.T) {
	src := `local companion = require("companion")
companion.import.compendium("broken", function(el)
  return el.missing.field
end)
companion.import.compendium("slow", function(el)
  while true do end
end)
companion.import.compendium("hungry", function(el)
  local t = {}
  for i = 1, 1e8 do t[i] = string.rep("x", 1000000) .. i end
end)
companion.import.compendium("notjson", function(el)
  return { name = "x", data = { f = function() end } }
end)
companion.import.compendium("shared", function(el)
  return companion.import.take(companion, "null")
end)
`
	rt := start(t, map[string]string{"system.lua": src}, Options{CallTimeout: 200 * time.Millisecond, MaxCallMemory: 8 << 20})
	// The memory limit is judged where the time limit cannot come first:
	// on a loaded machine the hungry handler's allocations passed 200 ms
	// before 8 MiB (as in memory_test.go, a generous time limit).
	roomy := start(t, map[string]string{"system.lua": src}, Options{CallTimeout: 20 * time.Second, MaxCallMemory: 8 << 20})
	cases := map[string]string{
		"broken":  "system.lua:3:",
		"slow":    "ran longer than",
		"hungry":  "memory",
		"notjson": "system.lua:12: the compendium import handler of \"notjson\" returned a value that is not JSON",
		"shared":  "read-only",
	}
	for kind, want := range cases {
		call := rt
		if kind == "hungry" {
			call = roomy
		}
		_, _, err := call.CallImport(context.Background(), kind, map[string]any{"name": "x"})
		var se *ScriptError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a script error containing %q", kind, err, want)
		}
	}
	// The pool is healthy afterwards.
	if _, _, err := rt.CallImport(context.Background(), "notjson", map[string]any{}); err == nil {
		t.Error("no error")
	}
}

func TestImportDeclarationProblems(t *testing.T) {
	src := `local companion = require("companion")
companion.import.compendium("monster", function(el) end)
companion.import.compendium("monster", function(el) end)
companion.import.compendium("1bad", function(el) end)
companion.import.compendium("spell", "not a function")
companion.entity("thing", { view = function(e)
  companion.import.compendium("late", function(el) end)
  return {}
end })
`
	rt, err := tryStart(map[string]string{"system.lua": src}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	var msgs []string
	for _, p := range rt.Declarations().Problems {
		msgs = append(msgs, p.String())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		"system.lua:3: companion.import.compendium(\"monster\") is declared twice (first at system.lua:2)",
		"system.lua:4: companion.import.compendium: the first argument must be an element name",
		"system.lua:5: companion.import.compendium(\"spell\", ...): the second argument must be the function",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	// Declaring from a call is refused like every declaration.
	_, err = rt.Call(context.Background(), "thing", "view", map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "only be called while the system loads") {
		t.Errorf("late declaration: %v", err)
	}
}
