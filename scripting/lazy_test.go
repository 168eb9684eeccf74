package scripting

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// lazyProbe runs the same operations on copies of one value converted
// eagerly (e.data.shallow, depth 3) and lazily (e.data.a.deep, placeholders
// from depth 4): a placeholder must be indistinguishable from the table
// the eager conversion makes.
const lazyProbe = `
local function keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = tostring(k) end
  table.sort(out)
  return table.concat(out, ",")
end
local function probe(c)
  local r = {}
  r[#r + 1] = c[1].name .. c[1].list[2] .. type(c[1].obj)
  r[#r + 1] = tostring(#c[2].list) .. tostring(#c[2])
  local n, s = 0, ""
  for i, v in ipairs(c[3].list) do n = n + 1; s = s .. i .. v end
  r[#r + 1] = n .. s
  r[#r + 1] = keys(c[4])
  r[#r + 1] = tostring(next(c[5]) ~= nil) .. tostring(next({}) == nil)
  r[#r + 1] = tostring(rawget(c[6], "name")) .. tostring(rawget(c[6].list, 1))
  rawset(c[7], "new", 1)
  r[#r + 1] = keys(c[7])
  c[8].new2 = 5
  c[8].name = nil
  r[#r + 1] = keys(c[8]) .. tostring(c[8].new2)
  table.insert(c[9].list, "z")
  r[#r + 1] = #c[9].list .. table.concat(c[9].list, ",")
  r[#r + 1] = table.concat({ unpack(c[10].list) }, ";") .. select("#", unpack(c[10].list))
  r[#r + 1] = tostring(getmetatable(c[11])) .. tostring(getmetatable(c[11].list))
  local ok, err = pcall(setmetatable, c[12], {})
  r[#r + 1] = tostring(ok) .. tostring(err):gsub("^.-:%d+: ", "")
  r[#r + 1] = companion.format.join(c[13].list, "+")
  r[#r + 1] = tostring(c[14] == c[14]) .. type(c[14]) .. tostring(c[14].obj == c[14].obj)
  c[15].list[1] = "changed"
  r[#r + 1] = c[15].list[1] .. #c[15].list
  r[#r + 1] = tostring(c[16].n == companion.null) .. tostring(c[16].missing)
  table.remove(c[17].list, 1)
  table.sort(c[17].list, function(a, b) return a > b end)
  r[#r + 1] = table.concat(c[17].list, ",")
  local ok2, err2 = pcall(function() return c[18] .. "x" end)
  r[#r + 1] = tostring(ok2) .. tostring(err2):gsub("^.-:%d+: ", "")
  r[#r + 1] = ("abc"):gsub("%w", c[19].map)
  return { text = r, untouched = c[20], marked = companion.object(c[21].obj), empty = c[22].empty, list = c[23].list }
end
return { shallow = probe(e.data.shallow), deep = probe(e.data.a.b.deep) }
`

func lazyCopies() []any {
	out := make([]any, 23)
	for i := range out {
		out[i] = map[string]any{
			"name": "goblin", "list": []any{"a", "b", "c"}, "obj": map[string]any{"k": int64(1), "f": 1.5},
			"n": nil, "map": map[string]any{"a": "1", "b": true}, "empty": map[string]any{},
		}
	}
	return out
}

func TestLazyTablesBehaveAsEagerOnes(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(lazyProbe)}, Options{})
	arg := map[string]any{"id": "x", "data": map[string]any{
		"shallow": lazyCopies(),
		"a":       map[string]any{"b": map[string]any{"deep": lazyCopies()}},
	}}
	for _, call := range []string{"value", "json"} {
		var got map[string]any
		if call == "value" {
			v, err := rt.CallTable(context.Background(), "thing", "view", arg)
			if err != nil {
				t.Fatal(err)
			}
			got = v
		} else {
			data, _, err := rt.CallJSON(context.Background(), "thing", "view", arg, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(got["shallow"], got["deep"]) {
			t.Errorf("%s: eager and lazy tables differ:\n eager %v\n lazy  %v", call, got["shallow"], got["deep"])
		}
		text := got["deep"].(map[string]any)["text"].([]any)
		if len(text) != 19 || text[0] != "goblinbtable" {
			t.Errorf("%s: probe ran short: %v", call, text)
		}
	}
}

// A value the eager conversion refuses is refused before the call, with
// the same message, however deep it sits.
func TestLazyConversionRefusesWhatEagerRefuses(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`return {}`)}, Options{})
	bad := json.Number("1e999999")
	deep := map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{"d": []any{bad}}}}}
	shallow := map[string]any{"d": []any{bad}}
	_, errDeep := rt.CallTable(context.Background(), "thing", "view", deep)
	_, errShallow := rt.CallTable(context.Background(), "thing", "view", shallow)
	if errDeep == nil || errShallow == nil {
		t.Fatalf("errors: deep %v, shallow %v", errDeep, errShallow)
	}
	if errDeep.Error() != errShallow.Error() || !strings.Contains(errDeep.Error(), "cannot pass") {
		t.Errorf("deep %q, shallow %q", errDeep, errShallow)
	}
}

// Placeholders a call did not fill do not outlive it.
func TestLazyPlaceholdersAreForgottenAfterTheCall(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`return { n = e.data.a.b.c.name }`)}, Options{PoolSize: 1})
	arg := map[string]any{"data": map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{"name": "x"}, "d": map[string]any{"z": []any{int64(1)}}}}}}
	for i := 0; i < 3; i++ {
		if _, err := rt.CallTable(context.Background(), "thing", "view", arg); err != nil {
			t.Fatal(err)
		}
	}
	st := <-rt.idle
	defer func() { rt.idle <- st }()
	if n := len(st.conv.pending); n != 0 {
		t.Errorf("%d placeholders left after the call", n)
	}
}
