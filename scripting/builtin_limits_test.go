package scripting

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// allocatedBy runs fn and returns how many MiB the process allocated
// meanwhile (garbage included).
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) >> 20
}

// A loop of tail calls ran until the deadline (millions of calls in one
// frame), and the error at its end then built a stack trace with a line per
// tail call: seconds past the limit and hundreds of megabytes. Tail calls
// take a frame now, so such a loop ends at the call stack's 200 frames, at
// once, with its place; and the next call in the same state works.
func TestSandboxTailCallLoopsEndAtTheCallStack(t *testing.T) {
	for _, attack := range []string{
		`local t = setmetatable({}, { __call = function(s) return s() end }) return { v = t() }`,
		`local function f() return f() end return { v = f() }`,
		`local f, g f = function(n) return g(n + 1) end g = function(n) return f(n + 1) end return { v = f(0) }`,
		`local function f(...) return f(1, ...) end return { v = f() }`,
		`local t = setmetatable({}, { __index = function(s, k) return s[k] end }) local function f() return t.x end return { v = f() }`,
	} {
		rt := start(t, map[string]string{"system.lua": kindWith("if e.attack then " + attack + " end return { ok = true }")},
			Options{CallTimeout: 2 * time.Second, PoolSize: 1})
		var err error
		grew := allocatedBy(func() { _, err = rt.CallTable(context.Background(), "thing", "view", map[string]any{"attack": true}) })
		var se *ScriptError
		if !errors.As(err, &se) || se.Timeout || se.File != "system.lua" || se.Line != 5 ||
			!(strings.Contains(se.Message, "stack overflow") || strings.Contains(se.Message, "registry overflow")) {
			t.Errorf("%s: want a stack overflow at system.lua:5, got %v", attack, err)
		}
		if grew > 64 {
			t.Errorf("%s: allocated %d MiB", attack, grew)
		}
		if v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{}); err != nil || v["ok"] != true {
			t.Errorf("%s: the next call got %v %v", attack, v, err)
		}
	}
	// Caught by pcall, the loop is an error value like any other.
	rt := start(t, map[string]string{"system.lua": kindWith(`local function f() return f() end local ok, why = pcall(f) return { ok = ok, why = why }`)},
		Options{CallTimeout: 2 * time.Second})
	var v map[string]any
	var err error
	grew := allocatedBy(func() { v, err = rt.CallTable(context.Background(), "thing", "view", map[string]any{}) })
	if err != nil || v["ok"] != false || !strings.Contains(v["why"].(string), "stack overflow") || grew > 64 {
		t.Errorf("pcall of a tail call loop: %v %v (allocated %d MiB)", v, err, grew)
	}
}

// A tail call returns what the function called returns, all of it, as
// before (it is an ordinary call now).
func TestSandboxTailCallsReturnEverything(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
    local function three() return 1, 2, 3 end
    local function pass(...) return select("#", ...), ... end
    local function count(n, acc) if n == 0 then return acc end return count(n - 1, acc + n) end
    local callable = setmetatable({}, { __call = function(self, a, b) return a + b, self end })
    local function viaCall() return callable(2, 3) end
    local s, me = viaCall()
    return { n = select("#", three()), list = { pass(three()) }, sum = count(150, 0), call = s, self = me == callable, str = ("x"):rep(3) }`)}, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	list, _ := v["list"].([]any)
	if v["n"] != int64(3) || len(list) != 4 || list[0] != int64(3) || list[3] != int64(3) || v["sum"] != int64(11325) || v["call"] != int64(5) || v["self"] != true || v["str"] != "xxx" {
		t.Errorf("got %v", v)
	}
}

// Builtins that write more than they read are bounded by what they build:
// %q writes a NUL byte as four, "% #x" a byte as five, string.upper and
// lower write a byte that is not UTF-8 as three. Each is refused before it
// builds the string, with the place.
func TestSandboxBuiltinsBoundWhatTheyExpand(t *testing.T) {
	for _, body := range []string{
		`return { n = #string.format('%q', string.rep('\0', 4e6)) }`,
		`return { n = #string.format('%q', string.rep('\0', 2e6)) }`,
		`return { n = #string.format('% #x', string.rep('a', 1e6)) }`,
		`return { n = #string.format('%#v', string.rep('\1', 2e6)) }`,
		`return { n = #string.format('%x', string.rep('a', 3e6)) }`,
		`return { n = #string.format('%s%s', string.rep('a', 3e6), string.rep('b', 3e6)) }`,
		`return { n = #string.upper(string.rep('\255', 4e6)) }`,
		`return { n = #string.lower(string.rep('\255', 4e6)) }`,
		`return { n = #(string.rep('\255', 2e6)):upper() }`,
	} {
		rt := start(t, map[string]string{"system.lua": kindWith(body)}, Options{CallTimeout: 5 * time.Second})
		var err error
		grew := allocatedBy(func() { _, err = rt.CallTable(context.Background(), "thing", "view", map[string]any{}) })
		var se *ScriptError
		if !errors.As(err, &se) || se.File != "system.lua" || se.Line != 5 || !strings.Contains(se.Message, "limit is 4194304") {
			t.Errorf("%s: want a located limit error, got %v", body, err)
		}
		if grew > 24 {
			t.Errorf("%s: allocated %d MiB", body, grew)
		}
	}
	// Under the limit they work as before.
	rt := start(t, map[string]string{"system.lua": kindWith(`return { q = #string.format('%q', string.rep('\0', 1e6)), x = #string.format('%x', string.rep('a', 2e6)),
      up = string.upper("straße é"), low = string.lower("ÉA"), big = #string.upper(string.rep('a', 4e6)) }`)}, Options{CallTimeout: 5 * time.Second})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil || v["q"] != int64(4e6+2) || v["x"] != int64(4e6) || v["up"] != "STRASSE É" && v["up"] != "STRAßE É" || v["low"] != "éa" || v["big"] != int64(4e6) {
		t.Errorf("got %v %v", v, err)
	}
}

// string.format writes what gopher-lua's own string.format writes, for
// every verb, flag, width and argument index: only its bound is new. (%T,
// %p and %w, which fmt answers without asking the value, and the
// "%!(EXTRA type=value)" it writes for values a pattern does not take,
// name the wrapper's type instead of the value's.)
func TestSandboxFormatWritesAsGopherLua(t *testing.T) {
	patterns := []string{"%s", "%q", "%x", "%X", "% x", "% #x", "%#q", "%+q", "%5.2f", "%-8s|", "%08.3f", "%d", "%i", "%5d", "%c", "%e", "%g",
		"%o", "%b", "%U", "%v", "%#v", "%%", "%", "100%% %s", "%[2]s %[1]s", "%s %s %s", "%z", "%.3s", "%*d", "%t", "%[9]s", ""}
	values := []string{`"héllo\0\255"`, `42`, `-3.75`, `true`, `nil`, `"12"`, `1e300`}
	sandbox := newSandbox()
	defer sandbox.Close()
	plain := lua.NewState()
	defer plain.Close()
	for _, p := range patterns {
		for _, a := range values {
			for _, b := range values[:3] {
				src := "return string.format(" + luaQuote(p) + ", " + a + ", " + b + ")"
				want, werr := runString(plain, src)
				got, gerr := runString(sandbox, src)
				want, got = withoutTypeNames(want), withoutTypeNames(got)
				if got != want || (werr == nil) != (gerr == nil) {
					t.Errorf("%s: got %q (%v), gopher-lua writes %q (%v)", src, got, gerr, want, werr)
				}
			}
		}
	}
	// %p and %[n] cannot repeat a value past the bound: %p writes an
	// address, and every directive takes its share.
	for _, src := range []string{
		`return #string.format(("%[1]p"):rep(2000), ("x"):rep(1e6))`,
		`return #string.format(("%[1]s"):rep(8), ("x"):rep(1e6))`,
		`return #string.format(("%[1]T"):rep(2000), ("x"):rep(1e6))`,
		`return #string.format(("%[1]w"):rep(2000), ("x"):rep(1e6))`,
	} {
		got, err := runString(sandbox, src)
		if err == nil && len(got) > 7 {
			t.Errorf("%s: built %s bytes", src, got)
		}
	}
}

// withoutTypeNames drops the Go type names fmt writes in "%!(EXTRA
// type=value)" and "%!verb(type=value)".
var goTypeNames = regexp.MustCompile(`\(EXTRA ([^=]*=)|\*scripting\.formatArg=|lua\.L[A-Za-z]+=|\*lua\.LNilType=`)

func withoutTypeNames(s string) string {
	return goTypeNames.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "(EXTRA ") {
			return "(EXTRA "
		}
		return ""
	})
}

func luaQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func runString(L *lua.LState, src string) (string, error) {
	if err := L.DoString(src); err != nil {
		return "", err
	}
	v := L.Get(-1)
	L.Pop(1)
	return v.String(), nil
}

// A result is converted in Go, after the call, where the deadline does not
// reach: a table held twice at each of fifty levels is 2^50 values. The
// conversion stops at 8 MiB, with the function's place.
func TestSandboxResultOfSharedTablesIsBounded(t *testing.T) {
	body := `local t = { "x" } for i = 1, 50 do t = { t, t } end return { x = t }`
	rt := start(t, map[string]string{"system.lua": kindWith(body)}, Options{})
	calls := map[string]func() error{
		"Call": func() error { _, err := rt.Call(context.Background(), "thing", "view", map[string]any{}); return err },
		"CallTable": func() error {
			_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
			return err
		},
		"CallJSON": func() error {
			_, _, err := rt.CallJSON(context.Background(), "thing", "view", map[string]any{}, nil, false)
			return err
		},
	}
	for name, call := range calls {
		done := make(chan error, 1)
		go func() { done <- call() }()
		select {
		case err := <-done:
			var se *ScriptError
			if !errors.As(err, &se) || se.File != "system.lua" || se.Line != 4 || !strings.Contains(se.Message, "larger than 8 MiB") {
				t.Errorf("%s: want a located size error, got %v", name, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: the conversion of a shared table did not end in a minute", name)
		}
	}
}

// A string given to error() is cut in the error (and so in the log) as a
// print() line is, and keeps its place; a message of several lines keeps
// its place too.
func TestSandboxErrorTextIsBounded(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`if e.lines then error("first\nsecond") end error(string.rep("x", 4194304))`)}, Options{})
	_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	var se *ScriptError
	if !errors.As(err, &se) || se.File != "system.lua" || se.Line != 5 || !strings.HasPrefix(se.Message, "xxxx") {
		t.Fatalf("want a located error, got %.200v", err)
	}
	if len(se.Message) > maxPrintBytes+8 || len(err.Error()) > maxPrintBytes+64 {
		t.Errorf("the error is %d bytes long", len(err.Error()))
	}
	_, err = rt.CallTable(context.Background(), "thing", "view", map[string]any{"lines": true})
	if !errors.As(err, &se) || se.File != "system.lua" || se.Line != 5 || se.Message != "first\nsecond" {
		t.Errorf("a message of two lines: %#v", err)
	}
}

// A chain of `..` joined every value in one Go step: 180 copies of a 4 MiB
// string allocated 724 MiB before the watchdog could look. Long chains are
// compiled as several steps of at most maxConcatOperands values, so the
// call stops near its limit.
func TestSandboxLongConcatenationStopsAtTheMemoryLimit(t *testing.T) {
	chain := strings.TrimSuffix(strings.Repeat("s..", 180), "..")
	rt := start(t, map[string]string{"system.lua": kindWith(`local s = ("x"):rep(4194304) local r = ` + chain + ` return { n = #r }`)},
		Options{CallTimeout: 5 * time.Second})
	var err error
	grew := allocatedBy(func() { _, err = rt.CallTable(context.Background(), "thing", "view", map[string]any{}) })
	var se *ScriptError
	if !errors.As(err, &se) || se.File != "system.lua" || se.Line != 5 || !strings.Contains(se.Message, "memory") {
		t.Errorf("want the memory limit at system.lua:5, got %v", err)
	}
	if grew > 200 {
		t.Errorf("allocated %d MiB in a call limited to 32", grew)
	}
}

// Grouped, a chain writes the very text it wrote in one step: for strings
// and numbers, inside calls, tables, returns and parentheses, at every
// length around the group size.
func TestSandboxConcatenationGroupingKeepsTheText(t *testing.T) {
	var src strings.Builder
	src.WriteString("local function f(...) return table.concat({...}, '|') end\nlocal out = {}\n")
	for n := 1; n <= 3*maxConcatOperands+2; n++ {
		var values []string
		for i := range n {
			switch i % 4 {
			case 0:
				values = append(values, `"s`+strconv.Itoa(i)+`"`)
			case 1:
				values = append(values, strconv.Itoa(i)+".5")
			case 2:
				values = append(values, `("p" .. `+strconv.Itoa(i)+` .. "q")`)
			default:
				values = append(values, `f("a" .. `+strconv.Itoa(i)+`, "b")`)
			}
		}
		chain := strings.Join(values, " .. ")
		fmt.Fprintf(&src, "out[#out + 1] = %s\nout[#out + 1] = f(%s, %s)\nout[#out + 1] = ({ k = %s }).k\n", chain, chain, chain, chain)
	}
	src.WriteString("return table.concat(out, '\\n')")

	plain := lua.NewState()
	defer plain.Close()
	want, err := runString(plain, src.String())
	if err != nil {
		t.Fatal(err)
	}
	proto, prob := compileChunk([]byte(src.String()), "chains.lua")
	if prob != nil {
		t.Fatal(prob)
	}
	L := newSandbox()
	defer L.Close()
	L.Push(L.NewFunctionFromProto(proto))
	if err := L.PCall(0, 1, nil); err != nil {
		t.Fatal(err)
	}
	if got := L.Get(-1).String(); got != want {
		t.Errorf("grouped chains write\n%.300s\nwant\n%.300s", got, want)
	}
	// An error in a long chain is reported as before, on the same line.
	bad := "local x\nreturn \"a\" .. \"b\" .. \"c\" .. \"d\" .. \"e\" .. \"f\" .. \"g\" .. \"h\" .. \"i\" ..\n x .. \"j\""
	fn, err := plain.Load(strings.NewReader(bad), "bad.lua")
	if err != nil {
		t.Fatal(err)
	}
	plain.Push(fn)
	wantErr := plain.PCall(0, 1, nil)
	proto, prob = compileChunk([]byte(bad), "bad.lua")
	if prob != nil {
		t.Fatal(prob)
	}
	L.Push(L.NewFunctionFromProto(proto))
	gotErr := L.PCall(0, 1, nil)
	if wantErr == nil || gotErr == nil || problemFromLua(gotErr.Error()) != problemFromLua(wantErr.Error()) {
		t.Errorf("the error of a long chain: %v, gopher-lua says %v", gotErr, wantErr)
	}
}
