package engine

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/randomtables"
)

// seededDice rolls formulas "NdS" with a seeded generator: the same rolls
// on every run.
func seededDice(seed uint64) func(string) (int, error) {
	r := rand.New(rand.NewPCG(seed, seed+1))
	return func(formula string) (int, error) {
		n, s, ok := strings.Cut(formula, "d")
		if !ok {
			return 0, fmt.Errorf("not a die: %s", formula)
		}
		s, plus, _ := strings.Cut(s, "+")
		count, _ := strconv.Atoi(n)
		sides, err := strconv.Atoi(s)
		if err != nil || sides < 1 {
			return 0, fmt.Errorf("not a die: %s", formula)
		}
		total, _ := strconv.Atoi(plus)
		for range max(count, 1) {
			total += 1 + r.IntN(sides)
		}
		return total, nil
	}
}

func testRoller(seed uint64, tables ...*core.Table) *randomtables.TableRoller {
	return &randomtables.TableRoller{
		Dice:    seededDice(seed),
		Find:    func(slug string) (*core.Table, error) { return kernel.FindTable(tables, slug), nil },
		History: func(string) ([]int, error) { return nil, nil },
		Taken:   map[string][]int{},
	}
}

// A d100 table with ranges rolls every row, each as often as its range is
// wide, over many seeded rolls; "00" is 100.
func TestAD100TableRollsEveryRowAtItsFrequency(t *testing.T) {
	tb := &core.Table{Name: "Treasure", Columns: []core.TableColumn{{Name: "d100"}, {Name: "Find"}},
		Rows: core.TableRows{{"01-50", "copper"}, {"51–75", "silver"}, {"76-95", "gold"}, {"96-00", "a gem"}}}
	if err := tb.Normalize(); err != nil {
		t.Fatal(err)
	}
	r := testRoller(42, tb)
	counts := map[string]int{}
	const n = 20000
	for range n {
		roll, err := r.Roll(tb, 0)
		if err != nil {
			t.Fatal(err)
		}
		if roll.Formula != "1d100" || roll.Result < 1 || roll.Result > 100 || len(roll.Details) != 1 || roll.Details[0].Name != "Find" {
			t.Fatalf("a roll: %+v", roll)
		}
		counts[roll.Details[0].Value]++
	}
	for find, want := range map[string]float64{"copper": .50, "silver": .25, "gold": .20, "a gem": .05} {
		got := float64(counts[find]) / n
		if got < want-0.015 || got > want+0.015 {
			t.Errorf("%s came %.3f of the rolls, want %.2f", find, got, want)
		}
	}
}

// noRepeat never gives a row twice until every row was given, then starts
// over; a table by position rolls a die as large as it has rows.
func TestNoRepeatNeverRepeatsUntilExhausted(t *testing.T) {
	tb := &core.Table{Name: "Rumours", RollMode: core.RollNoRepeat, Columns: []core.TableColumn{{Name: "Rumour"}},
		Rows: core.TableRows{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}}
	if err := tb.Normalize(); err != nil {
		t.Fatal(err)
	}
	r := testRoller(7, tb)
	for round := range 3 {
		seen := map[string]bool{}
		for range 5 {
			roll, err := r.Roll(tb, 0)
			if err != nil {
				t.Fatal(err)
			}
			v := roll.Details[0].Value
			if seen[v] {
				t.Fatalf("round %d: %q came twice before every row did (%v)", round, v, seen)
			}
			if roll.Formula != "1d5" || roll.Result < 1 || roll.Result > 5 || tb.Rows[roll.Result-1][0] != v {
				t.Fatalf("round %d: the roll names row %d for %q", round, roll.Result, v)
			}
			seen[v] = true
		}
	}
}

// A cell linking another table rolls it; a loop of tables stops at the
// cap with a note, never forever; eachRow reads every row.
func TestNestedTablesRollThroughAndLoopsStop(t *testing.T) {
	gems := &core.Table{Name: "Gems", Columns: []core.TableColumn{{Name: "d4"}, {Name: "Gem"}}, Rows: core.TableRows{{"1-2", "jade"}, {"3-4", "onyx [[1d1+1]] carats"}}}
	hoard := &core.Table{Name: "Hoard", Columns: []core.TableColumn{{Name: "Item"}}, Rows: core.TableRows{{"a pouch of [gems](/table/gems)"}}}
	ping := &core.Table{Name: "Ping", Columns: []core.TableColumn{{Name: "x"}}, Rows: core.TableRows{{"see /table/pong"}}}
	pong := &core.Table{Name: "Pong", Columns: []core.TableColumn{{Name: "x"}}, Rows: core.TableRows{{"see /module/m/table/ping"}}}
	parts := &core.Table{Name: "Parts", RollMode: core.RollEachRow, Columns: []core.TableColumn{{Name: "Part"}, {Name: "Roll"}}, Rows: core.TableRows{{"head", "x"}, {"tail", "/table/gems"}}}
	for _, tb := range []*core.Table{gems, hoard, ping, pong, parts} {
		if err := tb.Normalize(); err != nil {
			t.Fatal(err)
		}
	}
	r := testRoller(1, gems, hoard, ping, pong, parts)
	r.Inline = func(s string) string { return strings.ReplaceAll(s, "[[1d1+1]]", "2") }
	roll, err := r.Roll(hoard, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(roll.Details) != 1 || len(roll.Details[0].Rolls) != 1 || roll.Details[0].Rolls[0].Name != "Gems" || roll.Details[0].Rolls[0].Reference != "/table/gems" {
		t.Fatalf("the hoard's gems were not rolled: %+v", roll)
	}
	if v := roll.Details[0].Rolls[0].Details[0].Value; v != "jade" && v != "onyx 2 carats" {
		t.Fatalf("the gem: %q", v)
	}
	r = testRoller(1, gems, hoard, ping, pong, parts)
	roll, err = r.Roll(ping, 0)
	if err != nil {
		t.Fatal(err)
	}
	depth, last := 0, roll
	for len(last.Details[0].Rolls) == 1 {
		last = last.Details[0].Rolls[0]
		depth++
	}
	if depth != core.MaxNestedTableRolls-1 || !strings.Contains(last.Details[0].Value, "not rolled") {
		t.Fatalf("a loop went %d deep, ending %+v", depth, last)
	}
	// A count or dice before a link roll it that many times.
	twice := &core.Table{Name: "Twice", Columns: []core.TableColumn{{Name: "x"}}, Rows: core.TableRows{{"2 [gems](/table/gems) and 1d1+2 x /table/gems"}}}
	if err := twice.Normalize(); err != nil {
		t.Fatal(err)
	}
	roll, err = testRoller(5, gems, twice).Roll(twice, 0)
	if err != nil || len(roll.Details[0].Rolls) != 5 {
		t.Fatalf("a link rolled by count and dice: %v, %d rolls", err, len(roll.Details[0].Rolls))
	}
	roll, err = testRoller(3, gems, parts).Roll(parts, 0)
	if err != nil || roll.Formula != "Multiple rolls" || len(roll.Details) != 4 || len(roll.Details[3].Rolls) != 1 {
		t.Fatalf("eachRow: %v %+v", err, roll)
	}
}

// Bad tables are refused whole, with words that say what is wrong.
func TestBadTablesAreRefused(t *testing.T) {
	big := make(core.TableRows, 100000)
	for i := range big {
		big[i] = []string{"x"}
	}
	for _, c := range []struct {
		name string
		t    core.Table
		want string
	}{
		{"100,000 rows", core.Table{Name: "Huge", Columns: []core.TableColumn{{Name: "x"}}, Rows: big}, "100000 rows, more than the limit"},
		{"a self link", core.Table{Name: "Loop", Columns: []core.TableColumn{{Name: "x"}}, Rows: core.TableRows{{"again: /table/loop"}}}, "links the table itself"},
		{"overlapping ranges", core.Table{Name: "O", Columns: []core.TableColumn{{Name: "d20"}, {Name: "x"}}, Rows: core.TableRows{{"1-10", "a"}, {"10-20", "b"}}}, "row 2's range 10-20 overlaps row 1's 1-10"},
		{"a range off the die", core.Table{Name: "O", Columns: []core.TableColumn{{Name: "d20"}, {Name: "x"}}, Rows: core.TableRows{{"1-30", "a"}}}, "is not a range of d20"},
		{"an unreadable die column", core.Table{Name: "O", Columns: []core.TableColumn{{Name: "d6"}, {Name: "x"}}, Rows: core.TableRows{{"one", "a"}}}, "'one' is not a range of d6"},
		{"a ragged row", core.Table{Name: "R", Columns: []core.TableColumn{{Name: "a"}, {Name: "b"}}, Rows: core.TableRows{{"1", "2"}, {"3"}}}, "row 2 has 1 cells, the table has 2 columns"},
		{"no name", core.Table{Columns: []core.TableColumn{{Name: "a"}}, Rows: core.TableRows{{"1"}}}, "'name' is required"},
		{"no rows", core.Table{Name: "E", Columns: []core.TableColumn{{Name: "a"}}}, "no row"},
		{"a bad mode", core.Table{Name: "M", RollMode: "twice", Columns: []core.TableColumn{{Name: "a"}}, Rows: core.TableRows{{"1"}}}, "noRepeat"},
	} {
		err := c.t.Normalize()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := core.TableFromCSV("Ragged", []byte("d6,Result\n1-3,a\n4-6,b,extra\n")); err == nil || !strings.Contains(err.Error(), "CSV line 3 has 3 cells, the header has 2") {
		t.Errorf("a ragged CSV: %v", err)
	}
	if _, err := core.TableFromCSV("Huge", make([]byte, 50<<20)); core.KindOf(err) != core.KindTooLarge {
		t.Errorf("a 50 MB CSV: %v", err)
	}
	tb, err := core.TableFromCSV("Weather", []byte("d6,Weather\n1-3,clear\n4-5,rain\n6,\"storm, with hail\"\n"))
	if err != nil || tb.Slug != "weather" || len(tb.Rows) != 3 || tb.Rows[2][1] != "storm, with hail" {
		t.Fatalf("a CSV table: %v %+v", err, tb)
	}
	var fromString core.Table
	if err := fromString.Rows.UnmarshalJSON([]byte(`"[[\"1\",\"a\"],[\"2\",\"b\"]]"`)); err != nil || len(fromString.Rows) != 2 || fromString.Rows[1][1] != "b" {
		t.Fatalf("rows as the original's string: %v %+v", err, fromString.Rows)
	}
}
