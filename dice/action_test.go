package dice

import (
	"strings"
	"testing"
)

func TestActionFormula(t *testing.T) {
	cases := []struct {
		in        string
		advantage int
		double    bool
		critAt    int
		want      string
	}{
		{"1d20+5", 0, false, 0, "1d20+5"},
		{"1d20+5", 1, false, 0, "2d20kh1+5"},
		{"d20 + 5", -1, false, 0, "2d20kl1+5"},
		{"1d20+5", 1, false, 20, "2d20kh1cs>=20cf+5"},
		{"1d20+5", 0, false, 19, "1d20cs>=19cf+5"},
		{"1d8+3", 1, false, 20, "1d8+3"}, // no d20: no advantage, no marks
		{"1d8+3", 0, true, 0, "2d8+3"},
		{"2d6+1d8[fire]+4", 0, true, 0, "4d6+2d8[fire]+4"},
		{"(1d4)d6+2", 0, true, 0, "(1d4)d6+2"},     // a count that is an expression stays
		{"1d20+1d20", 1, false, 0, "2d20kh1+1d20"}, // the first lone d20 only
		{"2d20kh1+3", 1, false, 0, "2d20kh1+3"},    // already has modifiers: left alone
		{"1d6+2 # fire", 0, true, 0, "2d6+2"},
	}
	for _, c := range cases {
		got, err := ActionFormula(c.in, c.advantage, c.double, c.critAt)
		if err != nil || got != c.want {
			t.Errorf("ActionFormula(%q, %d, %v, %d) = %q, %v; want %q", c.in, c.advantage, c.double, c.critAt, got, err, c.want)
		}
	}
	if _, err := ActionFormula("1d", 0, false, 0); err == nil {
		t.Error("a broken formula was accepted")
	}
	if _, err := ActionFormula("600d6", 0, true, 0); err == nil || !strings.Contains(err.Error(), "1000") {
		t.Errorf("doubling past the dice limit: %v", err)
	}
}

// TestActionFormulaMarksRoll: the marks show in the roll's detail and the
// critical die is flagged in the result tree.
func TestActionFormulaMarksRoll(t *testing.T) {
	f, err := ActionFormula("1d20+2", 0, false, 20)
	if err != nil {
		t.Fatal(err)
	}
	res, err := NewRollerWithSource(NewSequence(20)).Roll(f)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text(), "[20**]") || res.Tree.Args[0].Dice[0].Critical != "success" {
		t.Fatalf("a natural 20: %s %+v", res.Text(), res.Tree.Args[0].Dice[0])
	}
	f, _ = ActionFormula("1d20+2", 1, false, 20)
	res, err = NewRollerWithSource(NewSequence(1, 20)).Roll(f)
	if err != nil {
		t.Fatal(err)
	}
	kept := res.Tree.Args[0].Dice
	if res.Total != 22 || !kept[0].Dropped || kept[1].Critical != "success" {
		t.Fatalf("advantage 1 and 20: %s %+v", res.Text(), kept)
	}
}
