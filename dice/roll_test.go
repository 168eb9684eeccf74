package dice

import (
	"errors"
	"strings"
	"testing"
)

// rollCase rolls expr with a fixed sequence of faces and checks the compact
// text and the total.
type rollCase struct {
	expr  string
	faces []int
	text  string
	total float64
}

func checkRolls(t *testing.T, cases []rollCase) {
	t.Helper()
	for _, c := range cases {
		r := NewRollerWithSource(NewSequence(c.faces...))
		res, err := r.Roll(c.expr)
		if err != nil {
			t.Errorf("Roll(%q): %v", c.expr, err)
			continue
		}
		if got := res.Text(); got != c.text {
			t.Errorf("Roll(%q) with %v\n got: %s\nwant: %s", c.expr, c.faces, got, c.text)
		}
		if res.Total != c.total {
			t.Errorf("Roll(%q).Total = %v, want %v", c.expr, res.Total, c.total)
		}
		if got := recompute(res.Tree); got != res.Total {
			t.Errorf("Roll(%q): recomputed total %v from the tree, result says %v", c.expr, got, res.Total)
		}
	}
}

func TestRollDice(t *testing.T) {
	checkRolls(t, []rollCase{
		{"1d20+5", []int{17}, "1d20+5: [17]+5 = 22", 22},
		{"d20", []int{20}, "1d20: [20] = 20", 20},
		{"3d6", []int{1, 6, 3}, "3d6: [1, 6, 3] = 10", 10},
		{"d%", []int{100}, "1d%: [100] = 100", 100},
		{"2d%", []int{1, 42}, "2d%: [1, 42] = 43", 43},
		{"4dF", []int{1, 2, 3, 3}, "4dF: [-1, 0, 1, 1] = 1", 1},
		{"(1+1)d6", []int{3, 4}, "(1+1)d6: (1+1)d6[3, 4] = 7", 7},
		{"2d(2+4)", []int{6, 5}, "2d(2+4): 2d(2+4)[6, 5] = 11", 11},
		{"(1d4)d6", []int{2, 5, 6}, "(1d4)d6: ([2])d6[5, 6] = 11", 11},
	})
}

func TestRollArithmetic(t *testing.T) {
	checkRolls(t, []rollCase{
		{"2+3*4", nil, "2+3*4: 2+3*4 = 14", 14},
		{"(2+3)*4", nil, "(2+3)*4: (2+3)*4 = 20", 20},
		{"10-2-3", nil, "10-2-3: 10-2-3 = 5", 5},
		{"12/2/3", nil, "12/2/3: 12/2/3 = 2", 2},
		{"7/2", nil, "7/2: 7/2 = 3.5", 3.5},
		{"1d6/2", []int{3}, "1d6/2: [3]/2 = 1.5", 1.5},
		{"-1d4", []int{3}, "-1d4: -[3] = -3", -3},
		{"2*-3", nil, "2*-3: 2*-3 = -6", -6},
		{"1.5*2", nil, "1.5*2: 1.5*2 = 3", 3},
		{"floor(7/2)", nil, "floor(7/2): floor(7/2) = 3", 3},
		{"floor(-7/2)", nil, "floor(-7/2): floor(-7/2) = -4", -4},
		{"ceil(7/2)", nil, "ceil(7/2): ceil(7/2) = 4", 4},
		{"round(2.5)", nil, "round(2.5): round(2.5) = 3", 3},
		{"round(-2.5)", nil, "round(-2.5): round(-2.5) = -2", -2},
		{"round(2.4)", nil, "round(2.4): round(2.4) = 2", 2},
		{"abs(-3)", nil, "abs(-3): abs(-3) = 3", 3},
		{"min(1d6, 3)", []int{5}, "min(1d6, 3): min([5], 3) = 3", 3},
		{"max(1d6, 3)", []int{5}, "max(1d6, 3): max([5], 3) = 5", 5},
	})
}

func TestRollKeepDrop(t *testing.T) {
	checkRolls(t, []rollCase{
		{"4d6dl1", []int{6, 4, 3, 2}, "4d6dl1: [6, 4, 3, 2d] = 13", 13},
		{"4d6d1", []int{6, 4, 3, 2}, "4d6dl1: [6, 4, 3, 2d] = 13", 13},
		{"4d6kh3", []int{6, 4, 3, 2}, "4d6kh3: [6, 4, 3, 2d] = 13", 13},
		{"4d6k3", []int{2, 4, 3, 6}, "4d6kh3: [2d, 4, 3, 6] = 13", 13},
		{"2d20kh", []int{5, 15}, "2d20kh1: [5d, 15] = 15", 15},
		{"2d20kl1", []int{5, 15}, "2d20kl1: [5, 15d] = 5", 5},
		{"4d6dh1", []int{6, 4, 3, 2}, "4d6dh1: [6d, 4, 3, 2] = 9", 9},
		{"4d6kl2", []int{6, 4, 3, 2}, "4d6kl2: [6d, 4d, 3, 2] = 5", 5},
		{"3d6kh1", []int{5, 5, 2}, "3d6kh1: [5, 5d, 2d] = 5", 5},               // ties: the earlier is kept
		{"3d6dl1", []int{2, 5, 2}, "3d6dl1: [2d, 5, 2] = 7", 7},                // ties: the earlier is dropped
		{"2d6kh5", []int{2, 5}, "2d6kh5: [2, 5] = 7", 7},                       // keeping more than rolled keeps all
		{"2d6dl3", []int{2, 5}, "2d6dl3: [2d, 5d] = 0", 0},                     // dropping more drops all
		{"4d6kh3dl1", []int{6, 4, 3, 2}, "4d6kh3dl1: [6, 4, 3d, 2d] = 10", 10}, // keep, then drop
	})
}

func TestRollExplode(t *testing.T) {
	checkRolls(t, []rollCase{
		{"3d6!", []int{6, 2, 3, 5}, "3d6!: [6!, 5, 2, 3] = 16", 16},
		{"1d6!", []int{6, 6, 1}, "1d6!: [6!, 6!, 1] = 13", 13},
		{"2d6!>=5", []int{5, 1, 6, 2}, "2d6!>=5: [5!, 6!, 2, 1] = 14", 14},
		{"2d6!5", []int{5, 6, 6}, "2d6!=5: [5!, 6, 6] = 17", 17},
		{"1d6!!", []int{6, 6, 3}, "1d6!!: [15!!] = 15", 15},
		{"2d6!!", []int{2, 6, 1}, "2d6!!: [2, 7!!] = 9", 9},
		{"1d6!p", []int{6, 6, 3}, "1d6!p: [6!, 5!p, 2p] = 13", 13},
		{"1d6!!p", []int{6, 6, 3}, "1d6!!p: [13!!] = 13", 13},
		{"3d6x", []int{6, 2, 3, 5}, "3d6!: [6!, 5, 2, 3] = 16", 16},
		{"2d6x>=5", []int{5, 1, 6, 2}, "2d6!>=5: [5!, 6!, 2, 1] = 14", 14},
		{"2d6xo", []int{6, 6, 6, 6}, "2d6xo: [6!, 6, 6!, 6] = 24", 24},
		{"1d20!", []int{20, 20, 7}, "1d20!: [20!, 20!, 7] = 47", 47},
		{"2dF!", []int{3, 1, 2}, "2dF!: [1!, 0, -1] = 0", 0},
	})
	r := NewRollerWithSource(NewSequence(6, 6, 3))
	res, err := r.Roll("1d6!!")
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Tree.Dice[0]; len(d.Rolls) != 3 || d.Rolls[0] != 6 || d.Rolls[2] != 3 || !d.Exploded {
		t.Errorf("compounded die = %+v, want rolls [6 6 3]", d)
	}
}

func TestRollReroll(t *testing.T) {
	checkRolls(t, []rollCase{
		{"1d20r<3", []int{1, 2, 15}, "1d20r<3: [1r, 2r, 15] = 15", 15},
		{"1d20ro<3", []int{1, 2}, "1d20ro<3: [1r, 2] = 2", 2},
		{"1d20r1", []int{1, 1}, "1d20ro=1: [1r, 1] = 1", 1}, // Foundry's r1: once
		{"2d6r", []int{1, 4, 1, 5}, "2d6r: [1r, 1r, 5, 4] = 9", 9},
		{"2d6r>4", []int{5, 3, 6, 2}, "2d6r>4: [5r, 6r, 2, 3] = 5", 5},
	})
}

func TestRollTargets(t *testing.T) {
	checkRolls(t, []rollCase{
		{"5d10>=7", []int{7, 6, 10, 1, 8}, "5d10>=7: [7*, 6, 10*, 1, 8*] = 3", 3},
		{"5d10>7", []int{7, 6, 10, 1, 8}, "5d10>7: [7, 6, 10*, 1, 8*] = 2", 2}, // > is exclusive
		{"5d10=10", []int{7, 6, 10, 1, 8}, "5d10=10: [7, 6, 10*, 1, 8] = 1", 1},
		{"5d10<3", []int{7, 2, 10, 1, 8}, "5d10<3: [7, 2*, 10, 1*, 8] = 2", 2},
		{"5d10>=7f<=2", []int{7, 6, 10, 1, 2}, "5d10>=7f<=2: [7*, 6, 10*, 1_, 2_] = 0", 0},
		{"5d10>=7f1", []int{7, 6, 1, 1, 2}, "5d10>=7f=1: [7*, 6, 1_, 1_, 2] = -1", -1},
		{"3d6kh2>=4", []int{6, 4, 1}, "3d6kh2>=4: [6*, 4*, 1d] = 2", 2},
		{"3d20cscf", []int{20, 1, 10}, "3d20cscf: [20**, 1__, 10] = 31", 31},
		{"1d20cs>=19", []int{19}, "1d20cs>=19: [19**] = 19", 19},
		{"2d20kh1cs", []int{20, 20}, "2d20kh1cs: [20**, 20d] = 20", 20},
	})
}

func TestRollClampSortUnique(t *testing.T) {
	checkRolls(t, []rollCase{
		{"4d6min3", []int{1, 2, 5, 6}, "4d6min3: [3^, 3^, 5, 6] = 17", 17},
		{"4d6max4", []int{1, 2, 5, 6}, "4d6max4: [1, 2, 4v, 4v] = 11", 11},
		{"4d6mi2ma5", []int{1, 6, 3, 4}, "4d6min2max5: [2^, 5v, 3, 4] = 14", 14},
		{"4d6s", []int{5, 2, 6, 1}, "4d6sa: [1, 2, 5, 6] = 14", 14},
		{"4d6sd", []int{5, 2, 6, 1}, "4d6sd: [6, 5, 2, 1] = 14", 14},
		{"4d6dl1sd", []int{5, 2, 6, 1}, "4d6dl1sd: [6, 5, 2, 1d] = 13", 13},
		{"3d6u", []int{2, 2, 4, 2, 5}, "3d6u: [2, 2u, 2u, 5, 4] = 11", 11},
		{"3d6uo", []int{2, 2, 4, 2}, "3d6uo: [2, 2u, 2, 4] = 8", 8},
		{"3d6u=6", []int{2, 2, 6}, "3d6u=6: [2, 2, 6] = 10", 10},
		{"3d3u", []int{3, 3, 3, 1, 1, 2}, "3d3u: [3, 3u, 1, 3u, 1u, 2] = 6", 6},
	})
	r := NewRollerWithSource(NewSequence(1))
	res, err := r.Roll("1d6min3")
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Tree.Dice[0]; d.Rolled == nil || *d.Rolled != 1 || d.Value != 3 {
		t.Errorf("clamped die = %+v, want value 3 rolled 1", d)
	}
}

func TestRollGroups(t *testing.T) {
	checkRolls(t, []rollCase{
		{"{1d20+5, 1d20+3}kh1", []int{13, 2}, "{1d20+5, 1d20+3}kh1: {[13]+5 = 18, [2]+3 = 5d} = 18", 18},
		{"{1d20+5, 1d20+3}kl1", []int{13, 2}, "{1d20+5, 1d20+3}kl1: {[13]+5 = 18d, [2]+3 = 5} = 5", 5},
		{"{2d6, 2d6}", []int{1, 2, 3, 4}, "{2d6, 2d6}: {[1, 2] = 3, [3, 4] = 7} = 10", 10},
		{"{4d6, 4d6, 4d6}", []int{1, 2, 3, 4, 5, 6}, "{4d6, 4d6, 4d6}: {[1, 2, 3, 4] = 10, [5, 6, 1, 2] = 14, [3, 4, 5, 6] = 18} = 42", 42},
		{"{3d6, 3d6, 3d6}>=10", []int{4, 4, 4, 1, 1, 1, 6, 6, 6}, "{3d6, 3d6, 3d6}>=10: {[4, 4, 4] = 12*, [1, 1, 1] = 3, [6, 6, 6] = 18*} = 2", 2},
		{"{3d6, 3d6}>=10f<4", []int{4, 4, 4, 1, 1, 1}, "{3d6, 3d6}>=10f<4: {[4, 4, 4] = 12*, [1, 1, 1] = 3_} = 0", 0},
		{"{1d6, 1d6, 1d6}dl1", []int{3, 1, 5}, "{1d6, 1d6, 1d6}dl1: {[3] = 3, [1] = 1d, [5] = 5} = 8", 8},
		{"{1d6,1d6}sd", []int{2, 5}, "{1d6, 1d6}sd: {[5] = 5, [2] = 2} = 7", 7},
		{"{1d6}+1", []int{4}, "{1d6}+1: {[4] = 4}+1 = 5", 5},
	})
}

// A group of one expression applies its modifiers to the dice inside it
// (rpg-dice-roller's rule).
func TestRollPooledGroups(t *testing.T) {
	checkRolls(t, []rollCase{
		{"{4d6+2d8}kh3", []int{6, 1, 2, 3, 8, 4}, "{4d6+2d8}kh3: {[6, 1d, 2d, 3d]+[8, 4] = 18} = 18", 18},
		{"{3d6+1}dl1", []int{1, 5, 6}, "{3d6+1}dl1: {[1d, 5, 6]+1 = 12} = 12", 12},
		{"{2d6+1d8}>=5", []int{5, 2, 7}, "{2d6+1d8}>=5: {[5*, 2]+[7*] = 14} = 2", 2},
		{"{2d6*2}kl1", []int{5, 2}, "{2d6*2}kl1: {[5d, 2]*2 = 4} = 4", 4},
		{"{3d6}sd", []int{2, 6, 4}, "{3d6}sd: {[6, 4, 2] = 12} = 12", 12},
	})
	_, err := NewRollerWithSource(NewSequence(6, 3)).Roll("{1d6/1d4}kh1")
	if err == nil || err.Error() != `division by zero at 5 in "{1d6/1d4}kh1": the group dropped every die of the divisor` {
		t.Errorf("{1d6/1d4}kh1: %v", err)
	}
}

func TestRollLabelsAndComments(t *testing.T) {
	checkRolls(t, []rollCase{
		{"2d6 [fire] + 1d6 [cold] # fireball", []int{3, 4, 5}, "2d6[fire]+1d6[cold]: [3, 4]+[5] = 12 # fireball", 12},
		{"1d20+5 # attack", []int{17}, "1d20+5: [17]+5 = 22 # attack", 22},
	})
	r := NewRollerWithSource(NewSequence(3, 4, 5))
	res, err := r.Roll("2d6 [fire] + 1d6 [cold] # fireball")
	if err != nil {
		t.Fatal(err)
	}
	if l, rt := res.Tree.Args[0].Label, res.Tree.Args[1].Label; l != "fire" || rt != "cold" || res.Comment != "fireball" {
		t.Errorf("labels %q %q comment %q", l, rt, res.Comment)
	}
}

// A roll that could never finish is an error, found before rolling.
func TestRollEndless(t *testing.T) {
	cases := []struct{ expr, want string }{
		{"1d1!", `endless explosion at 4 in "1d1!": every face of a d1 explodes`},
		{"1d6!>0", `endless explosion at 4 in "1d6!>0": every face of a d6 explodes`},
		{"1d1!!", `endless explosion at 4 in "1d1!!": every face of a d1 explodes`},
		{"1d1!p", `endless explosion at 4 in "1d1!p": every face of a d1 explodes`},
		{"1d6min6!", `endless explosion at 8 in "1d6min6!": every face of a d6 explodes`},
		{"4dF!>=-1", `endless explosion at 4 in "4dF!>=-1": every face of a dF explodes`},
		{"1d6x<>0", `endless explosion at 4 in "1d6x<>0": every face of a d6 explodes`},
		{"1d20r<21", `endless reroll at 5 in "1d20r<21": every face of a d20 is rerolled`},
		{"1d1r", `endless reroll at 4 in "1d1r": every face of a d1 is rerolled`},
		{"1d%r<=100", `endless reroll at 4 in "1d%r<=100": every face of a d% is rerolled`},
		{"5d3u", `impossible unique roll at 4 in "5d3u": 5 dice cannot all differ on a d3 with 3 possible results`},
		{"3d6max2u", `impossible unique roll at 8 in "3d6max2u": 3 dice cannot all differ on a d6 with 2 possible results`},
	}
	for _, c := range cases {
		r := NewRollerWithSource(NewSequence(1))
		_, err := r.Roll(c.expr)
		if err == nil || err.Error() != c.want {
			t.Errorf("Roll(%q)\n got: %v\nwant: %s", c.expr, err, c.want)
		}
	}
	// Once-only forms always end.
	for _, ok := range []string{"1d1xo", "1d1ro", "5d3uo", "1d6!>6", "1d20r<20"} {
		if _, err := NewSeededRoller(1).Roll(ok); err != nil {
			t.Errorf("Roll(%q): %v", ok, err)
		}
	}
	// Explosions that make more dice than a unique roll allows.
	_, err := NewRollerWithSource(NewSequence(3, 1, 2, 3)).Roll("3d3!u")
	if err == nil || !strings.HasPrefix(err.Error(), "impossible unique roll") {
		t.Errorf("3d3!u exploding to 4 dice: %v", err)
	}
}

func TestRollErrors(t *testing.T) {
	cases := []struct{ expr, want, limit string }{
		{"1/(1-1)", `division by zero at 2 in "1/(1-1)"`, ""},
		{"(1-1)d6", `0 dice at 1 in "(1-1)d6": roll at least one die`, ""},
		{"(0-2)d6", `-2 dice at 1 in "(0-2)d6": the number of dice cannot be negative`, ""},
		{"(7/2)d6", `3.5 dice at 1 in "(7/2)d6": the number of dice must be a whole number`, ""},
		{"1d(1-1)", `0 sides at 1 in "1d(1-1)": a die needs at least one side`, ""},
		{"(1000+1)d6", `1001 dice at 1 in "(1000+1)d6": the limit is 1000 dice per roll`, LimitDicePerRoll},
		{"1d(1000000+1)", `1000001 sides at 1 in "1d(1000000+1)": the limit is 1000000 sides`, LimitSides},
		{"1000d6!>1", `too many dice at 1 in "1000d6!>1": the limit is 10000 dice in one roll, counting explosions and rerolls`, LimitTotalDice},
		{"1000d6r<6", `too many dice at 1 in "1000d6r<6": the limit is 10000 dice in one roll, counting explosions and rerolls`, LimitTotalDice},
		{strings.Repeat("1000d6+", 10) + "1d6", `too many dice at 71 in "` + strings.Repeat("1000d6+", 10) + `1d6": the limit is 10000 dice in one roll, counting explosions and rerolls`, LimitTotalDice},
		{strings.Repeat("1000000*", 60) + "1", `number too large at 408 in "` + strings.Repeat("1000000*", 60) + `1"`, ""},
	}
	for _, c := range cases {
		// The source always rolls 2: explosions and rerolls above never stop.
		r := NewRollerWithSource(NewSequence(2))
		_, err := r.Roll(c.expr)
		if err == nil || err.Error() != c.want {
			t.Errorf("Roll(%.30q)\n got: %v\nwant: %s", c.expr, err, c.want)
			continue
		}
		var de *Error
		if !errors.As(err, &de) || de.Limit != c.limit {
			t.Errorf("Roll(%.30q): limit %q, want %q", c.expr, de.Limit, c.limit)
		}
	}
	// Exactly MaxTotalDice dice is allowed.
	if _, err := NewSeededRoller(1).Roll(strings.Repeat("1000d6+", 9) + "1000d6"); err != nil {
		t.Errorf("10000 dice: %v", err)
	}
}

// recompute derives a node's total from its children and dice alone, the way
// docs/dice.md tells a client to.
func recompute(n *Node) float64 {
	switch n.Type {
	case "number":
		return n.Value
	case "dice":
		total := 0.0
		for _, d := range n.Dice {
			if !d.Counts() {
				continue
			}
			switch {
			case n.Counting && d.Success:
				total++
			case n.Counting && d.Failure:
				total--
			case !n.Counting:
				total += float64(d.Value)
			}
		}
		return total
	case "group":
		if n.Pooled {
			if !n.Counting {
				return recompute(n.Args[0])
			}
			total := 0.0
			var walk func(*Node)
			walk = func(x *Node) {
				if x.Type == "dice" {
					for _, d := range x.Dice {
						if d.Counts() && d.Success {
							total++
						} else if d.Counts() && d.Failure {
							total--
						}
					}
				}
				if x.Type != "group" {
					for _, a := range x.Args {
						walk(a)
					}
				}
			}
			walk(n.Args[0])
			return total
		}
		total := 0.0
		for _, a := range n.Args {
			v := recompute(a)
			switch {
			case a.Dropped:
			case n.Counting && a.Success:
				total++
			case n.Counting && a.Failure:
				total--
			case !n.Counting:
				total += v
			}
		}
		return total
	case "op":
		l, r := recompute(n.Args[0]), recompute(n.Args[1])
		switch n.Op {
		case "+":
			return l + r
		case "-":
			return l - r
		case "*":
			return l * r
		}
		return l / r
	case "negate":
		return -recompute(n.Args[0])
	case "paren":
		return recompute(n.Args[0])
	}
	args := make([]*Node, len(n.Args))
	for i, a := range n.Args {
		args[i] = &Node{Value: recompute(a)}
	}
	return callValue(n.Op, args)
}
