package dice

import "testing"

func TestAverage(t *testing.T) {
	cases := []struct {
		expr string
		want float64
	}{
		{"2d6+1", 8},
		{"1d20+5", 15.5},
		{"floor(2d6+1)", 8},
		{"3d8", 13.5},
		{"floor(3d8)", 13},
		{"d%", 50.5},
		{"4dF+2", 2},
		{"(1+1)d6", 7},
		{"2d(2*3)", 7},
		{"-1d4", -2.5},
		{"{1d6, 1d8}", 8},
		{"1d6*2", 7},
		{"10", 10},
	}
	for _, c := range cases {
		got, err := Average(c.expr)
		if err != nil || got != c.want {
			t.Errorf("Average(%q) = %v, %v; want %v", c.expr, got, err, c.want)
		}
	}
	for _, bad := range []string{"4d6dl1", "{1d6, 1d8}kh1", "1d6!", "1/(1-1)", "1d0"} {
		if _, err := Average(bad); err == nil {
			t.Errorf("Average(%q) succeeded, want an error", bad)
		}
	}
	if _, err := Average("4d6dl1"); err.Error() != `no simple average at 1 in "4d6dl1": only dice without modifiers have one` {
		t.Errorf("Average(4d6dl1): %v", err)
	}
}
