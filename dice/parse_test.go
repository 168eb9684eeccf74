package dice

import (
	"errors"
	"strings"
	"testing"
)

// Every notation item parses to its canonical formula.
func TestParseCanonicalFormula(t *testing.T) {
	cases := []struct{ in, want string }{
		// dice
		{"1d20", "1d20"},
		{"d20", "1d20"},
		{"D20", "1d20"},
		{"3d6", "3d6"},
		{"d%", "1d%"},
		{"2d%", "2d%"},
		{"dF", "1dF"},
		{"4dF", "4dF"},
		{"4df", "4dF"},
		{"(1+1)d6", "(1+1)d6"},
		{"2d(3*2)", "2d(3*2)"},
		{"(1d4)d(2d6)", "(1d4)d(2d6)"},
		// arithmetic
		{"1d20 + 5", "1d20+5"},
		{"2 * 3 - 4 / 2", "2*3-4/2"},
		{"-1d4", "-1d4"},
		{"+3", "3"},
		{"--2", "--2"},
		{"1.5 * 2", "1.5*2"},
		{".5", "0.5"},
		{"floor(7/2)", "floor(7/2)"},
		{"CEIL(1.2)", "ceil(1.2)"},
		{"round(2.5)+abs(-3)", "round(2.5)+abs(-3)"},
		{"min(1d6, 3) + max(2, 1d4)", "min(1d6, 3)+max(2, 1d4)"},
		// keep and drop
		{"4d6dl1", "4d6dl1"},
		{"4d6d1", "4d6dl1"},
		{"4d6d", "4d6dl1"},
		{"4d6k3", "4d6kh3"},
		{"2d20kh", "2d20kh1"},
		{"2d20kl1", "2d20kl1"},
		{"4d6dh1", "4d6dh1"},
		{"2d20 kh1", "2d20kh1"},
		// explode
		{"3d6!", "3d6!"},
		{"3d6!>=5", "3d6!>=5"},
		{"3d6!5", "3d6!=5"},
		{"3d6!!", "3d6!!"},
		{"3d6!p", "3d6!p"},
		{"3d6!!p>4", "3d6!!p>4"},
		{"3d6x", "3d6!"},
		{"3d6x>=5", "3d6!>=5"},
		{"3d6xo", "3d6xo"},
		{"3d6!=6", "3d6!=6"},
		// reroll
		{"1d20r", "1d20r"},
		{"1d20r<3", "1d20r<3"},
		{"1d20ro<2", "1d20ro<2"},
		{"1d20r1", "1d20ro=1"},
		{"1d20ro1", "1d20ro=1"},
		// targets and criticals
		{"10d10>=7", "10d10>=7"},
		{"10d10<3", "10d10<3"},
		{"10d10=10", "10d10=10"},
		{"10d10<>5", "10d10<>5"},
		{"10d10>=7f<=2", "10d10>=7f<=2"},
		{"1d20cs", "1d20cs"},
		{"1d20cs>=19cf<3", "1d20cs>=19cf<3"},
		{"1d20cs20", "1d20cs=20"},
		// clamps, sort, unique
		{"4d6min3", "4d6min3"},
		{"4d6mi3", "4d6min3"},
		{"4d6max4", "4d6max4"},
		{"4d6ma4", "4d6max4"},
		{"4dFmin0", "4dFmin0"},
		{"4d6s", "4d6sa"},
		{"4d6sa", "4d6sa"},
		{"4d6sd", "4d6sd"},
		{"5d6u", "5d6u"},
		{"5d6uo", "5d6uo"},
		{"5d6u=6", "5d6u=6"},
		// modifiers print in the order they apply
		{"4d6sdkh3!r1min2", "4d6min2!ro=1kh3sd"},
		// groups
		{"{1d20+5, 1d20+3}kh1", "{1d20+5, 1d20+3}kh1"},
		{"{4d6,4d6,4d6}", "{4d6, 4d6, 4d6}"},
		{"{3d6, 3d6}>=10", "{3d6, 3d6}>=10"},
		{"{1d6,1d8,1d10}dl1sd", "{1d6, 1d8, 1d10}dl1sd"},
		// labels and comments
		{"2d6 [fire] + 1d6 [cold]", "2d6[fire]+1d6[cold]"},
		{"1d20+5 # attack", "1d20+5"},
		{"1d8 [# of hits]", "1d8[# of hits]"},
	}
	for _, c := range cases {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := e.Formula(); got != c.want {
			t.Errorf("Parse(%q).Formula() = %q, want %q", c.in, got, c.want)
		}
		// The canonical form is a fixed point.
		again, err := Parse(e.Formula())
		if err != nil || again.Formula() != e.Formula() {
			t.Errorf("canonical %q does not reparse to itself: %v", e.Formula(), err)
		}
	}
}

func TestParseComment(t *testing.T) {
	e, err := Parse("1d8 [# of hits] + 1d20+5 #  attack with [sword] # 2")
	if err != nil {
		t.Fatal(err)
	}
	if e.Comment() != "attack with [sword] # 2" || e.Formula() != "1d8[# of hits]+1d20+5" {
		t.Errorf("comment %q formula %q", e.Comment(), e.Formula())
	}
}

// Errors name what is wrong and where (1-based character columns).
func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"2d6+3)", `unexpected ')' at 6 in "2d6+3)"`},
		{"1d0", `0 sides at 1 in "1d0": a die needs at least one side`},
		{"", `empty expression: write dice such as 1d20+5`},
		{"   ", `empty expression: write dice such as 1d20+5`},
		{"# only a comment", `empty expression: write dice such as 1d20+5`},
		{"1d", `unexpected end at 3 in "1d": expected the number of sides after 'd' (a number, %, F or parentheses)`},
		{"1dx", `unexpected 'x' at 3 in "1dx": expected the number of sides after 'd' (a number, %, F or parentheses)`},
		{"0d6", `0 dice at 1 in "0d6": roll at least one die`},
		{"1.5d6", `1.5 dice at 1 in "1.5d6": the number of dice must be a whole number`},
		{"1d6.5", `6.5 sides at 1 in "1d6.5": the number of sides must be a whole number`},
		{"1001d6", `1001 dice at 1 in "1001d6": the limit is 1000 dice per roll`},
		{"1d1000001", `1000001 sides at 1 in "1d1000001": the limit is 1000000 sides`},
		{"(2+3", `unexpected end at 5 in "(2+3": expected ')' to close the '(' at 1`},
		{"1d6+", `unexpected end at 5 in "1d6+": expected a number, dice or '('`},
		{"1d6 2", `unexpected '2' at 5 in "1d6 2"`},
		{"1d6q", `unknown modifier "q" at 4 in "1d6q"`},
		{"foo(1)", `unknown word "foo" at 1 in "foo(1)": functions are floor, ceil, round, abs, min and max`},
		{"floor(1, 2)", `floor takes 1 argument, not 2 at 1 in "floor(1, 2)"`},
		{"min(1)", `min takes 2 arguments, not 1 at 1 in "min(1)"`},
		{"floor 2", `unexpected '2' at 7 in "floor 2": expected '(' after floor`},
		{"{1d6, 2d6", `unexpected end at 10 in "{1d6, 2d6": expected ',' or '}' to close the '{' at 1`},
		{"{1d6}!", `modifier "!" cannot apply to a group at 6 in "{1d6}!": groups take keep, drop, success counting and sorting`},
		{"4d6kh3kh2", `second keep at 7 in "4d6kh3kh2": a term takes each modifier once`},
		{"4d6k0", `keep 0 at 4 in "4d6k0": keep at least one`},
		{"10d10f<3", `failure target without a success target at 6 in "10d10f<3": write the success target first, e.g. 10d10>=7f<=2`},
		{"10d10>=", `unexpected end at 8 in "10d10>=": expected a number after the compare sign`},
		{"4d6min5max3", `min 5 is above max 3 at 8 in "4d6min5max3"`},
		{"2d6 [fire", `unclosed label at 5 in "2d6 [fire": close it with ']'`},
		{"2d6[a][b]", `second label at 7 in "2d6[a][b]": a term takes one label`},
		{"1..2", `malformed number "1." at 1 in "1..2"`},
		{"é", `unexpected 'é' at 1 in "é"`},
		{"[é]é", `unexpected '[' at 1 in "[é]é"`},
		{"1d6+é", `unexpected 'é' at 5 in "1d6+é"`},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want %s", c.in, c.want)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("Parse(%q)\n got: %s\nwant: %s", c.in, err, c.want)
		}
		var de *Error
		if !errors.As(err, &de) {
			t.Errorf("Parse(%q) error is %T, want *dice.Error", c.in, err)
		}
	}
}

func TestParseLimits(t *testing.T) {
	long := strings.Repeat("1+", 500) + "1" // 1001 characters
	cases := []struct {
		in, limit, want string
	}{
		{long, LimitExpressionLength, "expression too long: 1001 characters, the limit is 1000"},
		{"1001d6", LimitDicePerRoll, ""},
		{"1d1000001", LimitSides, ""},
		{strings.Repeat("(", 40) + "1" + strings.Repeat(")", 40), LimitDepth,
			`nesting too deep at 33 in "` + strings.Repeat("(", 40) + "1" + strings.Repeat(")", 40) +
				`": the limit is 32 levels of parentheses, groups, functions and signs`},
		{strings.Repeat("-", 40) + "1", LimitDepth, ""},
		{"floor(" + strings.Repeat("{", 40), LimitDepth, ""},
		{"{" + strings.Repeat("1,", 100) + "1}", LimitGroupSize,
			`group too large at 1 in "{` + strings.Repeat("1,", 100) + `1}": the limit is 100 expressions in a group`},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var de *Error
		if !errors.As(err, &de) {
			t.Errorf("Parse(%.20q...) = %v, want a %s error", c.in, err, c.limit)
			continue
		}
		if de.Limit != c.limit {
			t.Errorf("Parse(%.20q...): limit %q, want %q (%v)", c.in, de.Limit, c.limit, err)
		}
		if c.want != "" && err.Error() != c.want {
			t.Errorf("Parse(%.20q...)\n got: %s\nwant: %s", c.in, err, c.want)
		}
	}
	// Exactly at the limits is fine.
	for _, ok := range []string{
		strings.Repeat("1+", 499) + "11", "1000d6", "1d1000000",
		strings.Repeat("(", 32) + "1" + strings.Repeat(")", 32),
		"{" + strings.Repeat("1,", 99) + "1}",
	} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%.20q...) at the limit: %v", ok, err)
		}
	}
}
