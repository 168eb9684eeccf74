package dice

import (
	"cmp"
	"math"
	"slices"
)

// Roll parses and rolls expr.
func (r *Roller) Roll(expr string) (*Result, error) {
	e, err := Parse(expr)
	if err != nil {
		return nil, err
	}
	return r.RollExpr(e)
}

// RollExpr rolls a parsed expression.
func (r *Roller) RollExpr(e *Expr) (*Result, error) {
	// One allocation for the result and the evaluator's state, one for all
	// result nodes (every parsed node becomes one), one for their Args.
	st := &struct {
		res Result
		ev  evaluator
	}{}
	ev := &st.ev
	ev.r, ev.src = r, e.src
	ev.nodes, ev.args = make([]Node, e.nodes), make([]*Node, e.args)
	tree, err := ev.eval(e.root)
	if err != nil {
		return nil, err
	}
	st.ev = evaluator{} // let the collector have what the result does not use
	st.res = Result{Expression: e.src, Formula: e.formula, Total: tree.Value, Comment: e.comment, Tree: tree}
	return &st.res, nil
}

// Total parses and rolls expr and returns only its total (for scripts).
func (r *Roller) Total(expr string) (float64, error) {
	res, err := r.Roll(expr)
	if err != nil {
		return 0, err
	}
	return res.Total, nil
}

// evaluator rolls one expression; it counts the dice rolled against
// MaxTotalDice.
type evaluator struct {
	r      *Roller
	src    string
	rolled int
	nodes  []Node  // preallocated result nodes, taken in order
	args   []*Node // preallocated Args slices, likewise
}

func (ev *evaluator) newNode() *Node {
	if len(ev.nodes) == 0 {
		return new(Node)
	}
	n := &ev.nodes[0]
	ev.nodes = ev.nodes[1:]
	return n
}

func (ev *evaluator) newArgs(k int) []*Node {
	if len(ev.args) < k {
		return make([]*Node, k)
	}
	a := ev.args[:k:k]
	ev.args = ev.args[k:]
	return a
}

var opNames = map[byte]string{'+': "+", '-': "-", '*': "*", '/': "/"}

var typeNames = [...]string{
	kindNumber: "number", kindDice: "dice", kindGroup: "group", kindBinary: "op",
	kindNegate: "negate", kindParen: "paren", kindCall: "call",
}

func (ev *evaluator) eval(n *node) (*Node, error) {
	out := ev.newNode()
	out.Type, out.Label, out.Notation, out.ast = typeNames[n.kind], n.label, n.notation, n
	switch n.kind {
	case kindNumber:
		out.Value = n.num
	case kindDice:
		if err := ev.dice(n, out); err != nil {
			return nil, err
		}
	case kindGroup:
		if err := ev.group(n, out); err != nil {
			return nil, err
		}
	case kindBinary:
		l, err := ev.eval(n.args[0])
		if err != nil {
			return nil, err
		}
		rt, err := ev.eval(n.args[1])
		if err != nil {
			return nil, err
		}
		out.Args = ev.newArgs(2)
		out.Args[0], out.Args[1] = l, rt
		out.Op = opNames[n.op]
		switch n.op {
		case '+':
			out.Value = l.Value + rt.Value
		case '-':
			out.Value = l.Value - rt.Value
		case '*':
			out.Value = l.Value * rt.Value
		case '/':
			if rt.Value == 0 {
				return nil, errAt(ev.src, n.opPos, "division by zero")
			}
			out.Value = l.Value / rt.Value
		}
	case kindNegate, kindParen:
		a, err := ev.eval(n.args[0])
		if err != nil {
			return nil, err
		}
		out.Args = ev.newArgs(1)
		out.Args[0] = a
		out.Value = a.Value
		if n.kind == kindNegate {
			out.Value = -a.Value
		}
	case kindCall:
		if err := ev.call(n, out); err != nil {
			return nil, err
		}
	}
	if math.IsInf(out.Value, 0) || math.IsNaN(out.Value) {
		pos := n.pos
		if n.kind == kindBinary {
			pos = n.opPos
		}
		return nil, errAt(ev.src, pos, "number too large")
	}
	return out, nil
}

func (ev *evaluator) call(n *node, out *Node) error {
	out.Op = n.fn
	if err := ev.evalArgs(n, out); err != nil {
		return err
	}
	out.Value = callValue(n.fn, out.Args)
	return nil
}

// evalArgs evaluates each argument of a call or a group into out.Args.
func (ev *evaluator) evalArgs(n *node, out *Node) error {
	out.Args = ev.newArgs(len(n.args))
	for i, a := range n.args {
		v, err := ev.eval(a)
		if err != nil {
			return err
		}
		out.Args[i] = v
	}
	return nil
}

func callValue(fn string, args []*Node) float64 {
	x := args[0].Value
	switch fn {
	case "floor":
		return math.Floor(x)
	case "ceil":
		return math.Ceil(x)
	case "round":
		// As JavaScript's Math.round (rpg-dice-roller): halves go up, so
		// round(-2.5) is -2.
		return math.Floor(x + 0.5)
	case "abs":
		return math.Abs(x)
	case "min":
		return math.Min(x, args[1].Value)
	case "max":
		return math.Max(x, args[1].Value)
	}
	return x
}

// group rolls each expression of a {...} group and applies the group's
// modifiers to the expressions' totals.
func (ev *evaluator) group(n *node, out *Node) error {
	if err := ev.evalArgs(n, out); err != nil {
		return err
	}
	if len(n.args) == 1 && n.mods != nil {
		return ev.pooledGroup(n, out)
	}
	items := out.Args
	value := func(i int) float64 { return items[i].Value }
	counted := func(i int) bool { return !items[i].Dropped }
	drop := func(i int) { items[i].Dropped = true }
	if m := n.mods; m != nil {
		if m.keep {
			keepDrop(len(items), value, counted, drop, m.keepN, m.keepHigh, true)
		}
		if m.drop {
			keepDrop(len(items), value, counted, drop, m.dropN, m.dropHigh, false)
		}
		if m.success.given() {
			out.Counting = true
			for _, it := range items {
				if it.Dropped {
					continue
				}
				if m.success.match(it.Value) {
					it.Success = true
				} else if m.failure.given() && m.failure.match(it.Value) {
					it.Failure = true
				}
			}
		}
		if m.sort != 0 {
			slices.SortStableFunc(items, func(a, b *Node) int {
				return m.sort * cmp.Compare(a.Value, b.Value)
			})
		}
	}
	for _, it := range items {
		switch {
		case it.Dropped:
		case out.Counting && it.Success:
			out.Value++
		case out.Counting && it.Failure:
			out.Value--
		case !out.Counting:
			out.Value += it.Value
		}
	}
	return nil
}

// pooledGroup applies the modifiers of a one-expression group to the dice
// inside it, as rpg-dice-roller does: {4d6+2d8}kh3 keeps the three highest
// of all six dice. The expression is then worked out again without the
// dropped dice, or, with a success target, the group counts its dice.
func (ev *evaluator) pooledGroup(n *node, out *Node) error {
	m, item := n.mods, out.Args[0]
	out.Pooled = true
	var pool []*Die
	var terms []*Node
	collectDice(item, &pool, &terms)
	value := func(i int) float64 { return float64(pool[i].Value) }
	counted := func(i int) bool { return pool[i].Counts() }
	drop := func(i int) { pool[i].Dropped = true }
	if m.keep {
		keepDrop(len(pool), value, counted, drop, m.keepN, m.keepHigh, true)
	}
	if m.drop {
		keepDrop(len(pool), value, counted, drop, m.dropN, m.dropHigh, false)
	}
	if m.sort != 0 {
		for _, t := range terms {
			slices.SortStableFunc(t.Dice, func(a, b Die) int { return m.sort * cmp.Compare(a.Value, b.Value) })
		}
	}
	if m.success.given() {
		out.Counting = true
		for _, t := range terms {
			for i := range t.Dice {
				d := &t.Dice[i]
				if !d.Counts() {
					continue
				}
				if m.success.match(float64(d.Value)) {
					d.Success = true
					out.Value++
				} else if m.failure.given() && m.failure.match(float64(d.Value)) {
					d.Failure = true
					out.Value--
				}
			}
		}
		return nil
	}
	if err := ev.refresh(item); err != nil {
		return err
	}
	out.Value = item.Value
	return nil
}

// collectDice gathers the dice terms of an expression and their dice, not
// looking into nested groups or into rolled counts and sides.
func collectDice(n *Node, pool *[]*Die, terms *[]*Node) {
	switch n.Type {
	case "dice":
		*terms = append(*terms, n)
		for i := range n.Dice {
			*pool = append(*pool, &n.Dice[i])
		}
	case "op", "negate", "paren", "call":
		for _, a := range n.Args {
			collectDice(a, pool, terms)
		}
	}
}

// refresh works out the values of n and its parts again after a pooled
// group dropped some of their dice.
func (ev *evaluator) refresh(n *Node) error {
	switch n.Type {
	case "dice":
		n.Value = 0
		for i := range n.Dice {
			if d := &n.Dice[i]; d.Counts() {
				if n.Counting {
					if d.Success {
						n.Value++
					} else if d.Failure {
						n.Value--
					}
				} else {
					n.Value += float64(d.Value)
				}
			}
		}
		return nil
	case "op", "negate", "paren", "call":
		for _, a := range n.Args {
			if err := ev.refresh(a); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	a := n.Args[0].Value
	switch n.Type {
	case "negate":
		n.Value = -a
	case "paren":
		n.Value = a
	case "call":
		n.Value = callValue(n.Op, n.Args)
	case "op":
		b := n.Args[1].Value
		switch n.Op {
		case "+":
			n.Value = a + b
		case "-":
			n.Value = a - b
		case "*":
			n.Value = a * b
		case "/":
			if b == 0 {
				return errAt(ev.src, n.ast.opPos, "division by zero").
					hint("the group dropped every die of the divisor")
			}
			n.Value = a / b
		}
	}
	return nil
}

// keepDrop marks elements dropped. With keep it keeps the n highest (high)
// or lowest among the counted elements and drops the rest; without keep it
// drops the n highest or lowest. Among equal values the earlier element is
// taken first.
func keepDrop(count int, value func(int) float64, counted func(int) bool, drop func(int), n int, high, keep bool) {
	idx := make([]int, 0, count)
	for i := 0; i < count; i++ {
		if counted(i) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if high {
			return cmp.Compare(value(b), value(a))
		}
		return cmp.Compare(value(a), value(b))
	})
	if keep {
		for _, i := range idx[min(n, len(idx)):] {
			drop(i)
		}
		return
	}
	for _, i := range idx[:min(n, len(idx))] {
		drop(i)
	}
}
