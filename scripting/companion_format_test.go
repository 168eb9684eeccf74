package scripting

import (
	"context"
	"testing"
)

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
