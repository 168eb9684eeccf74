package dice

import (
	"fmt"
	"testing"
)

// chiSquared returns Pearson's statistic for observed counts against a
// uniform distribution.
func chiSquared(counts []int) float64 {
	total := 0
	for _, c := range counts {
		total += c
	}
	expected := float64(total) / float64(len(counts))
	stat := 0.0
	for _, c := range counts {
		d := float64(c) - expected
		stat += d * d / expected
	}
	return stat
}

// chiSquaredCritical is the chi-squared value a uniform source exceeds
// with probability 0.001, for the degrees of freedom of the dice tested
// (faces - 1), from the standard table.
func chiSquaredCritical(df int) float64 {
	table := map[int]float64{2: 13.816, 3: 16.266, 5: 20.515, 7: 24.322, 9: 27.877, 11: 31.264, 19: 43.820, 99: 148.230}
	v, ok := table[df]
	if !ok {
		panic(fmt.Sprintf("no critical value for %d degrees of freedom", df))
	}
	return v
}

// Each die type is uniform over exactly its faces. The seed is fixed, so
// the test is deterministic: it cannot flake, and a bias or an off-by-one
// in the roller fails it.
func TestDistributionChiSquared(t *testing.T) {
	dice := []struct {
		notation string
		lo, hi   int
	}{
		{"d4", 1, 4}, {"d6", 1, 6}, {"d8", 1, 8}, {"d10", 1, 10}, {"d12", 1, 12},
		{"d20", 1, 20}, {"d100", 1, 100}, {"d%", 1, 100}, {"dF", -1, 1},
	}
	r := NewSeededRoller(20261121)
	for _, d := range dice {
		faces := d.hi - d.lo + 1
		e, err := Parse(fmt.Sprintf("%d%s", MaxDicePerRoll, d.notation))
		if err != nil {
			t.Fatal(err)
		}
		counts := make([]int, faces)
		rolls := 2000 * faces // 2000 expected per face
		for i := 0; i < rolls/MaxDicePerRoll; i++ {
			res, err := r.RollExpr(e)
			if err != nil {
				t.Fatal(err)
			}
			for _, die := range res.Tree.Dice {
				if die.Value < d.lo || die.Value > d.hi {
					t.Fatalf("%s rolled %d, outside %d..%d", d.notation, die.Value, d.lo, d.hi)
				}
				counts[die.Value-d.lo]++
			}
		}
		stat, limit := chiSquared(counts), chiSquaredCritical(faces-1)
		if stat > limit {
			t.Errorf("%s: chi-squared %.1f over %d faces exceeds %.1f (p = 0.001): %v", d.notation, stat, faces, limit, counts)
		}
	}
}

// The test itself can fail: an off-by-one die (never its top face, twice
// its bottom) and a slight bias are both caught.
func TestChiSquaredCatchesBias(t *testing.T) {
	offByOne := make([]int, 20)
	fair := make([]int, 20)
	for i := range 20000 {
		fair[i%20]++
		face := i % 20
		if face == 19 {
			face = 0
		}
		offByOne[face]++
	}
	if s := chiSquared(fair); s > chiSquaredCritical(19) {
		t.Errorf("a perfectly fair count gives %.1f", s)
	}
	if s := chiSquared(offByOne); s <= chiSquaredCritical(19) {
		t.Errorf("off-by-one d20 not caught: %.1f", s)
	}
	biased := []int{2200, 2000, 2000, 2000, 2000, 1800} // 10% bias on a d6, 12000 rolls
	if s := chiSquared(biased); s <= chiSquaredCritical(5) {
		t.Errorf("biased d6 not caught: %.1f <= %.1f", s, chiSquaredCritical(5))
	}
}
