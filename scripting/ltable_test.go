package scripting

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The converter builds tables through a mirror of lua.LTable's layout; if
// gopher-lua changes it the mirror is not used (slower, still correct).
// This test says so loudly when it happens.
func TestFastTablesMatchGopherLuaLayout(t *testing.T) {
	if !fastTables {
		t.Fatal("scripting.tableLayout no longer mirrors lua.LTable: update it for the gopher-lua version in go.mod")
	}
}

// Tables built by the converter behave like tables built by Lua: pairs,
// next, #, table functions, new and removed keys.
func TestConvertedTablesBehaveLikeLuaTables(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
    local d = e.data
    local keys = {}
    for k, v in pairs(d) do keys[#keys + 1] = k end
    table.sort(keys)
    local n = 0
    local k = next(d)
    while k ~= nil do n = n + 1; k = next(d, k) end
    d.added = "new"
    d.a = nil
    local after = {}
    for k2 in pairs(d) do after[#after + 1] = k2 end
    table.sort(after)
    local list = e.list
    table.insert(list, "d")
    table.insert(list, 1, "z")
    local removed = table.remove(list, 2)
    return {
      keys = table.concat(keys, ","), count = n, after = table.concat(after, ","),
      len = #list, list = table.concat(list, ","), removed = removed,
      emptylen = #e.empty, emptynext = next(e.emptyobj) == nil,
      again = e.data.b, same = e.data == d,
    }
`)}, Options{})
	arg := map[string]any{
		"data":     map[string]any{"a": int64(1), "b": "two", "c": []any{}, "d": map[string]any{}},
		"list":     []any{"a", "b", "c"},
		"empty":    []any{},
		"emptyobj": map[string]any{},
	}
	for i := 0; i < 3; i++ { // the same state, its interned keys reused
		v, err := rt.CallTable(context.Background(), "thing", "view", arg)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{
			"keys": "a,b,c,d", "count": int64(4), "after": "added,b,c,d",
			"len": int64(4), "list": "z,b,c,d", "removed": "a", // z inserted first, then a removed
			"emptylen": int64(0), "emptynext": true, "again": "two", "same": true,
		}
		for k, w := range want {
			if v[k] != w {
				t.Errorf("%s = %#v, want %#v", k, v[k], w)
			}
		}
	}
}

// Converted objects get their key list (what next walks) only when they
// are iterated: every traversal must still visit each key once, whatever
// was assigned or cleared before or during it, as for a table made in Lua.
func TestConvertedTablesIterateLikeLuaTables(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
  local function walk(t)
    local seen, n = {}, 0
    local k = next(t)
    while k ~= nil do
      if seen[k] then return "twice " .. tostring(k) end
      seen[k] = true
      n = n + 1
      k = next(t, k)
    end
    local names = {}
    for key in pairs(seen) do names[#names + 1] = tostring(key) end
    table.sort(names)
    return n .. ":" .. table.concat(names, ",")
  end
  local function run(t)
    local r = {}
    r[#r + 1] = walk(t.a)
    t.b.name = "changed"
    t.b.extra = 1
    r[#r + 1] = walk(t.b)
    t.c.name = nil
    r[#r + 1] = walk(t.c)
    for k in pairs(t.d) do t.d[k] = nil end
    r[#r + 1] = tostring(next(t.d)) .. walk(t.d)
    local n = 0
    for k, v in pairs(t.e) do n = n + 1; t.e[k] = tostring(v) .. "!" end
    r[#r + 1] = n .. walk(t.e) .. t.e.name
    t.f[1] = true
    r[#r + 1] = walk(t.f)
    return r
  end
  local function copy(v)
    if type(v) ~= "table" then return v end
    local out = {}
    for k, x in pairs(v) do out[k] = copy(x) end
    return out
  end
  local lua = {}
  for _, k in ipairs({ "a", "b", "c", "d", "e", "f" }) do lua[k] = copy(e.data[k]) end
  return { converted = run(e.data), made = run(lua) }
`)}, Options{})
	obj := func() map[string]any {
		m := map[string]any{"name": "goblin", "hp": int64(7), "list": []any{"x"}}
		for i := 0; i < 12; i++ {
			m[fmt.Sprintf("k%d", i)] = int64(i)
		}
		return m
	}
	data := map[string]any{}
	for _, k := range []string{"a", "b", "c", "d", "e", "f"} {
		data[k] = obj()
	}
	got, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"data": data})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got["converted"], got["made"]) {
		t.Errorf("converted %v\nmade in Lua %v", got["converted"], got["made"])
	}
	if r := got["converted"].([]any); len(r) != 6 || !strings.HasPrefix(r[0].(string), "15:") {
		t.Errorf("walks: %v", r)
	}
}
