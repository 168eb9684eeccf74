package scripting

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomJSON builds a random JSON value: objects and arrays (empty ones
// included), integers within ±2^53, floats with fractions, strings with
// non-ASCII text, booleans and nulls.
func randomJSON(r *rand.Rand, depth int) any {
	kind := r.IntN(9)
	if depth > 4 && kind >= 7 {
		kind = r.IntN(7)
	}
	switch kind {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return r.Int64N(2*maxExactInt+1) - maxExactInt
	case 3:
		return int64(r.IntN(2000) - 1000)
	case 4:
		f := (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
		if f == math.Trunc(f) {
			f += 0.5
		}
		return f
	case 5, 6:
		words := []string{"", "goblin", "Élan", "火の玉", "a\"b", "tab\t", "1", "null", "{}", "💀"}
		return words[r.IntN(len(words))] + words[r.IntN(len(words))]
	case 7:
		n := r.IntN(5)
		arr := make([]any, n)
		for i := range arr {
			arr[i] = randomJSON(r, depth+1)
		}
		return arr
	default:
		n := r.IntN(5)
		obj := make(map[string]any, n)
		for i := 0; i < n; i++ {
			keys := []string{"a", "b", "1", "2", "name", "ÿ", "", "with space"}
			obj[keys[r.IntN(len(keys))]] = randomJSON(r, depth+1)
		}
		return obj
	}
}

// TestJSONRoundTripThroughLua passes random documents through a Lua
// function that returns its argument: every document comes back the same.
func TestJSONRoundTripThroughLua(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`return e`)}, Options{})
	r := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	for i := 0; i < 3000; i++ {
		doc := randomJSON(r, 0)
		want, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		// Also go through the text form, as stored entities do.
		parsed, err := DecodeJSON(want)
		if err != nil {
			t.Fatal(err)
		}
		for _, input := range []any{doc, parsed} {
			got, err := rt.Call(ctx, "thing", "references", input)
			if err != nil {
				t.Fatalf("case %d %s: %v", i, want, err)
			}
			gotJSON, _ := json.Marshal(got)
			if string(gotJSON) != string(want) {
				t.Fatalf("case %d changed through Lua:\n in %s\nout %s", i, want, gotJSON)
			}
		}
	}
}

func TestJSONNumbersKeepTheirKind(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`return e`)}, Options{})
	for _, tc := range []struct{ in, out string }{
		{`1`, `1`}, {`1.5`, `1.5`}, {`-0.125`, `-0.125`}, {`9007199254740992`, `9007199254740992`},
		{`1e300`, `1e+300`}, {`0.1`, `0.1`}, {`[]`, `[]`}, {`{}`, `{}`}, {`[[],{}]`, `[[],{}]`},
		{`[null,1,null]`, `[null,1,null]`}, {`{"1":"a","2":"b"}`, `{"1":"a","2":"b"}`}, {`null`, `null`},
	} {
		in, err := DecodeJSON([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := rt.Call(context.Background(), "thing", "references", in)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(got)
		if string(out) != tc.out {
			t.Errorf("%s -> %s, want %s", tc.in, out, tc.out)
		}
	}
	if v, _ := DecodeJSON([]byte(`[1, 1.5, 1.0]`)); fmt.Sprintf("%T %T %T", v.([]any)...) != "int64 float64 int64" {
		t.Errorf("DecodeJSON number types: %T", v.([]any)...)
	}
}

func TestTablesMadeInLua(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
    local m = e.mode
    if m == "empty" then return { v = {} } end
    if m == "object" then return { v = companion.object() } end
    if m == "array" then return { v = companion.array({}) } end
    if m == "seq" then return { v = { "a", "b", 3 } } end
    if m == "sparse" then return { v = { [1] = "a", [3] = "c" } } end
    if m == "mixed" then return { v = { 1, 2, name = "x" } } end
    if m == "holes" then return { v = { "a", nil, "c" } } end
    if m == "marked" then return { v = companion.object({ "a", "b" }) } end
    if m == "numkey" then return { v = { 1, [1.5] = 2, name = "x" } } end
    if m == "float" then return { v = { 0.1 + 0.2, 3 / 1, 2^53, -7 } } end
    if m == "nan" then return { v = 0/0 } end
    if m == "null" then return { v = companion.null, w = nil } end
    if m == "cycle" then local t = {} t.self = t return { v = t } end
    if m == "boolkey" then return { v = { [true] = 1 } } end
    if m == "append" then local d = e.list table.insert(d, 4) return { v = d, n = #d, o = e.obj } end
    if m == "nullcheck" then return { v = (e.list[2] == companion.null), t = type(e.list[2]), s = tostring(e.list[2]) } end
    return {}
`)}, Options{})
	ctx := context.Background()
	for mode, want := range map[string]string{
		"empty":     `{"v":[]}`,
		"object":    `{"v":{}}`,
		"array":     `{"v":[]}`,
		"seq":       `{"v":["a","b",3]}`,
		"sparse":    `{"v":{"1":"a","3":"c"}}`,
		"holes":     `{"v":{"1":"a","3":"c"}}`,
		"marked":    `{"v":{"1":"a","2":"b"}}`,
		"float":     `{"v":[0.30000000000000004,3,9007199254740992,-7]}`,
		"null":      `{"v":null}`,
		"append":    `{"n":3,"o":{},"v":[1,null,4]}`,
		"nullcheck": `{"s":"null","t":"userdata","v":true}`,
	} {
		got, err := rt.CallTable(ctx, "thing", "view", map[string]any{"mode": mode, "list": []any{int64(1), nil}, "obj": map[string]any{}})
		if err != nil {
			t.Errorf("%s: %v", mode, err)
			continue
		}
		out, _ := json.Marshal(got)
		if string(out) != want {
			t.Errorf("%s: %s, want %s", mode, out, want)
		}
	}
	for mode, want := range map[string]string{
		"mixed":   "v: table mixes list items and named keys",
		"nan":     "v: number NaN cannot be written as JSON",
		"cycle":   "nested deeper than 100 levels",
		"boolkey": "v: table key true (a boolean) cannot be a JSON object key",
		"numkey":  "v: table key 1.5 (a number) cannot be a JSON object key",
	} {
		_, err := rt.CallTable(ctx, "thing", "view", map[string]any{"mode": mode})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "system.lua:4: ") {
			t.Errorf("%s: got %v, want a located error containing %q", mode, err, want)
		}
	}
}
