package scripting

import (
	"context"
	"fmt"
	"math"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/vttapp/companion/textfmt"
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

// The preboxed texts are the texts the formatting functions write.
func TestPreboxedTextsAreTheFormattedOnes(t *testing.T) {
	for _, n := range []float64{-101, -100, -5, -1, 0, math.Copysign(0, -1), 1, 2.5, 7, 100, 101, 1e6} {
		if got, want := signedValue(n), lua.LValue(lua.LString(textfmt.Signed(n))); got != want {
			t.Errorf("signedValue(%v) = %v, want %v", n, got, want)
		}
	}
	rt := start(t, map[string]string{"system.lua": kindWith(`local f = require("companion").format
	local out = {}
	for i = -3, 130 do out["o" .. i] = f.ordinal(i) out["m" .. i] = f.modifier(i) out["s" .. i] = f.signed(i) end
	out.half = f.modifier(14.5)
	return out`)}, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	for i := -3; i <= 130; i++ {
		if got, want := v[fmt.Sprintf("o%d", i)], textfmt.Ordinal(int64(i)); got != want {
			t.Errorf("ordinal(%d) = %v, want %v", i, got, want)
		}
		if got, want := v[fmt.Sprintf("m%d", i)], textfmt.Modifier(float64(i)); got != want {
			t.Errorf("modifier(%d) = %v, want %v", i, got, want)
		}
		if got, want := v[fmt.Sprintf("s%d", i)], textfmt.Signed(float64(i)); got != want {
			t.Errorf("signed(%d) = %v, want %v", i, got, want)
		}
	}
	if v["half"] != textfmt.Modifier(14.5) {
		t.Errorf("modifier(14.5) = %v", v["half"])
	}
}

// Remembered averages answer as parsing does, errors are never
// remembered, and the memory stays bounded.
func TestDiceAveragesRemembered(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`local d = require("companion").dice
	local out = { first = d.average(e.f), again = d.average(e.f), bad1 = pcall(d.average, "2d"), bad2 = pcall(d.average, "2d") }
	for i = 1, 300 do d.average(i .. "d6") end
	out.after = d.average(e.f)
	return out`)}, Options{PoolSize: 1})
	for i := 0; i < 2; i++ {
		v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"f": "3d8+1"})
		if err != nil {
			t.Fatal(err)
		}
		if v["first"] != int64(14) || v["again"] != int64(14) || v["after"] != int64(14) || v["bad1"] != false || v["bad2"] != false {
			t.Fatalf("call %d: %v", i, v)
		}
	}
	st := <-rt.idle
	defer func() { rt.idle <- st }()
	if n := len(st.averages); n > maxRememberedAverages {
		t.Fatalf("%d averages remembered, the bound is %d", n, maxRememberedAverages)
	}
}
