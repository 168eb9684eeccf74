package scripting

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// marshalLikeSystems is how the view JSON was written before CallJSON:
// encoding/json without HTML escaping.
func marshalLikeSystems(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// jsonCases are view bodies whose result CallJSON must write exactly as
// encoding/json writes the map CallTable returns.
var jsonCases = map[string]string{
	"scalars":   `return { s = "x", t = true, f = false, n = 1, neg = -3, frac = 0.25, null = companion.null }`,
	"numbers":   `return { a = 1e21, b = 1e-7, c = 2^53, d = 2^53 + 2, e = 1/3, f = -0.000001, g = 123456789.125, h = 1e20, i = -1e300 }`,
	"strings":   `return { q = "say \"hi\" \\ there", ctl = "a\nb\tc\rd" .. string.char(8, 12, 1, 31, 127), html = "<b>&amp;</b>", seps = "x\226\128\168y\226\128\169z", uni = "—é中😀" }`,
	"bad utf-8": `return { s = "a" .. string.char(255) .. "b" .. string.char(0xe2, 0x82), [string.char(200)] = 1 }`,
	"nesting":   `return { list = { 1, "two", { three = 3 }, { 4 } }, obj = { a = { b = { c = {} } } }, empty = {}, eo = companion.object(), ea = companion.array() }`,
	"sparse":    `return { s = { [2] = "b", [10] = "j" }, arr = companion.array({ "x", "y" }) }`,
	"keys":      `local t = {} for i = 1, 40 do t["k" .. (i * 7919 % 97)] = i end return t`,
	"32 keys":   `local t = {} for i = 1, 32 do t["k" .. (i * 7919 % 97)] = { ["x" .. (i % 5)] = i, a = i } end return t`,
	"defaults":  `return { name = "own name", id = companion.null }`,
	"entity":    `return { e = e, data = e.data }`,
	"empty":     `return {}`,
	"int keys":  `return { [1] = "a", [3] = "c" }`,
	"holes":     `local t = { 1, 2, 3, 4 } t[2] = nil local u = { "a", "b" } u[2] = nil return { t = t, u = u, marked = companion.object({ "x", "y" }), arr = companion.array({ k = 1 }) }`,
}

func TestCallJSONWritesWhatEncodingJSONWrites(t *testing.T) {
	for name, body := range jsonCases {
		t.Run(name, func(t *testing.T) {
			rt := start(t, map[string]string{"system.lua": kindWith("local companion = require('companion')\n" + body)}, Options{})
			ctx := context.Background()
			arg := map[string]any{"id": "e1", "data": map[string]any{"hp": int64(7), "list": []any{}, "obj": map[string]any{}, "x": nil, "f": 1.5, "s": "é\n"}}
			defaults := map[string]any{"id": "e1", "kind": "thing", "name": "Goblin", "slug": nil}
			want, err := rt.CallTable(ctx, "thing", "view", arg)
			if err != nil {
				t.Fatal(err)
			}
			var list []Default
			for k, v := range defaults {
				if _, ok := want[k]; !ok {
					want[k] = v
				}
				list = append(list, Default{Key: k, Value: v})
			}
			for _, wantValue := range []bool{false, true} {
				got, value, err := rt.CallJSON(ctx, "thing", "view", arg, list, wantValue)
				if err != nil {
					t.Fatal(err)
				}
				if w := marshalLikeSystems(t, want); !bytes.Equal(got, w) {
					t.Fatalf("CallJSON wrote\n%s\nencoding/json writes\n%s", got, w)
				}
				if (wantValue || value != nil) && !reflect.DeepEqual(value, want) {
					t.Fatalf("value %#v, want %#v", value, want)
				}
			}
		})
	}
}

// Without wantValue the map is built only when the JSON would not read back
// as the value: a page rendered later must see what the view returned.
func TestCallJSONReturnsTheValueWhenTheJSONIsLossy(t *testing.T) {
	for body, lossy := range map[string]bool{
		`return { n = -0.0 }`:               true,
		`return { s = string.char(255) }`:   true,
		`return { [string.char(255)] = 1 }`: true,
		`return { n = 0, s = "é\n\"" }`:     false,
	} {
		rt := start(t, map[string]string{"system.lua": kindWith(body)}, Options{})
		_, value, err := rt.CallJSON(context.Background(), "thing", "view", map[string]any{}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if (value != nil) != lossy {
			t.Errorf("%s: value %v, want one: %v", body, value, lossy)
		}
	}
}

func TestCallJSONRefusesWhatCallTableRefuses(t *testing.T) {
	for _, body := range []string{
		`return { f = function() end }`,
		`return { nested = { deeper = { print } } }`,
		`return { 1, 2 }`,
		`return { 1, function() end }`,
		`return "text"`,
		`return { [1.5] = true }`,
		`return { 1, x = 2 }`,
		`local t = {} t.self = t return t`,
		`return { n = 0/0 }`,
		`return { n = 1/0 }`,
	} {
		rt := start(t, map[string]string{"system.lua": kindWith(body)}, Options{})
		_, want := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
		_, _, got := rt.CallJSON(context.Background(), "thing", "view", map[string]any{}, nil, false)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s:\n CallJSON  %v\n CallTable %v", body, got, want)
		}
		if !strings.HasPrefix(got.Error(), "system.lua:") {
			t.Errorf("%s: %v is not located", body, got)
		}
	}
}

// marker stands for the template null of the systems package.
type marker struct{}

// With Options.Null the value CallJSON builds has the marker for every
// JSON null (nested, companion.null, defaults), the JSON is unchanged, and
// a marker handed to Lua reads as companion.null.
func TestCallJSONWritesNullsAsOptionsNull(t *testing.T) {
	null := (*marker)(nil)
	body := `local c = require("companion")
	return { a = c.null, b = { 1, c.null }, c = { d = c.null }, argIsNull = e.x == c.null, nested = e.list[1] == c.null, n = #e.list }`
	rt := start(t, map[string]string{"system.lua": kindWith(body)}, Options{Null: null})
	arg := map[string]any{"x": null, "list": []any{null, "y"}}
	data, v, err := rt.CallJSON(context.Background(), "thing", "view", arg, []Default{{Key: "id"}}, true)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"a":null,"argIsNull":true,"b":[1,null],"c":{"d":null},"id":null,"n":2,"nested":true}`
	if string(data) != want {
		t.Fatalf("JSON\n got %s\nwant %s", data, want)
	}
	isNull := func(x any) bool { m, ok := x.(*marker); return ok && m == nil }
	if !isNull(v["a"]) || !isNull(v["b"].([]any)[1]) || !isNull(v["c"].(map[string]any)["d"]) || !isNull(v["id"]) {
		t.Fatalf("nulls in the value are not the marker: %#v", v)
	}
	if v["argIsNull"] != true || v["nested"] != true {
		t.Fatalf("the marker did not reach Lua as companion.null: %#v", v)
	}
}
