package scripting

import (
	"context"
	"strings"
	"testing"
)

// Shared tables are read-only, not hidden: everything that reads a table
// reads through their proxies, and a view may return them.
func TestFrozenTablesReadLikeTables(t *testing.T) {
	lib := `local companion = require("companion")
local M = { list = { "a", "b", "c" }, map = { x = 1, y = 2 }, empty = companion.array(), obj = companion.object() }
local Class = {}
Class.__index = Class
function Class.new(n) return setmetatable({ n = n }, Class) end
function Class:double() return self.n * 2 end
M.Class = Class
return M`
	body := `local m = require("lib.m")
local keys = {}
for k in pairs(m.map) do keys[#keys + 1] = k end
table.sort(keys)
local items = {}
for i, v in ipairs(m.list) do items[i] = v end
local k1 = next(m.list)
local obj = m.Class.new(21)
return {
  len = #m.list, concat = table.concat(m.list, "-"), unpacked = select("#", unpack(m.list)),
  raw = rawget(m.map, "x"), keys = table.concat(keys, ","), items = table.concat(items, ","), first = k1,
  joined = companion.format.join(m.list, ", ", " and "), maxn = table.maxn(m.list),
  method = obj:double(), mt_is_class = getmetatable(obj) == m.Class,
  list = m.list, map = m.map, empty = m.empty, obj = m.obj, string_len = string.len("abc"),
}`
	rt := start(t, map[string]string{"lib/m.lua": lib, "system.lua": `require("lib.m")` + "\n" + kindWith(body)}, Options{PoolSize: 1})
	for i := 0; i < 2; i++ {
		data, _, err := rt.CallJSON(context.Background(), "thing", "view", map[string]any{}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"concat":"a-b-c","empty":[],"first":1,"items":"a,b,c","joined":"a, b and c","keys":"x,y","len":3,"list":["a","b","c"],"map":{"x":1,"y":2},"maxn":3,"method":42,"mt_is_class":true,"obj":{},"raw":1,"string_len":3,"unpacked":3}`
		if string(data) != want {
			t.Fatalf("call %d:\n got %s\nwant %s", i, data, want)
		}
		v, err := rt.Call(context.Background(), "thing", "view", map[string]any{})
		if err != nil || v.(map[string]any)["list"].([]any)[2] != "c" || len(v.(map[string]any)["map"].(map[string]any)) != 2 {
			t.Fatalf("Call: %v %v", v, err)
		}
	}
}

// A refused write names the field and the place, and says what to do.
func TestFrozenWriteIsALocatedError(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`string.shout = 1 return {}`)}, Options{})
	_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "system.lua:5:") || !strings.Contains(err.Error(), `field "shout"`) || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), "local table") {
		t.Fatalf("got %v", err)
	}
}

// While the system loads, nothing is frozen: modules build their tables.
func TestEntryScriptIsNotFrozen(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": `string.shout = function(s) return s:upper() .. "!" end
setmetatable_ok = pcall(setmetatable, {}, {})
` + kindWith(`return { s = ("hi"):shout() }`)}, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil || v["s"] != "HI!" {
		t.Fatalf("%v %v", v, err)
	}
}

// A module first required during a call is that call's own: loaded once
// within it, again for the next call, never kept.
func TestModuleRequiredDuringACallIsNotKept(t *testing.T) {
	lib := `return { seen = {} }`
	rt := start(t, map[string]string{"lib/late.lua": lib, "system.lua": kindWith(`local m = require("lib.late")
local again = require("lib.late")
local before = m.seen.x or "none"
m.seen.x = e.name
return { before = before, same = m == again }`)}, Options{PoolSize: 1})
	for _, name := range []string{"A", "B"} {
		v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"name": name})
		if err != nil || v["before"] != "none" || v["same"] != true {
			t.Fatalf("call for %s: %v %v", name, v, err)
		}
	}
}
