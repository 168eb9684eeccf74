package dice

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// exampleRow is a row of a table in docs/dice.md:
// | `EXPR` | SEED | `companion roll EXPR --seed SEED` output |
var exampleRow = regexp.MustCompile("(?m)^\\| `([^`]+)` \\| (\\d+) \\| `([^`]+)` \\|$")

// Every example in docs/dice.md is what the engine does.
func TestDocsExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/dice.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := exampleRow.FindAllStringSubmatch(string(doc), -1)
	if len(rows) < 50 {
		t.Fatalf("found %d examples in docs/dice.md, want at least 50", len(rows))
	}
	for _, row := range rows {
		expr, want := row[1], row[3]
		seed, _ := strconv.ParseUint(row[2], 10, 64)
		res, err := NewSeededRoller(seed).Roll(expr)
		if err != nil {
			t.Errorf("docs example %q: %v", expr, err)
			continue
		}
		if got := res.Text(); got != want {
			t.Errorf("docs example %q with seed %d\n docs: %s\n  got: %s", expr, seed, want, got)
		}
	}
}
