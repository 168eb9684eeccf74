package scripting

import (
	"context"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// patternCases run in a state with gopher-lua's own string library and in
// the sandbox; every result (values and errors) must be the same.
var patternCases = []string{
	`return s:find("b")`, `return s:find("b", 3)`, `return s:find("b", -2)`, `return s:find("b", 100)`,
	`return s:find("")`, `return s:find("", 4)`, `return s:find("a.b", 1, true)`, `return s:find(".", 1, true)`,
	`return s:find("(a)(b)")`, `return s:find("()b()")`, `return s:find("^a")`, `return s:find("^b")`,
	`return s:find("%d+")`, `return s:find("[%a_]+$")`, `return s:find("%bxy")`, `return s:find("(a)%1")`,
	`return s:match("(%w+) (%w+)")`, `return s:match("x")`, `return select("#", s:match("x"))`, `return s:match("()")`,
	`return s:match("b", 2)`, `return s:match("b", -1)`, `return s:match("^(%a*)")`, `return s:match("[^a]+")`,
	`return s:match("%f[%w]%w+")`, `return s:match("a-b")`, `return s:match("a*")`, `return s:match("a?b")`,
	`return s:gsub("a", "A")`, `return s:gsub("a", "A", 1)`, `return s:gsub("(a)(b)", "%2%1")`, `return s:gsub("a", "%%")`,
	`return s:gsub("a", "%0%0")`, `return s:gsub("", "-")`, `return s:gsub("%w+", { ab = "X", cd = false })`,
	`return s:gsub("(%w)", function(c) return c == "b" and "B" or nil end)`, `return s:gsub("()", "%1")`,
	`return s:gsub("a", "%9")`, `return s:gsub("x*", "-")`, `return s:gsub("[", "")`, `return s:find("%")`,
	`return s:gsub("%s+", " ")`, `return s:gsub("^%s*(.-)%s*$", "%1")`, `return s:gsub("a", "%z")`,
	`local t = {} for w in s:gmatch("%a+") do t[#t+1] = w end return table.concat(t, ",")`,
	`local t = {} for k, v in s:gmatch("(%w)(%w)") do t[#t+1] = k .. "=" .. v end return table.concat(t, ",")`,
	`local t = {} for p in s:gmatch("()b") do t[#t+1] = p end return table.concat(t, ",")`,
	`local t = {} for w in s:gmatch("") do t[#t+1] = w end return #t`,
	`return s:find("[%]]")`, `return s:match("(h)(e)(l)(l)(o)")`, `return s:gsub(".", { a = 1, b = true })`,
}

var patternSubjects = []string{"", "ab", "aabbab cd", "hello world 123", "  trim me  ", "x(ab)xy z", "a]b%c", "ab\x00ab"}

func runPatternCases(t *testing.T, L *lua.LState) []string {
	t.Helper()
	var out []string
	for _, subject := range patternSubjects {
		for _, code := range patternCases {
			L.SetGlobal("s", lua.LString(subject))
			fn, err := L.LoadString(code)
			if err != nil {
				t.Fatal(err)
			}
			L.Push(fn)
			var res strings.Builder
			if err := L.PCall(0, lua.MultRet, nil); err != nil {
				msg := err.Error()
				if i := strings.Index(msg, "\n"); i >= 0 {
					msg = msg[:i]
				}
				res.WriteString("error: " + msg)
			} else {
				for i := 1; i <= L.GetTop(); i++ {
					res.WriteString(L.Get(i).Type().String() + ":" + L.Get(i).String() + "|")
				}
			}
			L.SetTop(0)
			out = append(out, subject+" "+code+" => "+res.String())
		}
	}
	return out
}

func TestPatternFunctionsMatchGopherLua(t *testing.T) {
	stock := lua.NewState()
	defer stock.Close()
	sandbox := newSandbox()
	defer sandbox.Close()
	want, got := runPatternCases(t, stock), runPatternCases(t, sandbox)
	for i := range want {
		if want[i] != got[i] {
			t.Errorf("\n got %s\nwant %s", got[i], want[i])
		}
	}
}

// Matching is interrupted by the deadline and says where; the state is not
// reused after.
func TestPatternMatchingStopsAtTheDeadlineWithItsPosition(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`local s = ("a"):rep(5000)
return { r = s:find(".-.-.-.-b") }`)}, Options{CallTimeout: 250 * time.Millisecond})
	// The limit also bounds the entry script's first run, which a loaded
	// machine under -race once took past 20 ms; this search runs for
	// minutes unstopped, so 250 ms still proves the stop.
	began := time.Now()
	_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "system.lua:6:") || !strings.Contains(err.Error(), "string.find") || !strings.Contains(err.Error(), "ran longer than 250ms") {
		t.Fatalf("want a located timeout in string.find, got %v", err)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Fatalf("stopped after %v", d)
	}
}

func TestPatternBounds(t *testing.T) {
	for body, want := range map[string]string{
		`return { r = ("a"):find(("a?"):rep(5000)) }`:                            "pattern is 10000 bytes long",
		`local s = ("x"):rep(8):gsub(".", ("y"):rep(1048576)) return { n = #s }`: "string.gsub would build",
		`return { r = ("a"):rep(300000):find(("a*"):rep(2) .. "b") }`:            "too complex",
	} {
		rt := start(t, map[string]string{"system.lua": kindWith(body)}, Options{CallTimeout: 5 * time.Second})
		_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "system.lua:") {
			t.Errorf("%s: want %q, got %v", body, want, err)
		}
	}
}
