package dice

import "testing"

// Over many seeded rolls every total stays within what the notation allows
// and reaches both ends where they are likely, so a modifier that counts a
// dropped die, or never drops one, shows up.
func TestTotalsWithinBounds(t *testing.T) {
	cases := []struct {
		expr         string
		lo, hi       float64
		reachEndsToo bool
	}{
		{"1d20+5", 6, 25, true},
		{"4d6dl1", 3, 18, false},
		{"2d20kh1", 1, 20, true},
		{"2d20kl1", 1, 20, true},
		{"3d6", 3, 18, false},
		{"4dF", -4, 4, false},
		{"d%", 1, 100, true},
		{"10d10>=7", 0, 10, false},
		{"5d10>=7f<=2", -5, 5, false},
		{"{1d20+5, 1d20+3}kh1", 6, 25, false},
		{"4d6min3", 12, 24, false},
		{"4d6max4", 4, 16, false},
		{"1d6r<3", 3, 6, true},
		{"3d6u", 6, 15, true},
		{"floor(1d6/2)", 0, 3, true},
	}
	r := NewSeededRoller(5)
	for _, c := range cases {
		e, err := Parse(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		seenLo, seenHi := false, false
		for range 20000 {
			res, err := r.RollExpr(e)
			if err != nil {
				t.Fatalf("%s: %v", c.expr, err)
			}
			if res.Total < c.lo || res.Total > c.hi {
				t.Fatalf("%s rolled %v, outside %v..%v: %s", c.expr, res.Total, c.lo, c.hi, res.Text())
			}
			seenLo = seenLo || res.Total == c.lo
			seenHi = seenHi || res.Total == c.hi
		}
		if c.reachEndsToo && !(seenLo && seenHi) {
			t.Errorf("%s never reached %v (%v) or %v (%v) in 20000 rolls", c.expr, c.lo, seenLo, c.hi, seenHi)
		}
	}
}
