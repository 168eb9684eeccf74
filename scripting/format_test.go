package scripting

import (
	"context"
	"testing"
)

func TestFormatHelpers(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Signed(2), "+2"}, {Signed(-1), "-1"}, {Signed(0), "+0"}, {Signed(1.5), "+1.5"},
		{Modifier(14), "+2"}, {Modifier(10), "+0"}, {Modifier(9), "-1"}, {Modifier(1), "-5"}, {Modifier(30), "+10"},
		{Fraction(0.25), "1/4"}, {Fraction(0.125), "1/8"}, {Fraction(0.5), "1/2"}, {Fraction(2), "2"}, {Fraction(0), "0"},
		{Fraction(1.5), "1 1/2"}, {Fraction(-0.5), "-1/2"}, {Fraction(0.3333333333333333), "1/3"}, {Fraction(0.01), "0.01"},
		{Ordinal(1), "1st"}, {Ordinal(2), "2nd"}, {Ordinal(3), "3rd"}, {Ordinal(4), "4th"}, {Ordinal(11), "11th"},
		{Ordinal(12), "12th"}, {Ordinal(13), "13th"}, {Ordinal(21), "21st"}, {Ordinal(22), "22nd"}, {Ordinal(111), "111th"}, {Ordinal(0), "0th"},
		{Join([]string{"a", "b", "c"}, ", ", " and "), "a, b and c"}, {Join([]string{"a"}, ", ", " and "), "a"},
		{Join(nil, ", ", " and "), ""}, {Join([]string{"a", "b"}, ", ", " or "), "a or b"},
		{Thousands(1800), "1,800"}, {Thousands(155000), "155,000"}, {Thousands(100), "100"}, {Thousands(-1234567.5), "-1,234,567.5"},
		{FormatNumber(3), "3"}, {FormatNumber(2.5), "2.5"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestDice(t *testing.T) {
	for formula, want := range map[string]int{"2d6+1": 8, "1d4": 2, "2d6": 7, "d20": 10, "3d8 + 1d6 + 4": 21, "1d20-1": 9, "5": 5, "18d10+36": 135} {
		d, err := ParseDice(formula)
		if err != nil {
			t.Fatalf("%s: %v", formula, err)
		}
		if got := d.Average(); got != want {
			t.Errorf("average(%s) = %d, want %d", formula, got, want)
		}
	}
	for _, bad := range []string{"", "2d", "d", "xd6", "2d6+", "2d0", "1001d6", "2d6*2", "1d100000", "--1"} {
		if _, err := ParseDice(bad); err == nil {
			t.Errorf("ParseDice(%q) must fail", bad)
		}
	}
}

func TestFormatAndDiceFromLua(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
    local f, d = companion.format, companion.dice
    local r = d.roll("1d20+5")
    local kept = d.roll("4d6kh3")
    return {
      signed = f.signed(2), mod = f.modifier(14), frac = f.fraction(0.125), ord = f.ordinal(22),
      join = f.join({ "a", "b", "c" }, ", ", " and "), join2 = f.join({ "a", "b" }), num = f.number(1800),
      avg = d.average("2d6+1"), rollOK = (r >= 6 and r <= 25), keptOK = (kept >= 3 and kept <= 18),
      bad = select(2, pcall(d.average, "2d")),
    }
`)}, Options{})
	v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"signed": "+2", "mod": "+2", "frac": "1/8", "ord": "22nd", "join": "a, b and c", "join2": "a, b", "num": "1,800", "avg": int64(8), "rollOK": true, "keptOK": true} {
		if v[k] != want {
			t.Errorf("%s = %#v, want %#v", k, v[k], want)
		}
	}
	if bad, _ := v["bad"].(string); bad == "" {
		t.Errorf("a bad formula must raise an error")
	}
}
