package scripting

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSandboxHidesUnsafeGlobals(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
    local seen = {}
    for _, name in ipairs({ "io", "os", "debug", "package", "dofile", "loadfile", "load", "loadstring",
                            "module", "collectgarbage", "getfenv", "setfenv", "newproxy", "_printregs", "channel", "coroutine" }) do
      if _G[name] ~= nil then table.insert(seen, name) end
    end
    if string.dump ~= nil then table.insert(seen, "string.dump") end
    return { seen = seen, hasString = string.upper("x"), hasMath = math.floor(2.5), hasTable = table.concat({ "a", "b" }, "-") }
`)}, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if seen := v["seen"].([]any); len(seen) != 0 {
		t.Fatalf("the sandbox exposes %v", seen)
	}
	if v["hasString"] != "X" || v["hasMath"] != int64(2) || v["hasTable"] != "a-b" {
		t.Fatalf("base libraries missing: %v", v)
	}
}

func TestSandboxBoundsStringBuilding(t *testing.T) {
	for _, body := range []string{
		`return { s = string.rep("x", 1e9) }`,
		`return { s = ("x"):rep(1e8, ",") }`,
		`return { s = string.format("%999999999d", 1) }`,
	} {
		rt := start(t, map[string]string{"system.lua": kindWith(body)}, Options{})
		_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
		if err == nil || !strings.Contains(err.Error(), "system.lua:5:") || !strings.Contains(err.Error(), "limit") {
			t.Errorf("%s: want a located limit error, got %v", body, err)
		}
	}
	rt := start(t, map[string]string{"system.lua": kindWith(`return { s = string.rep("ab", 3, "-"), one = ("ab"):rep(1, "-"), none = ("ab"):rep(0, "-"), empty = (""):rep(3, ","), f = string.format("%5.1f|%s", 2.25, "x") }`)}, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil || v["s"] != "ab-ab-ab" || v["one"] != "ab" || v["none"] != "" || v["empty"] != ",," || v["f"] != "  2.2|x" && v["f"] != "  2.3|x" {
		t.Fatalf("ordinary rep/format: %v %v", v, err)
	}
}

func TestRequireStaysInsideTheFolder(t *testing.T) {
	files := map[string]string{
		"lib/format.lua": `loads = (loads or 0) + 1
return { twice = function(s) return s .. s end }`,
		"lib/cycle_a.lua": `return require("lib.cycle_b")`,
		"lib/cycle_b.lua": `return require("lib.cycle_a")`,
		"system.lua": kindWith(`
    local f = require("lib.format")
    local g = require("lib.format")
    local results = { same = (f == g), twice = f.twice("ab"), loads = loads }
    for _, name in ipairs({ "../secret", "/etc/passwd", "lib/format", "lib..format", "lib.missing", "lib.cycle_a" }) do
      local ok, err = pcall(require, name)
      results[name] = ok and "loaded" or tostring(err)
    end
    return results
`),
	}
	rt := start(t, files, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if v["same"] != true || v["twice"] != "abab" || v["loads"] != int64(1) {
		t.Fatalf("a module must load once per state: %v", v)
	}
	for name, want := range map[string]string{
		"../secret": "is not valid", "/etc/passwd": "is not valid", "lib/format": "is not valid", "lib..format": "is not valid",
		"lib.missing": "there is no lib/missing.lua", "lib.cycle_a": "require cycle",
	} {
		if got, _ := v[name].(string); !strings.Contains(got, want) {
			t.Errorf("require(%q) = %q, want it to mention %q", name, got, want)
		}
	}
}

func TestEndlessLoopTimesOutAndTheRuntimeKeepsServing(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
    if e.loop then
      while true do end
    end
    return { ok = true }
`)}, Options{CallTimeout: 50 * time.Millisecond, PoolSize: 1})
	ctx := context.Background()
	before := rt.Created()
	startAt := time.Now()
	_, err := rt.CallTable(ctx, "thing", "view", map[string]any{"loop": true})
	var se *ScriptError
	if !errors.As(err, &se) || !se.Timeout || se.File != "system.lua" || se.Line != 7 {
		t.Fatalf("want a timeout at system.lua:7, got %#v (%v)", err, err)
	}
	if !strings.Contains(err.Error(), "system.lua:7: the script ran longer than 50ms") {
		t.Fatalf("message: %v", err)
	}
	if elapsed := time.Since(startAt); elapsed > 2*time.Second {
		t.Fatalf("the timeout took %v", elapsed)
	}
	v, err := rt.CallTable(ctx, "thing", "view", map[string]any{})
	if err != nil || v["ok"] != true {
		t.Fatalf("the runtime must keep serving: %v %v", v, err)
	}
	if rt.Created() != before+1 {
		t.Fatalf("the timed-out state must be discarded and a new one prepared: created %d -> %d", before, rt.Created())
	}
}

func TestRunawayRecursionIsAnError(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": `local companion = require("companion")
local function deep(n)
  return 1 + deep(n + 1)
end
companion.entity("thing", { collection = "things", view = function(e) return { n = deep(1) } end })
`}, Options{})
	_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	var se *ScriptError
	if !errors.As(err, &se) || se.File != "system.lua" || se.Line != 3 || !strings.Contains(se.Message, "stack overflow") {
		t.Fatalf("want a stack overflow at system.lua:3, got %v", err)
	}
}

func TestRuntimeErrorsAreLocated(t *testing.T) {
	rt := start(t, map[string]string{
		"lib/util.lua": `local M = {}
function M.fail(x)
  return x.missing.field
end
return M`,
		"system.lua": kindWith(`
    if e.mode == "error" then error("the goblin is too small") end
    if e.mode == "lib" then return require("lib.util").fail({}) end
    if e.mode == "string" then return "text" end
    if e.mode == "list" then return { 1, 2 } end
    if e.mode == "func" then return { f = function() end } end
    return {}
`)}, Options{})
	ctx := context.Background()
	for mode, want := range map[string]string{
		"error":  "system.lua:6: the goblin is too small",
		"lib":    "lib/util.lua:3: attempt to index a non-table object(nil) with key 'field'",
		"string": "system.lua:4: the view function of \"thing\" returned a string; it must return a table",
		"list":   "system.lua:4: the view function of \"thing\" returned a list; it must return a table of named values",
		"func":   "system.lua:4: the view function of \"thing\" returned a value that is not JSON: f: a function cannot be written as JSON",
	} {
		_, err := rt.CallTable(ctx, "thing", "view", map[string]any{"mode": mode})
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", mode, err, want)
		}
	}
	v, err := rt.CallTable(ctx, "thing", "view", map[string]any{})
	if err != nil || len(v) != 0 {
		t.Fatalf("an empty table is an empty view: %v %v", v, err)
	}
}

func TestSyntaxErrorsInEveryFileAreReported(t *testing.T) {
	_, err := tryStart(map[string]string{
		"system.lua":     "local x = = 1\n",
		"lib/a.lua":      "return {\n  a = 1,\n  b = \n}\n",
		"lib/ok.lua":     "return {}\n",
		"tests/skip.lua": "this is not compiled",
	}, Options{})
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 2 {
		t.Fatalf("want two problems, got %v", err)
	}
	if ps[0].File != "lib/a.lua" || ps[0].Line != 4 || !strings.HasPrefix(ps[0].Message, "syntax error") {
		t.Errorf("lib/a.lua: %v", ps[0])
	}
	if ps[1].File != "system.lua" || ps[1].Line != 1 || !strings.Contains(ps[1].Message, "near '='") {
		t.Errorf("system.lua: %v", ps[1])
	}
	if _, err := tryStart(map[string]string{"other.lua": "return 1"}, Options{}); err == nil || !strings.Contains(err.Error(), "system.lua: entry script not found") {
		t.Fatalf("missing entry: %v", err)
	}
}

func TestEntryRuntimeErrorIsLocated(t *testing.T) {
	_, err := tryStart(map[string]string{"system.lua": "local companion = require(\"companion\")\n\nlocal t = nil\nprint(t.x)\n"}, Options{})
	var se *ScriptError
	if !errors.As(err, &se) || se.File != "system.lua" || se.Line != 4 {
		t.Fatalf("want an error at system.lua:4, got %v", err)
	}
}

func TestDeclarationsOnlyWhileLoading(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`companion.types("late", { 1 }) return {}`)}, Options{})
	_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "can only be called while the system loads") {
		t.Fatalf("got %v", err)
	}
}

func TestDeclarationProblemsAreCollected(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": `local companion = require("companion")
companion.entity("Bad Kind", {})
companion.entity("ok", "not a table")
companion.types(42, {})
companion.system("x")
companion.entity("fine", { collection = "fines", view = function(e) return {} end, size = 3 })
`}, Options{})
	d := rt.Declarations()
	if len(d.Problems) != 4 {
		t.Fatalf("want 4 problems, got %v", d.Problems)
	}
	for i, line := range []int{2, 3, 4, 5} {
		if d.Problems[i].File != "system.lua" || d.Problems[i].Line != line {
			t.Errorf("problem %d at %s:%d, want line %d", i, d.Problems[i].File, d.Problems[i].Line, line)
		}
	}
	if len(d.Entities) != 1 || d.Entities[0].Fields["size"] != int64(3) || d.Entities[0].Line != 6 {
		t.Fatalf("entities: %+v", d.Entities)
	}
	if p := d.Entities[0].Funcs["view"]; p.File != "system.lua" || p.Line != 6 {
		t.Fatalf("view position: %+v", p)
	}
}

func TestPrintGoesToTheHost(t *testing.T) {
	var got []string
	rt := start(t, map[string]string{"system.lua": kindWith(`print("hello", 1, companion.null) return {}`)}, Options{Print: func(s string) { got = append(got, s) }})
	if _, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "hello\t1\tnull" {
		t.Fatalf("print: %q", got)
	}
}
