package dice

import "strconv"

// kind is the sort of an expression node.
type kind uint8

const (
	kindNumber kind = iota
	kindDice
	kindGroup
	kindBinary // args[0] op args[1]
	kindNegate // -args[0]
	kindParen  // (args[0])
	kindCall   // fn(args...)
)

// node is one parsed expression node. Parsed trees are never modified, so
// one *Expr may be rolled from many goroutines.
type node struct {
	kind  kind
	pos   int // byte offset where the node starts in the source
	opPos int // byte offset of the operator (binary), for errors
	op    byte
	num   float64
	fn    string
	args  []*node
	label string
	dice  *diceSpec  // kindDice
	mods  *modifiers // kindDice and kindGroup; nil when none

	// notation is the canonical form of a dice or group term without its
	// label: a substring of the expression's formula, set by Parse.
	notation     string
	nstart, nend int
}

// diceSpec is the NdM part of a dice term.
type diceSpec struct {
	count   *node // nil: countN
	countN  int
	sides   *node // nil: sidesN (or fate/percent)
	sidesN  int
	fate    bool // dF: faces -1, 0, +1
	percent bool // d%: 1 to 100
}

type cmpOp uint8

const (
	cmpNone cmpOp = iota
	cmpEq
	cmpNe
	cmpLt
	cmpLe
	cmpGt
	cmpGe
)

var cmpText = [...]string{"", "=", "<>", "<", "<=", ">", ">="}

// compare is a compare point such as >=5. op cmpNone means "not given".
type compare struct {
	op cmpOp
	v  float64
}

func (c compare) given() bool { return c.op != cmpNone }

func (c compare) match(v float64) bool {
	switch c.op {
	case cmpEq:
		return v == c.v
	case cmpNe:
		return v != c.v
	case cmpLt:
		return v < c.v
	case cmpLe:
		return v <= c.v
	case cmpGt:
		return v > c.v
	case cmpGe:
		return v >= c.v
	}
	return false
}

// matchesAll reports whether every integer in lo..hi matches.
func (c compare) matchesAll(lo, hi int) bool {
	l, h := float64(lo), float64(hi)
	switch c.op {
	case cmpEq:
		return lo == hi && l == c.v
	case cmpNe:
		return c.v < l || c.v > h || c.v != float64(int(c.v))
	case cmpLt:
		return h < c.v
	case cmpLe:
		return h <= c.v
	case cmpGt:
		return l > c.v
	case cmpGe:
		return l >= c.v
	}
	return false
}

func (c compare) appendTo(b []byte) []byte {
	if c.op == cmpNone {
		return b
	}
	b = append(b, cmpText[c.op]...)
	return appendNumber(b, c.v)
}

type explodeKind uint8

const (
	explodeNone        explodeKind = iota
	explodeEach                    // !  (and Foundry's x)
	explodeCompound                // !!
	explodePenetrate               // !p
	explodeCompoundPen             // !!p
)

// modifiers holds every modifier of a dice term or group, in the order they
// are applied (rpg-dice-roller's order: min, max, explode, reroll, unique,
// keep, drop, target, critical success, critical failure, sort).
type modifiers struct {
	minSet, maxSet bool
	minV, maxV     int

	explode     explodeKind
	explodeOnce bool // Foundry's xo
	explodeCmp  compare
	explodePos  int

	reroll     bool
	rerollOnce bool
	rerollCmp  compare
	rerollPos  int

	unique     bool
	uniqueOnce bool
	uniqueCmp  compare
	uniquePos  int

	keep, drop         bool
	keepHigh, dropHigh bool
	keepN, dropN       int

	success, failure compare
	critS, critF     bool
	critSCmp         compare
	critFCmp         compare

	sort int // 0 none, 1 ascending, -1 descending
}

// appendFormula appends the canonical form of n, label included.
func (n *node) appendFormula(b []byte) []byte {
	b = n.appendBody(b)
	if n.label != "" {
		b = append(b, '[')
		b = append(b, n.label...)
		b = append(b, ']')
	}
	return b
}

// appendBody appends the canonical form of n without its label.
func (n *node) appendBody(b []byte) []byte {
	n.nstart = len(b)
	switch n.kind {
	case kindNumber:
		b = appendNumber(b, n.num)
	case kindDice:
		d := n.dice
		if d.count != nil {
			b = d.count.appendFormula(b)
		} else {
			b = strconv.AppendInt(b, int64(d.countN), 10)
		}
		b = append(b, 'd')
		switch {
		case d.fate:
			b = append(b, 'F')
		case d.percent:
			b = append(b, '%')
		case d.sides != nil:
			b = d.sides.appendFormula(b)
		default:
			b = strconv.AppendInt(b, int64(d.sidesN), 10)
		}
		b = n.mods.appendFormula(b)
	case kindGroup:
		b = append(b, '{')
		for i, a := range n.args {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = a.appendFormula(b)
		}
		b = append(b, '}')
		b = n.mods.appendFormula(b)
	case kindBinary:
		b = n.args[0].appendFormula(b)
		b = append(b, n.op)
		b = n.args[1].appendFormula(b)
	case kindNegate:
		b = append(b, '-')
		b = n.args[0].appendFormula(b)
	case kindParen:
		b = append(b, '(')
		b = n.args[0].appendFormula(b)
		b = append(b, ')')
	case kindCall:
		b = append(b, n.fn...)
		b = append(b, '(')
		for i, a := range n.args {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = a.appendFormula(b)
		}
		b = append(b, ')')
	}
	n.nend = len(b)
	return b
}

func (m *modifiers) appendFormula(b []byte) []byte {
	if m == nil {
		return b
	}
	// An explode, reroll or unique written without its compare point and
	// followed by a success target would read back with the target as its
	// compare point ("1d6!" then "=6" is "1d6!=6"): the targets go first
	// then, which the parser accepts in any order.
	targetsFirst := m.success.given() &&
		((m.explode != explodeNone && m.explodeCmp.op == cmpNone) ||
			(m.reroll && m.rerollCmp.op == cmpNone) || (m.unique && m.uniqueCmp.op == cmpNone))
	if targetsFirst {
		b = m.appendTargets(b)
	}
	if m.minSet {
		b = append(b, "min"...)
		b = strconv.AppendInt(b, int64(m.minV), 10)
	}
	if m.maxSet {
		b = append(b, "max"...)
		b = strconv.AppendInt(b, int64(m.maxV), 10)
	}
	switch m.explode {
	case explodeEach:
		if m.explodeOnce {
			b = append(b, "xo"...)
		} else {
			b = append(b, '!')
		}
	case explodeCompound:
		b = append(b, "!!"...)
	case explodePenetrate:
		b = append(b, "!p"...)
	case explodeCompoundPen:
		b = append(b, "!!p"...)
	}
	if m.explode != explodeNone {
		b = m.explodeCmp.appendTo(b)
	}
	if m.reroll {
		b = append(b, 'r')
		if m.rerollOnce {
			b = append(b, 'o')
		}
		b = m.rerollCmp.appendTo(b)
	}
	if m.unique {
		b = append(b, 'u')
		if m.uniqueOnce {
			b = append(b, 'o')
		}
		b = m.uniqueCmp.appendTo(b)
	}
	if m.keep {
		if m.keepHigh {
			b = append(b, "kh"...)
		} else {
			b = append(b, "kl"...)
		}
		b = strconv.AppendInt(b, int64(m.keepN), 10)
	}
	if m.drop {
		if m.dropHigh {
			b = append(b, "dh"...)
		} else {
			b = append(b, "dl"...)
		}
		b = strconv.AppendInt(b, int64(m.dropN), 10)
	}
	if !targetsFirst {
		b = m.appendTargets(b)
	}
	if m.critS {
		b = append(b, "cs"...)
		b = m.critSCmp.appendTo(b)
	}
	if m.critF {
		b = append(b, "cf"...)
		b = m.critFCmp.appendTo(b)
	}
	switch m.sort {
	case 1:
		b = append(b, "sa"...)
	case -1:
		b = append(b, "sd"...)
	}
	return b
}

// appendNumber appends v in its shortest exact decimal form ("5", "2.5").
func appendNumber(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// formatNumber writes v in its shortest exact decimal form ("5", "2.5").
func formatNumber(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// appendTargets writes the success and failure targets.
func (m *modifiers) appendTargets(b []byte) []byte {
	if m.success.given() {
		b = m.success.appendTo(b)
		if m.failure.given() {
			b = append(b, 'f')
			b = m.failure.appendTo(b)
		}
	}
	return b
}
