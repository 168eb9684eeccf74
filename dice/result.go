package dice

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Result is one rolled expression: the total, the canonical formula and the
// whole tree down to every die, so anyone can recompute the total.
type Result struct {
	// Expression is the expression as written.
	Expression string
	// Formula is the canonical form (see Expr.Formula).
	Formula string
	// Total is the value of the expression. Division keeps fractions.
	Total float64
	// Comment is the text after '#', if any.
	Comment string
	// Tree is the evaluated expression.
	Tree *Node
	// Start and End locate the roll in the text given to RollText, in UTF-16
	// code units (what JavaScript's String.slice takes); 0 otherwise.
	Start, End int
}

// Node is one evaluated part of an expression. Type says which fields apply:
//
//	number  Value
//	dice    Count, Sides (Fate for dF), Dice, Counting; CountFrom/SidesFrom
//	        when N or M was an expression
//	group   Args (one per expression, each with Dropped/Success/Failure), Counting;
//	        Pooled when the group has one expression and its modifiers applied
//	        to the dice inside it
//	op      Op (+ - * /), Args (2)
//	negate  Args (1)
//	paren   Args (1)
//	call    Op (floor, ceil, round, abs, min, max), Args
//
// Value is always the node's total.
type Node struct {
	Type      string  `json:"type"`
	Value     float64 `json:"value"`
	Op        string  `json:"op,omitempty"`
	Notation  string  `json:"notation,omitempty"`
	Label     string  `json:"label,omitempty"`
	Count     int     `json:"count,omitempty"`
	Sides     int     `json:"sides,omitempty"`
	Fate      bool    `json:"fate,omitempty"`
	CountFrom *Node   `json:"countFrom,omitempty"`
	SidesFrom *Node   `json:"sidesFrom,omitempty"`
	Counting  bool    `json:"counting,omitempty"`
	Pooled    bool    `json:"pooled,omitempty"`
	Dice      []Die   `json:"dice,omitempty"`
	Args      []*Node `json:"args,omitempty"`
	Dropped   bool    `json:"dropped,omitempty"`
	Success   bool    `json:"success,omitempty"`
	Failure   bool    `json:"failure,omitempty"`

	ast *node
}

// Die is one die as rolled. A die counts toward its term when it is neither
// Dropped nor Rerolled; it then adds Value, or, when the term is Counting,
// +1 for Success and -1 for Failure.
type Die struct {
	Value int `json:"value"`
	Sides int `json:"sides"`
	// Fate marks a dF die: Value is -1, 0 or +1.
	Fate bool `json:"fate,omitempty"`
	// Rolled is the face before a min or max clamp changed it.
	Rolled *int `json:"rolled,omitempty"`
	// Rolls are the faces a compounding die (!!) added up into Value.
	Rolls []int `json:"rolls,omitempty"`
	// Exploded: the die matched the explode point and was followed by an
	// explosion (or, compounding, added the next roll to itself).
	Exploded bool `json:"exploded,omitempty"`
	// Explosion: the die was added by an explosion.
	Explosion bool `json:"explosion,omitempty"`
	// Penetrated: Value is the face minus one (penetrating explosion).
	Penetrated bool `json:"penetrated,omitempty"`
	// Rerolled: the die was replaced by the die after it; it does not count.
	Rerolled bool `json:"rerolled,omitempty"`
	// Duplicate: it was rerolled because the roll had to be unique.
	Duplicate bool   `json:"duplicate,omitempty"`
	Dropped   bool   `json:"dropped,omitempty"`
	Success   bool   `json:"success,omitempty"`
	Failure   bool   `json:"failure,omitempty"`
	Critical  string `json:"critical,omitempty"` // "success" or "failure"

	face int // the face shown (after clamps), before any penetration
}

// Counts reports whether the die counts toward its term's total.
func (d *Die) Counts() bool { return !d.Dropped && !d.Rerolled }

// resultJSON is the stored shape of a successful roll (docs/dice.md).
type resultJSON struct {
	Expression string  `json:"expression"`
	Formula    string  `json:"formula"`
	Total      float64 `json:"total"`
	Text       string  `json:"text"`
	Label      string  `json:"label,omitempty"`
	Comment    string  `json:"comment,omitempty"`
	Start      int     `json:"start"`
	End        int     `json:"end"`
	Tree       *Node   `json:"tree"`
}

// MarshalJSON writes the result in the stored shape documented in
// docs/dice.md, with its compact text.
func (r *Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultJSON{
		Expression: r.Expression, Formula: r.Formula, Total: r.Total, Text: r.Text(),
		Label: r.Tree.Label, Comment: r.Comment, Start: r.Start, End: r.End, Tree: r.Tree,
	})
}

// errorJSON is the stored shape of a roll that failed.
type errorJSON struct {
	Expression string `json:"expression"`
	Error      string `json:"error"`
	Position   int    `json:"position,omitempty"`
	Limit      string `json:"limit,omitempty"`
	Start      int    `json:"start"`
	End        int    `json:"end"`
}

// Text returns the compact form: formula, dice, total, and the comment,
// e.g. "4d6dl1: [6, 4, 3, 2d] = 13" or "1d20+5: [17]+5 = 22 # attack".
func (r *Result) Text() string {
	var b strings.Builder
	b.WriteString(r.Formula)
	b.WriteString(": ")
	r.Tree.render(&b)
	b.WriteString(" = ")
	b.WriteString(formatNumber(r.Total))
	if r.Comment != "" {
		b.WriteString(" # ")
		b.WriteString(r.Comment)
	}
	return b.String()
}

// String is Text.
func (r *Result) String() string { return r.Text() }

func (n *Node) render(b *strings.Builder) {
	switch n.Type {
	case "number":
		b.WriteString(formatNumber(n.Value))
	case "dice":
		if n.CountFrom != nil || n.SidesFrom != nil {
			// Show the rolled count and sides before the dice: ([2])d6[5, 6].
			if n.CountFrom != nil {
				n.CountFrom.render(b)
			} else {
				b.WriteString(strconv.Itoa(n.Count))
			}
			b.WriteByte('d')
			if n.SidesFrom != nil {
				n.SidesFrom.render(b)
			} else {
				b.WriteString(strconv.Itoa(n.Sides))
			}
		}
		b.WriteByte('[')
		for i := range n.Dice {
			if i > 0 {
				b.WriteString(", ")
			}
			n.Dice[i].render(b)
		}
		b.WriteByte(']')
	case "group":
		b.WriteByte('{')
		for i, a := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			a.render(b)
			b.WriteString(" = ")
			b.WriteString(formatNumber(a.Value))
			switch {
			case a.Success:
				b.WriteByte('*')
			case a.Failure:
				b.WriteByte('_')
			}
			if a.Dropped {
				b.WriteByte('d')
			}
		}
		b.WriteByte('}')
	case "op":
		n.Args[0].render(b)
		b.WriteString(n.Op)
		n.Args[1].render(b)
	case "negate":
		b.WriteByte('-')
		n.Args[0].render(b)
	case "paren":
		b.WriteByte('(')
		n.Args[0].render(b)
		b.WriteByte(')')
	case "call":
		b.WriteString(n.Op)
		b.WriteByte('(')
		for i, a := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			a.render(b)
		}
		b.WriteByte(')')
	}
}

// render writes the die's value and rpg-dice-roller's markers: ! exploded,
// !! compounded, p penetrated, r rerolled, u rerolled as a duplicate,
// ^ raised by min, v lowered by max, d dropped, * success, _ failure,
// ** critical success, __ critical failure.
func (d *Die) render(b *strings.Builder) {
	b.WriteString(strconv.Itoa(d.Value))
	switch {
	case len(d.Rolls) > 0 && d.Exploded:
		b.WriteString("!!")
	case d.Exploded:
		b.WriteByte('!')
	}
	if d.Penetrated {
		b.WriteByte('p')
	}
	if d.Rolled != nil {
		if *d.Rolled < d.Value {
			b.WriteByte('^')
		} else {
			b.WriteByte('v')
		}
	}
	switch {
	case d.Duplicate:
		b.WriteByte('u')
	case d.Rerolled:
		b.WriteByte('r')
	}
	if d.Dropped {
		b.WriteByte('d')
	}
	if d.Success {
		b.WriteByte('*')
	}
	if d.Failure {
		b.WriteByte('_')
	}
	switch d.Critical {
	case "success":
		b.WriteString("**")
	case "failure":
		b.WriteString("__")
	}
}
