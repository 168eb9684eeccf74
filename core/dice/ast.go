package dice

import (
	"strconv"
	"strings"
)

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

func (c compare) String() string {
	if c.op == cmpNone {
		return ""
	}
	return cmpText[c.op] + formatNumber(c.v)
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

// formula writes the canonical form of n, label included.
func (n *node) formula(b *strings.Builder) {
	n.body(b)
	if n.label != "" {
		b.WriteByte('[')
		b.WriteString(n.label)
		b.WriteByte(']')
	}
}

// body writes the canonical form of n without its label.
func (n *node) body(b *strings.Builder) {
	switch n.kind {
	case kindNumber:
		b.WriteString(formatNumber(n.num))
	case kindDice:
		d := n.dice
		if d.count != nil {
			d.count.formula(b)
		} else {
			b.WriteString(strconv.Itoa(d.countN))
		}
		b.WriteByte('d')
		switch {
		case d.fate:
			b.WriteByte('F')
		case d.percent:
			b.WriteByte('%')
		case d.sides != nil:
			d.sides.formula(b)
		default:
			b.WriteString(strconv.Itoa(d.sidesN))
		}
		n.mods.formula(b)
	case kindGroup:
		b.WriteByte('{')
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(", ")
			}
			a.formula(b)
		}
		b.WriteByte('}')
		n.mods.formula(b)
	case kindBinary:
		n.args[0].formula(b)
		b.WriteByte(n.op)
		n.args[1].formula(b)
	case kindNegate:
		b.WriteByte('-')
		n.args[0].formula(b)
	case kindParen:
		b.WriteByte('(')
		n.args[0].formula(b)
		b.WriteByte(')')
	case kindCall:
		b.WriteString(n.fn)
		b.WriteByte('(')
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(", ")
			}
			a.formula(b)
		}
		b.WriteByte(')')
	}
}

func (m *modifiers) formula(b *strings.Builder) {
	if m == nil {
		return
	}
	if m.minSet {
		b.WriteString("min")
		b.WriteString(strconv.Itoa(m.minV))
	}
	if m.maxSet {
		b.WriteString("max")
		b.WriteString(strconv.Itoa(m.maxV))
	}
	switch m.explode {
	case explodeEach:
		if m.explodeOnce {
			b.WriteString("xo")
		} else {
			b.WriteString("!")
		}
	case explodeCompound:
		b.WriteString("!!")
	case explodePenetrate:
		b.WriteString("!p")
	case explodeCompoundPen:
		b.WriteString("!!p")
	}
	if m.explode != explodeNone {
		b.WriteString(m.explodeCmp.String())
	}
	if m.reroll {
		b.WriteByte('r')
		if m.rerollOnce {
			b.WriteByte('o')
		}
		b.WriteString(m.rerollCmp.String())
	}
	if m.unique {
		b.WriteByte('u')
		if m.uniqueOnce {
			b.WriteByte('o')
		}
		b.WriteString(m.uniqueCmp.String())
	}
	if m.keep {
		if m.keepHigh {
			b.WriteString("kh")
		} else {
			b.WriteString("kl")
		}
		b.WriteString(strconv.Itoa(m.keepN))
	}
	if m.drop {
		if m.dropHigh {
			b.WriteString("dh")
		} else {
			b.WriteString("dl")
		}
		b.WriteString(strconv.Itoa(m.dropN))
	}
	if m.success.given() {
		b.WriteString(m.success.String())
		if m.failure.given() {
			b.WriteByte('f')
			b.WriteString(m.failure.String())
		}
	}
	if m.critS {
		b.WriteString("cs")
		b.WriteString(m.critSCmp.String())
	}
	if m.critF {
		b.WriteString("cf")
		b.WriteString(m.critFCmp.String())
	}
	switch m.sort {
	case 1:
		b.WriteString("sa")
	case -1:
		b.WriteString("sd")
	}
}

// formatNumber writes v in its shortest exact decimal form ("5", "2.5").
func formatNumber(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}
