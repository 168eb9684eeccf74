package scripting

import (
	"context"
	"errors"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Attacks on the Lua sandbox.

// One call must not leave state behind for the next call, which may be
// made for another entity (and another player's view). Each case runs a
// call that tampers with shared state, then a clean call in the same
// pooled state (pool of one). The tampering call may succeed (its change
// is then undone) or be refused with a clear error (shared tables are
// read-only); either way the next call must see nothing of it.
func TestSandboxCallsDoNotLeakIntoTheNextCall(t *testing.T) {
	lib := `local M = { list = { "a" }, names = {}, count = 0, byKey = {} }
M.byKey[M.names] = "names"
local cache = {}
local last = "none"
function M.remember(v) cache[1] = v end
function M.recall() return cache[1] or "none" end
function M.set_last(v) last = v end
function M.get_last() return last end
return M`
	for name, body := range map[string]string{
		"global variable":           `if e.first then leak = e.name end return { leak = leak or "none" }`,
		"rawset on _G":              `if e.first then rawset(_G, "leak", e.name) end return { leak = rawget(_G, "leak") or "none" }`,
		"metatable on _G":           `if e.first then setmetatable(_G, { __index = function() return "secret of A" end }) end return { leak = tostring(undefined_name or "none") }`,
		"string library":            `if e.first then string.upper = function() return "secret of A" end end return { leak = string.upper("none") == "NONE" and "none" or "tampered" }`,
		"string metatable __index":  `if e.first then getmetatable("").__index.lower = function() return "secret of A" end end return { leak = ("NONE"):lower() }`,
		"string metatable new slot": `if e.first then getmetatable("").__add = function() return 1 end end return { leak = pcall(function() return "a" + {} end) and "tampered" or "none" }`,
		"table library":             `if e.first then table.insert = function() end end local t = {} table.insert(t, 1) return { leak = #t == 1 and "none" or "tampered" }`,
		"math library":              `if e.first then math.floor = function() return 42 end end return { leak = math.floor(1.5) == 1 and "none" or "tampered" }`,
		"companion module":          `local c = require("companion") if e.first then c.leak = e.name end return { leak = c.leak or "none" }`,
		"companion.format":          `local c = require("companion") if e.first then c.format.signed = function() return "secret of A" end end return { leak = c.format.signed(1) == "+1" and "none" or "tampered" }`,
		"companion.format rawset":   `local c = require("companion") if e.first then rawset(c.format, "signed", function() return "secret of A" end) end return { leak = c.format.signed(1) == "+1" and "none" or "tampered" }`,
		"module field":              `local m = require("lib.m") if e.first then m.names.x = e.name end return { leak = m.names.x or "none" }`,
		"module list insert":        `local m = require("lib.m") if e.first then table.insert(m.list, e.name) end return { leak = m.list[#m.list] == "a" and "none" or m.list[#m.list] }`,
		"module list sort":          `local m = require("lib.m") if e.first then table.sort(m.list, function() return false end) end return { leak = m.list[1] == "a" and "none" or "tampered" }`,
		"module scalar field":       `local m = require("lib.m") if e.first then m.count = 99 end return { leak = m.count == 0 and "none" or "tampered" }`,
		"module local table":        `local m = require("lib.m") if e.first then m.remember(e.name) end return { leak = m.recall() }`,
		"table from pairs":          `local m = require("lib.m") if e.first then local _, t = pairs(m.list) t[1] = e.name end return { leak = m.list[1] == "a" and "none" or m.list[1] }`,
		"table from ipairs":         `local m = require("lib.m") if e.first then local _, t = ipairs(m.list) rawset(t, 1, e.name) end return { leak = m.list[1] == "a" and "none" or m.list[1] }`,
		"table from next":           `local m = require("lib.m") if e.first then local k, v = next(m) v.x = e.name end local k, v = next(m) return { leak = v.x or "none" }`,
		"module table key":          `local m = require("lib.m") if e.first then for k in pairs(m.byKey) do k.x = e.name end end local found = "none" for k in pairs(m.byKey) do found = k.x or (m.byKey[m.names] == "names" and "none" or "lost") end return { leak = found }`,
		"module local value":        `local m = require("lib.m") if e.first then m.set_last(e.name) end return { leak = m.get_last() }`,
		"string table rawset":       `if e.first then rawset(string, "upper", function() return "secret of A" end) end return { leak = ("none"):upper() == "NONE" and "none" or "tampered" }`,
		"string metatable replaced": `if e.first then setmetatable(getmetatable(""), { __index = function() return function() return "secret of A" end end }) end return { leak = ("NONE"):lower() }`,
		"metatable on a library":    `if e.first then setmetatable(math, { __index = function() return "secret of A" end }) end return { leak = tostring(math.nothing or "none") }`,
		"array mark":                `local c = require("companion") if e.first then getmetatable(c.array()).__index = function() return "secret of A" end end return { leak = c.array().x or "none" }`,
	} {
		t.Run(name, func(t *testing.T) {
			rt := start(t, map[string]string{"system.lua": `require("lib.m")` + "\n" + kindWith(body), "lib/m.lua": lib}, Options{PoolSize: 1})
			_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"first": true, "name": "secret of A"})
			if err != nil && !strings.Contains(err.Error(), "read-only") && !strings.Contains(err.Error(), "protected metatable") && !strings.Contains(err.Error(), "attempt to index") {
				t.Fatalf("the tampering call failed without saying why: %v", err)
			}
			if err != nil && !regexp.MustCompile(`\.lua:\d+: `).MatchString(err.Error()) {
				t.Errorf("the refusal does not say where: %v", err)
			}
			v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"name": "B"})
			if err != nil {
				t.Fatal(err)
			}
			if v["leak"] != "none" {
				t.Errorf("the next call sees %v", v["leak"])
			}
		})
	}
}

// Lua patterns backtrack: ".-.-.-b" on a few hundred bytes runs for
// seconds (O(n^4) with find's start positions), on a few thousand for
// hours. The matcher checks the deadline while it works (strpattern.go),
// so each call stops close to its deadline, says where and why, and the
// runtime serves the next call.
func TestSandboxPatternMatchingHonoursTheDeadline(t *testing.T) {
	for _, n := range []int{300, 5000} {
		for _, call := range []string{`s:find(".-.-.-b")`, `s:match(".-.-.-b")`, `s:gsub(".-.-.-b", "")`, `s:gmatch(".-.-.-b")()`} {
			rt := start(t, map[string]string{"system.lua": kindWith(`if e.ok then return { ok = true } end local s = ("a"):rep(` + strconv.Itoa(n) + `) return { r = tostring(` + call + `) }`)},
				Options{CallTimeout: 50 * time.Millisecond, PoolSize: 1})
			began := time.Now()
			_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
			fn := "string." + call[2:strings.IndexByte(call, '(')]
			var se *ScriptError
			if !errors.As(err, &se) || !se.Timeout || se.File != "system.lua" || se.Line != 5 || !strings.Contains(se.Message, fn) {
				t.Errorf("%d bytes, %s: want a timeout located at system.lua:5 naming %s, got %v", n, call, fn, err)
			}
			if d := time.Since(began); d > 500*time.Millisecond {
				t.Errorf("%d bytes, %s: stopped after %v with a 50 ms deadline", n, call, d)
			}
			if v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"ok": true}); err != nil || v["ok"] != true {
				t.Errorf("the next call: %v %v", v, err)
			}
		}
	}
}

// Memory: a call cannot allocate hundreds of megabytes, whether in one Go
// function (capped where they build strings) or through the VM (the
// watchdog of memory.go). Each is stopped with the limit and the place.
func TestSandboxBoundsMemoryOfOneCall(t *testing.T) {
	for _, body := range []string{
		`local s = ("x"):rep(4194304) for i = 1, 6 do s = s .. s end return { n = #s }`,
		`local t = {} for i = 1, 64 do t[i] = ("x"):rep(4194304) end return { n = #table.concat(t) }`,
		`local s = ("x"):rep(8):gsub(".", ("y"):rep(4194304)) return { n = #s }`,
		`local t = {} for i = 1, 64 do t[i] = ("x"):rep(4194304) .. i end return { n = #t }`,
		`big = {} for i = 1, 64 do big[i] = ("x"):rep(4194304) .. i end return { n = #big }`,
		`local s = ("x"):rep(1048576) local t = {} for i = 1, 64 do t[i] = s .. i end return { n = #table.concat(t, "", 1, 2) }`,
		`return { n = #string.format(("%s"):rep(64), unpack((function() local t = {} for i = 1, 64 do t[i] = ("x"):rep(1048576) end return t end)())) }`,
		`local s = ("x"):rep(1048576) return { n = #string.format(("%s"):rep(8), s, s, s, s, s, s, s, s) }`,
		`local s = ("x"):rep(1048576) return { n = #string.format(("%[1]s"):rep(8), s) }`,
	} {
		rt := start(t, map[string]string{"system.lua": kindWith(body)}, Options{CallTimeout: 5 * time.Second})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
		runtime.ReadMemStats(&after)
		grew := (after.TotalAlloc - before.TotalAlloc) >> 20
		if err == nil || !strings.Contains(err.Error(), "limit") || !strings.Contains(err.Error(), "system.lua:") {
			t.Errorf("%.50s: want a located limit error, got %v (allocated %d MiB)", body, err, grew)
		}
		t.Logf("%.60s: %v (allocated %d MiB in %v)", body, err, grew, time.Since(t0))
		if grew > 128 {
			t.Errorf("%.50s: allocated %d MiB in one call", body, grew)
		}
	}
}

// What the sandbox does hold: no way to load code, reach files or the
// package system, and require stays in the folder.
func TestSandboxHasNoEscapeHatches(t *testing.T) {
	rt := start(t, map[string]string{
		"lib/ok.lua": `return { ok = true }`,
		"system.lua": kindWith(`
    local out = {}
    out.package = tostring(package)
    out.dump = tostring(string.dump)
    out.load = tostring(load)
    out.loadstring = tostring(loadstring)
    out.coroutine = tostring(coroutine)
    out.getfenv = tostring(getfenv)
    out.debug = tostring(debug)
    out.io = tostring(io)
    out.os = tostring(os)
    local mt = getmetatable("")
    out.mt_has_loader = tostring(mt and rawget(mt, "__index") and rawget(mt.__index, "dump"))
    for _, name in ipairs({ "../lib/ok", "lib/../lib/ok", "lib/ok", "lib..ok", ".lib.ok", "lib.ok.", "/lib/ok", "lib.ok\0", "lib.%2e%2e" }) do
      out["require " .. name] = pcall(require, name) and "loaded" or "refused"
    end
    out["require lib.ok"] = pcall(require, "lib.ok") and "loaded" or "refused"
    return out
`)}, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"package", "dump", "load", "loadstring", "coroutine", "getfenv", "debug", "io", "os", "mt_has_loader"} {
		if v[name] != "nil" {
			t.Errorf("%s is reachable: %v", name, v[name])
		}
	}
	for key, got := range v {
		if strings.HasPrefix(key, "require ") && key != "require lib.ok" && got != "refused" {
			t.Errorf("%s: %v", key, got)
		}
	}
	if v["require lib.ok"] != "loaded" {
		t.Errorf("a legitimate require failed: %v", v["require lib.ok"])
	}
}

// Deep recursion through a metamethod, pcall or __tostring is an error,
// not a crash of the Go stack, and the same runtime serves the next call.
func TestSandboxRecursionThroughMetamethodsAndPcall(t *testing.T) {
	for _, attack := range []string{
		`local t = setmetatable({}, {}) getmetatable(t).__index = function(t, k) return t[k] end return { v = t.x }`,
		`local function f() return pcall(f) end return { v = tostring(f()) }`,
		`local t = setmetatable({}, { __tostring = function(self) return tostring(self) end }) return { v = tostring(t) }`,
		`local function f(n) return f(n + 1) + 1 end return { v = f(1) }`,
	} {
		rt := start(t, map[string]string{"system.lua": kindWith("if e.attack then " + attack + " end return { ok = true }")},
			Options{CallTimeout: time.Second, PoolSize: 1})
		_, _ = rt.CallTable(context.Background(), "thing", "view", map[string]any{"attack": true})
		if v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{}); err != nil || v["ok"] != true {
			t.Errorf("%s: the next call got %v %v", attack, v, err)
		}
	}
}
