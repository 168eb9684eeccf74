package scripting

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Every library function that loops or allocates in Go stops within the
// call's time limit, with a located error naming it. On gopher-lua's own
// functions the first three ran for 10 to 17 s against a 250 ms limit.
func TestBuiltinsStopWithinTheTimeLimit(t *testing.T) {
	const limit = 250 * time.Millisecond
	big := `local t = {} for i = 1, 300000 do t[i] = i end `
	for _, c := range []struct{ name, body string }{
		{"unpack", `return { n = select('#', unpack({}, 1, 1e9)) }`},
		{"unpack", `return { n = select('#', unpack({}, -9e18, 9e18)) }`},
		{"select", `return { n = select('#', unpack({}, 1, 2e7)) }`},
		{"select", `local t = {} return { n = select(1, unpack(t, 1, 70000)) }`},
		{"string.byte", `local s = ("x"):rep(4194304) return { n = select('#', string.byte(s, 1, -1)) }`},
		{"string.byte", `local s = ("x"):rep(4194304) return { n = select('#', s:byte(1, -1)) }`},
		{"string.char", `local t = {} for i = 1, 70000 do t[i] = 65 end return { n = #string.char(unpack(t)) }`},
		{"table.concat", big + `return { n = #table.concat(t, ",", 1, 1e9) }`},
		{"table.insert", big + `for i = 1, 1e6 do table.insert(t, 1, i) end return { n = #t }`},
		{"table.remove", big + `for i = 1, 1e6 do table.remove(t, 1) end return { n = #t }`},
		{"table.sort", big + `table.sort(t, function(a, b) return a > b end) return { n = #t }`},
		{"companion.format.join", `local t = {} for i = 1, 100 do t[i] = "x" end return { s = require("companion").format.join(t, ("x"):rep(4194304)) }`},
	} {
		rt := start(t, map[string]string{"system.lua": kindWith(c.body)}, Options{CallTimeout: limit, PoolSize: 1})
		began := time.Now()
		_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
		took := time.Since(began)
		var se *ScriptError
		if !errors.As(err, &se) || se.File != "system.lua" || se.Line != 5 {
			t.Errorf("%s: %.60s: want an error at system.lua:5, got %v", c.name, c.body, err)
			continue
		}
		if !se.Timeout && !strings.Contains(se.Message, "limit") {
			t.Errorf("%s: want a limit or time-limit error, got %v", c.name, err)
		}
		if !se.Timeout && !strings.Contains(se.Message, c.name) && !strings.Contains(se.Message, "unpack") {
			t.Errorf("%s: the error should name the function: %v", c.name, err)
		}
		if took > 4*limit {
			t.Errorf("%s: stopped after %v with a %v limit", c.name, took, limit)
		}
	}
}

// Within the limits the functions behave as Lua's.
func TestBuiltinsWithinTheirLimits(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
local t = {} for i = 1, 1000 do t[i] = i end
table.insert(t, 1, 0) table.remove(t) table.sort(t, function(a, b) return a > b end)
local s = string.char(unpack({72, 105}))
local top = select('#', unpack({}, 2^52, 2^52 + 2))
return { n = select('#', unpack(t)), last = select(-1, unpack(t)), bytes = select('#', s:byte(1, -1)), s = s,
  second = select(2, "a", "b", "c"), count = select('#', "a", nil), first = t[1], b = s:byte(2), top = top }`)}, Options{CallTimeout: time.Second})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"top": 3.0, "n": 1000.0, "last": 0.0, "bytes": 2.0, "s": "Hi", "second": "b", "count": 2.0, "first": 999.0, "b": 105.0}
	for k, w := range want {
		if n, ok := v[k].(int64); ok {
			v[k] = float64(n)
		}
		if n, ok := v[k].(int); ok {
			v[k] = float64(n)
		}
		if v[k] != w {
			t.Errorf("%s = %v (%T), want %v", k, v[k], v[k], w)
		}
	}
}

// A call stopped inside a builtin frees its state: with every state of the
// pool taken by such calls, an unrelated view still renders soon after.
func TestStoppedBuiltinCallsFreeThePool(t *testing.T) {
	const limit = 250 * time.Millisecond
	rt := start(t, map[string]string{"system.lua": kindWith(`if e.ok then return { ok = true } end
local s = ("x"):rep(4194304)
if e.byte then return { n = select('#', s:byte(1, -1)) } end
return { n = select('#', unpack({}, 1, 2e7)) }`)}, Options{CallTimeout: limit, PoolSize: 2})
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"byte": i%2 == 0}); err == nil {
				t.Error("a runaway call succeeded")
			}
		}()
	}
	time.Sleep(20 * time.Millisecond)
	began := time.Now()
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"ok": true})
	if err != nil || v["ok"] != true {
		t.Fatalf("the unrelated view: %v %v", v, err)
	}
	if took := time.Since(began); took > 8*limit {
		t.Errorf("the unrelated view waited %v behind stopped calls (limit %v)", took, limit)
	}
	wg.Wait()
}

// print() builds one log line, bounded, however many values it is given:
// it used to concatenate them one by one, quadratic in their number (65536
// values of 64 bytes copied terabytes and never finished).
func TestPrintIsBounded(t *testing.T) {
	var got []string
	rt := start(t, map[string]string{"system.lua": kindWith(`local t = {} local s = ("x"):rep(64) for i = 1, 65536 do t[i] = s end print(unpack(t)) return {}`)},
		Options{CallTimeout: 10 * time.Second, Print: func(s string) { got = append(got, s) }})
	if _, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0]) > maxPrintBytes+len("…") || !strings.HasSuffix(got[0], "…") {
		t.Fatalf("print wrote %d lines, the first %d bytes", len(got), len(got[0]))
	}
}

var heapAddress = regexp.MustCompile(`0x[0-9a-f]{6,}`)

// error() with a table reports where it was raised and never an address;
// a __tostring names it (bounded); pcall still hands Lua the table.
func TestErrorWithATableIsLocated(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`error({})`, "system.lua:5: error object is a table"},
		{`error(setmetatable({}, { __tostring = function() return "no such spell" end }))`, "system.lua:5: no such spell"},
		{`error(setmetatable({}, { __tostring = function() return ("x"):rep(100000) end }))`, "system.lua:5: " + strings.Repeat("x", maxErrorText) + "…"},
		{`error(function() end)`, "system.lua:5: error object is a function"},
		{`local ok, e = pcall(error, {}) error(e)`, "system.lua:5: error object is a table"},
	} {
		rt := start(t, map[string]string{"system.lua": kindWith(c.body)}, Options{})
		_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %q, want %q", c.body, err, c.want)
		}
		if err != nil && heapAddress.MatchString(err.Error()) {
			t.Errorf("%s: the error shows a heap address: %v", c.body, err)
		}
	}
	rt := start(t, map[string]string{"system.lua": kindWith(`local ok, e = pcall(error, { code = 7 }) return { ok = ok, code = e.code }`)}, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil || v["ok"] != false || v["code"] != int64(7) && v["code"] != 7.0 && v["code"] != 7 {
		t.Errorf("pcall(error, table): %v %v", v, err)
	}
	if _, err := tryStart(map[string]string{"system.lua": "\nerror({})\n"}, Options{}); err == nil || err.Error() != "system.lua:2: error object is a table" {
		t.Errorf("error({}) in the entry script: %v", err)
	}
}
