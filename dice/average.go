package dice

import "math"

// Average returns the value of expr with every die replaced by its mean
// ((sides+1)/2, 0 for dF): what stat blocks print after rounding down, e.g.
// 2d6+1 gives 8 and floor() of it 8. Sums and differences of dice are exact
// expectations. Dice with modifiers (keep, explode, ...) and groups with
// modifiers have no such simple mean and are an error.
func Average(expr string) (float64, error) {
	e, err := Parse(expr)
	if err != nil {
		return 0, err
	}
	return average(e.src, e.root)
}

func average(src string, n *node) (float64, error) {
	args := make([]float64, len(n.args))
	if n.kind != kindDice {
		for i, a := range n.args {
			v, err := average(src, a)
			if err != nil {
				return 0, err
			}
			args[i] = v
		}
	}
	var v float64
	switch n.kind {
	case kindNumber:
		v = n.num
	case kindDice:
		if n.mods != nil {
			return 0, errAt(src, n.pos, "no simple average").hint("only dice without modifiers have one")
		}
		d := n.dice
		count, sides := float64(d.countN), float64(d.sidesN)
		var err error
		if d.count != nil {
			if count, err = average(src, d.count); err != nil {
				return 0, err
			}
		}
		if d.sides != nil {
			if sides, err = average(src, d.sides); err != nil {
				return 0, err
			}
		}
		mean := (sides + 1) / 2
		if d.fate {
			mean = 0
		}
		v = count * mean
	case kindGroup:
		if n.mods != nil {
			return 0, errAt(src, n.pos, "no simple average").hint("only groups without modifiers have one")
		}
		for _, a := range args {
			v += a
		}
	case kindBinary:
		switch n.op {
		case '+':
			v = args[0] + args[1]
		case '-':
			v = args[0] - args[1]
		case '*':
			v = args[0] * args[1]
		case '/':
			if args[1] == 0 {
				return 0, errAt(src, n.opPos, "division by zero")
			}
			v = args[0] / args[1]
		}
	case kindNegate:
		v = -args[0]
	case kindParen:
		v = args[0]
	case kindCall:
		nodes := make([]*Node, len(args))
		for i, a := range args {
			nodes[i] = &Node{Value: a}
		}
		v = callValue(n.fn, nodes)
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errAt(src, n.pos, "number too large")
	}
	return v, nil
}
