package dice

// Terms of the grammar: dice, groups and function calls, with the checks
// on their counts and sides.

import "strings"

// diceNode and opNode allocate a node with its parts in one go.
type diceNode struct {
	n node
	d diceSpec
}

type opNode struct {
	n    node
	args [2]*node
}

func newOp(k kind, pos int, args ...*node) *node {
	o := &opNode{n: node{kind: k, pos: pos}}
	copy(o.args[:], args)
	o.n.args = o.args[:len(args)]
	return &o.n
}

// dice reads "d" sides modifiers; count is the parenthesised count before
// the 'd', or nil when the count is the literal (1 for "d6").
func (p *parser) dice(start int, count *node, literal float64) (*node, error) {
	dn := &diceNode{}
	d := &dn.d
	if count != nil {
		d.count = count
	} else {
		if err := checkCount(p.src, start, literal); err != nil {
			return nil, err
		}
		d.countN = int(literal)
	}
	p.pos++ // 'd'
	sidesPos := p.pos
	switch c := p.at(p.pos); {
	case c == '%':
		p.pos++
		d.percent, d.sidesN = true, 100
	case c == 'f':
		p.pos++
		d.fate, d.sidesN = true, 3
	case isDigit(c):
		v, err := p.number()
		if err != nil {
			return nil, err
		}
		if err := checkSides(p.src, start, v); err != nil {
			return nil, err
		}
		d.sidesN = int(v)
	case c == '(':
		n, err := p.paren()
		if err != nil {
			return nil, err
		}
		d.sides = n
	default:
		p.pos = sidesPos
		return nil, p.expected("the number of sides after 'd' (a number, %, F or parentheses)")
	}
	n := &dn.n
	n.kind, n.pos, n.dice = kindDice, start, d
	m, err := p.modifiers(false)
	if err != nil {
		return nil, err
	}
	n.mods = m
	return n, nil
}

// checkCount validates a number of dice, literal or rolled.
func checkCount(src string, pos int, v float64) *Error {
	switch {
	case v != float64(int64(v)) && v < 1e18 && v > -1e18:
		return errAt(src, pos, "%s dice", formatNumber(v)).hint("the number of dice must be a whole number")
	case v < 0:
		return errAt(src, pos, "%s dice", formatNumber(v)).hint("the number of dice cannot be negative")
	case v == 0:
		return errAt(src, pos, "0 dice").hint("roll at least one die")
	case v > MaxDicePerRoll:
		return errAt(src, pos, "%s dice", formatNumber(v)).
			hint("the limit is %d dice per roll", MaxDicePerRoll).limit(LimitDicePerRoll)
	}
	return nil
}

// checkSides validates a number of sides, literal or rolled.
func checkSides(src string, pos int, v float64) *Error {
	switch {
	case v != float64(int64(v)) && v < 1e18 && v > -1e18:
		return errAt(src, pos, "%s sides", formatNumber(v)).hint("the number of sides must be a whole number")
	case v < 0:
		return errAt(src, pos, "%s sides", formatNumber(v)).hint("a die cannot have negative sides")
	case v == 0:
		return errAt(src, pos, "0 sides").hint("a die needs at least one side")
	case v > MaxSides:
		return errAt(src, pos, "%s sides", formatNumber(v)).
			hint("the limit is %d sides", MaxSides).limit(LimitSides)
	}
	return nil
}

// group := '{' sum (',' sum)* '}' modifiers
func (p *parser) group() (*node, error) {
	start := p.pos
	p.pos++
	if err := p.enter(start); err != nil {
		return nil, err
	}
	n := &node{kind: kindGroup, pos: start}
	for {
		if len(n.args) == MaxGroupSize {
			return nil, errAt(p.src, start, "group too large").
				hint("the limit is %d expressions in a group", MaxGroupSize).limit(LimitGroupSize)
		}
		item, err := p.sum()
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, item)
		switch p.peek() {
		case ',':
			p.pos++
			continue
		case '}':
			p.pos++
		default:
			return nil, p.expected("',' or '}' to close the '{' at %d", column(p.src, start))
		}
		break
	}
	p.leave()
	m, err := p.modifiers(true)
	if err != nil {
		return nil, err
	}
	n.mods = m
	return n, nil
}

var functions = map[string]int{"floor": 1, "ceil": 1, "round": 1, "abs": 1, "min": 2, "max": 2}

// call := name '(' sum (',' sum)* ')'
func (p *parser) call() (*node, error) {
	start := p.pos
	for p.pos < p.end && isLetter(lower(p.src[p.pos])) {
		p.pos++
	}
	name := strings.ToLower(p.src[start:p.pos])
	arity, ok := functions[name]
	if !ok {
		return nil, errAt(p.src, start, "unknown word %q", name).
			hint("functions are floor, ceil, round, abs, min and max")
	}
	if p.peek() != '(' {
		return nil, p.expected("'(' after %s", name)
	}
	p.pos++
	if err := p.enter(start); err != nil {
		return nil, err
	}
	n := &node{kind: kindCall, pos: start, fn: name}
	for {
		arg, err := p.sum()
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, arg)
		if p.peek() == ',' {
			p.pos++
			continue
		}
		if p.peek() != ')' {
			return nil, p.expected("',' or ')' to close %s(", name)
		}
		p.pos++
		break
	}
	p.leave()
	if len(n.args) != arity {
		plural := "s"
		if arity == 1 {
			plural = ""
		}
		return nil, errAt(p.src, start, "%s takes %d argument%s, not %d", name, arity, plural, len(n.args))
	}
	return n, nil
}
