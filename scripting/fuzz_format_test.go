package scripting

import (
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// FuzzStringFormat checks the sandbox's string.format against gopher-lua's
// own: the same text for any pattern and values, unless the sandbox refuses
// the call for a limit, and never more than the build limit. Go type names
// fmt writes ("%!d(lua.LString=x)") are left out of the comparison, and
// so are %T, %p and %w, which fmt answers without asking the value.
func FuzzStringFormat(f *testing.F) {
	for _, seed := range []struct {
		pattern, s string
		n          float64
	}{
		{"%s|%d", "abc", 3}, {"%q %5.2f", "a\x00\xff\"", -1.25}, {"% #x|%X", "hi", 255}, {"%[2]s%[1]q", "x", 7},
		{"%-8s|%08.3f|%e|%g", "é", 1e300}, {"%c%U%o%b", "", 65}, {"%.2s%5s%#q%+q", "héllo", 0}, {"%d%i", "12", 1.5},
		{"%%%s%%", "x", 1}, {"%*d%.*f", "y", 2}, {"%1001s", "z", 1}, {"%v%#v", "\x01", 2},
	} {
		f.Add(seed.pattern, seed.s, seed.n)
	}
	sandbox := newSandbox()
	defer sandbox.Close()
	plain := lua.NewState()
	defer plain.Close()
	call := func(L *lua.LState, pattern, s string, n float64) (string, error) {
		err := L.CallByParam(lua.P{Fn: L.GetField(L.GetGlobal("string"), "format"), NRet: 1, Protect: true}, lua.LString(pattern), lua.LString(s), lua.LNumber(n))
		if err != nil {
			return "", err
		}
		v := L.Get(-1)
		L.Pop(1)
		return v.String(), nil
	}
	f.Fuzz(func(t *testing.T, pattern, s string, n float64) {
		if len(pattern) > 256 || len(s) > 4096 {
			return
		}
		got, err := call(sandbox, pattern, s, n)
		if err != nil {
			if !strings.Contains(err.Error(), "limit") {
				t.Fatalf("%q %q %v: %v", pattern, s, n, err)
			}
			return
		}
		if len(got) > maxStringBuild {
			t.Fatalf("%q: built %d bytes", pattern, len(got))
		}
		want, werr := call(plain, pattern, s, n)
		if werr != nil {
			t.Fatalf("%q %q %v: gopher-lua fails (%v), the sandbox writes %q", pattern, s, n, werr, got)
		}
		if withoutTypeNames(got) != withoutTypeNames(want) && !strings.ContainsAny(pattern, "Tpw") {
			t.Fatalf("%q %q %v: got %q, gopher-lua writes %q", pattern, s, n, got, want)
		}
	})
}
