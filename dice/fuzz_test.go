package dice

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"1d20+5", "4d6dl1", "8d6!", "{1d20+5,1d20+3}kh1", "2d6 [fire] + 1d6 [cold] # x", "d%", "4dF",
	"(1+1)d6", "10d10>=7f<=2", "1d6!!p>4", "3d6xo", "1d20r<3", "1d20ro<2", "1d20r1", "5d6u", "4d6min2max5",
	"4d6sd", "floor(7/2)+min(1d4, 3)", "1d20cs>=19cf", "-(-1d4)", "1d0", "2d6+3)", "1d1!", "5d3u",
	"{1d6, {2d6, 3d6}kh1}dl1", "(1d4)d(1d6)", "1.5*2/4", "[[1d6]]", "",
}

// FuzzParse: any input either parses or returns an *Error, never panics
// or hangs; a parsed expression's canonical formula reparses to itself and
// rolls without panicking.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("Parse(%q) returned %T %v, want *Error", src, err, err)
			}
			if de.Pos < 0 || de.Pos > utf8.RuneCountInString(src)+1 {
				t.Fatalf("Parse(%q): position %d outside the expression", src, de.Pos)
			}
			return
		}
		again, err := Parse(e.Formula())
		if err != nil {
			t.Fatalf("formula %q of %q does not parse: %v", e.Formula(), src, err)
		}
		if again.Formula() != e.Formula() {
			t.Fatalf("formula of %q: %q, reparsed %q", src, e.Formula(), again.Formula())
		}
		res, err := NewSeededRoller(1).RollExpr(e)
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("Roll(%q) returned %T %v, want *Error", src, err, err)
			}
			return
		}
		checkResult(t, src, res)
	})
}

// FuzzRollText: any message gives stored text and valid JSON rolls, or an
// *Error only when nothing would be stored; every successful roll's total
// is recomputable from its dice.
func FuzzRollText(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add("/r " + s)
		f.Add("a [[" + s + "]] b [[1d6]]")
	}
	f.Add("plain text")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		stored, rolls, _, err := NewSeededRoller(2).RollText(text)
		if err != nil {
			var de *Error
			if !errors.As(err, &de) || stored != "" || rolls != nil {
				t.Fatalf("RollText(%q) = %q, %d rolls, %v", text, stored, len(rolls), err)
			}
			return
		}
		if stored == "" {
			t.Fatalf("RollText(%q) stored nothing without an error", text)
		}
		n16 := utf16Len(stored)
		for _, raw := range rolls {
			var r struct {
				Total *float64 `json:"total"`
				Error string   `json:"error"`
				Start int      `json:"start"`
				End   int      `json:"end"`
				Tree  *Node    `json:"tree"`
			}
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatalf("RollText(%q): roll is not JSON: %v", text, err)
			}
			if r.Start < 0 || r.End < r.Start || r.End > n16 {
				t.Fatalf("RollText(%q): roll spans %d..%d of %d", text, r.Start, r.End, n16)
			}
			if (r.Error == "") == (r.Total == nil) {
				t.Fatalf("RollText(%q): roll %s has neither or both of total and error", text, raw)
			}
			if r.Total != nil && recompute(r.Tree) != *r.Total {
				t.Fatalf("RollText(%q): total %v, recomputed %v", text, *r.Total, recompute(r.Tree))
			}
		}
	})
}

func checkResult(t *testing.T, src string, res *Result) {
	t.Helper()
	if math.IsInf(res.Total, 0) || math.IsNaN(res.Total) {
		t.Fatalf("Roll(%q) total %v", src, res.Total)
	}
	if got := recompute(res.Tree); got != res.Total {
		t.Fatalf("Roll(%q): total %v, recomputed %v", src, res.Total, got)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("Roll(%q): %v", src, err)
	}
}
