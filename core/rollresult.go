package core

import "encoding/json"

// RollResult is one roll of a message (an element of its `rolls`): the
// dice engine's result exactly as it was stored and as clients receive it
// (docs/dice.md: expression, formula, total, text, label, comment, start,
// end and the tree of every die; or expression, error, position, limit,
// start and end for a roll that failed), with the fields the server reads
// decoded once, when the roll is made or read from the store. Nothing
// else in the server decodes a roll: the message's content
// (messagecontent.go) and the refusal of a bad /roll read these fields.
type RollResult struct {
	Expression string
	Formula    string
	// Total is nil for a roll that failed (or a result without one).
	Total   *float64
	Text    string
	Label   string
	Comment string
	// Error is why the roll failed, "" when it did not.
	Error string

	raw json.RawMessage
}

// rollFields are the fields of a stored roll the server reads.
type rollFields struct {
	Expression string   `json:"expression"`
	Formula    string   `json:"formula"`
	Total      *float64 `json:"total"`
	Text       string   `json:"text"`
	Label      string   `json:"label"`
	Comment    string   `json:"comment"`
	Error      string   `json:"error"`
}

// NewRollResult reads one roll as the dice engine wrote it. A result that
// is not an object of that shape keeps its bytes and reads as a roll
// without a total (it is shown as text, never as a roll).
func NewRollResult(raw json.RawMessage) RollResult {
	r := RollResult{raw: append(json.RawMessage(nil), raw...)}
	var f rollFields
	if json.Unmarshal(raw, &f) == nil {
		r.Expression, r.Formula, r.Total, r.Text = f.Expression, f.Formula, f.Total, f.Text
		r.Label, r.Comment, r.Error = f.Label, f.Comment, f.Error
	}
	return r
}

// MarshalJSON writes the roll exactly as the engine made it.
func (r RollResult) MarshalJSON() ([]byte, error) {
	if r.raw == nil {
		return []byte("null"), nil
	}
	return r.raw, nil
}

// UnmarshalJSON reads a stored roll (NewRollResult).
func (r *RollResult) UnmarshalJSON(b []byte) error {
	*r = NewRollResult(b)
	return nil
}

// Size is the length of the roll's JSON, which the limits bound.
func (r RollResult) Size() int { return len(r.raw) }

// diceTree is the part of a stored roll's tree that Dice counts.
type diceTree struct {
	Dice      []struct{}  `json:"dice"`
	Args      []*diceTree `json:"args"`
	CountFrom *diceTree   `json:"countFrom"`
	SidesFrom *diceTree   `json:"sidesFrom"`
}

// Dice counts the dice the roll rolled, rerolled and dropped ones
// included (every one is in its detail); 0 for a roll that failed.
func (r RollResult) Dice() int {
	if r.Error != "" || r.raw == nil {
		return 0
	}
	var root struct {
		Tree *diceTree `json:"tree"`
	}
	if json.Unmarshal(r.raw, &root) != nil {
		return 0
	}
	var count func(n *diceTree, depth int) int
	count = func(n *diceTree, depth int) int {
		if n == nil || depth > 256 {
			return 0
		}
		total := len(n.Dice)
		for _, a := range n.Args {
			total += count(a, depth+1)
		}
		return total + count(n.CountFrom, depth+1) + count(n.SidesFrom, depth+1)
	}
	return count(root.Tree, 0)
}

// rollTree is the part of a stored roll's tree that Rolled reads.
type rollTree struct {
	Dice []struct {
		Value    float64 `json:"value"`
		Sides    int     `json:"sides"`
		Critical string  `json:"critical"`
		Dropped  bool    `json:"dropped"`
		Rerolled bool    `json:"rerolled"`
	} `json:"dice"`
	Args      []*rollTree `json:"args"`
	CountFrom *rollTree   `json:"countFrom"`
	SidesFrom *rollTree   `json:"sidesFrom"`
}

// Rolled is the roll as a system's outcome hook reads it: its formula,
// total and every die in reading order (a die that does not count is
// marked dropped), with the critical marks of the dice notation. It
// decodes the roll's tree, so it is for the few rolls that ask (a sheet's
// action), not for every message.
func (r RollResult) Rolled() Rolled {
	out := Rolled{Formula: r.Formula, Dice: []RolledDie{}}
	if r.Total != nil {
		out.Total = *r.Total
	}
	var root struct {
		Tree *rollTree `json:"tree"`
	}
	if json.Unmarshal(r.raw, &root) != nil || root.Tree == nil {
		return out
	}
	var walk func(n *rollTree, depth int)
	walk = func(n *rollTree, depth int) {
		if n == nil || depth > 256 {
			return
		}
		walk(n.CountFrom, depth+1)
		walk(n.SidesFrom, depth+1)
		for _, d := range n.Dice {
			out.Dice = append(out.Dice, RolledDie{Sides: d.Sides, Value: d.Value, Dropped: d.Dropped || d.Rerolled, Critical: d.Critical})
		}
		for _, a := range n.Args {
			walk(a, depth+1)
		}
	}
	walk(root.Tree, 0)
	return out
}
