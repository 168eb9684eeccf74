package scripting

import (
	"math"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// The shared boxes must be ordinary values on both sides: the same string,
// the same type in type switches and comparisons, independent of what
// happens to the interface they came from.
func TestStringsShareBoxesBetweenGoAndLua(t *testing.T) {
	if !fastBoxes {
		t.Fatal("the box layout check failed on this platform: strings are boxed again (slower, still correct)")
	}
	for _, s := range []string{"", "a", "héllo", string(make([]byte, 1000))} {
		src := any(s)
		lv := luaString(src, s)
		if ls, ok := lv.(lua.LString); !ok || string(ls) != s || lv != lua.LValue(lua.LString(s)) {
			t.Fatalf("luaString(%q) = %#v", s, lv)
		}
		back := goString(lv, lv.(lua.LString))
		if got, ok := back.(string); !ok || got != s || back != any(s) {
			t.Fatalf("goString(%q) = %#v", s, back)
		}
		m := map[any]bool{s: true}
		if !m[back] {
			t.Fatalf("goString(%q) does not hash as the string", s)
		}
	}
}

func TestSmallNumbersAreTheNumbers(t *testing.T) {
	for _, f := range []float64{0, 1, 2, 7, 1023, 1024, 1e9, 0.5, -1, -3, 2.5} {
		if got := luaNumber(f); got != lua.LValue(lua.LNumber(f)) {
			t.Errorf("luaNumber(%v) = %#v", f, got)
		}
	}
	negZero := luaNumber(math.Copysign(0, -1))
	if n, ok := negZero.(lua.LNumber); !ok || !math.Signbit(float64(n)) {
		t.Errorf("-0 lost its sign: %#v", negZero)
	}
}
