package scripting

import (
	"context"
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
