package dice

// ActionFormula rewrites the formula of a character's action (a sheet's
// attack, check or damage roll) for one roll:
//
//   - advantage > 0 rolls the first lone d20 (1d20 with no modifiers) twice
//     and keeps the higher, 2d20kh1; advantage < 0 keeps the lower, 2d20kl1.
//     A formula without a lone d20 is left as it is (a damage roll has no
//     advantage).
//   - critAt > 0 marks that d20's critical success at critAt and above and
//     its critical failure on a 1 (cs>=critAt, cf): marks only, the total
//     is unchanged, and the die-by-die detail shows them ("**", "__").
//   - double rolls twice as many of every die whose count is written as a
//     number: the damage of a critical hit ("1d8+3" becomes "2d8+3"). Counts
//     given as expressions and constants are unchanged.
//
// It returns the canonical formula (without the comment) and an error for
// a formula that does not parse, or that doubling takes past the limits.
func ActionFormula(formula string, advantage int, double bool, critAt int) (string, error) {
	e, err := Parse(formula)
	if err != nil {
		return "", err
	}
	// The tree is this call's own (Parse made it), so it may be changed.
	if d20 := firstLoneD20(e.root); d20 != nil && (advantage != 0 || critAt > 0) {
		m := &modifiers{}
		if advantage != 0 {
			d20.dice.countN = 2
			m.keep, m.keepHigh, m.keepN = true, advantage > 0, 1
		}
		if critAt > 0 {
			m.critS, m.critSCmp = true, compare{op: cmpGe, v: float64(critAt)}
			m.critF = true
		}
		d20.mods = m
	}
	if double {
		doubleCounts(e.root)
	}
	out := string(e.root.appendFormula(nil))
	if _, err := Parse(out); err != nil { // past a limit once doubled
		return "", err
	}
	return out, nil
}

// firstLoneD20 finds the first 1d20 term without modifiers, in reading
// order.
func firstLoneD20(n *node) *node {
	if n.kind == kindDice {
		d := n.dice
		if d.count == nil && d.countN == 1 && d.sides == nil && d.sidesN == 20 && !d.fate && !d.percent && n.mods == nil {
			return n
		}
		return nil
	}
	for _, a := range n.args {
		if found := firstLoneD20(a); found != nil {
			return found
		}
	}
	return nil
}

// doubleCounts doubles every literal dice count under n.
func doubleCounts(n *node) {
	if n.kind == kindDice && n.dice.count == nil {
		n.dice.countN *= 2
	}
	for _, a := range n.args {
		doubleCounts(a)
	}
}

// ActionFormula is the package's ActionFormula as a method, so that the
// server's Roller also rewrites action formulas (core.ActionDice).
func (r *Roller) ActionFormula(formula string, advantage int, double bool, critAt int) (string, error) {
	return ActionFormula(formula, advantage, double, critAt)
}
