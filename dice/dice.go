package dice

import (
	"cmp"
	"slices"
	"strconv"
)

var noModifiers modifiers

// dice rolls a dice term: its dice, then its modifiers in rpg-dice-roller's
// order (min, max, explode, reroll, unique, keep, drop, target, critical
// success, critical failure, sort).
func (ev *evaluator) dice(n *node, out *Node) error {
	d := n.dice
	count, sides := d.countN, d.sidesN
	if d.count != nil {
		c, err := ev.eval(d.count)
		if err != nil {
			return err
		}
		if e := checkCount(ev.src, n.pos, c.Value); e != nil {
			return e
		}
		count, out.CountFrom = int(c.Value), c
	}
	if d.sides != nil {
		s, err := ev.eval(d.sides)
		if err != nil {
			return err
		}
		if e := checkSides(ev.src, n.pos, s.Value); e != nil {
			return e
		}
		sides, out.SidesFrom = int(s.Value), s
	}
	out.Count, out.Sides, out.Fate = count, sides, d.fate
	m := n.mods
	if m == nil {
		m = &noModifiers
	}
	t := term{ev: ev, n: n, m: m, sides: sides, fate: d.fate, lo: 1, hi: sides}
	if d.fate {
		t.lo, t.hi = -1, 1
	}
	t.elo, t.ehi = t.clamp(t.lo), t.clamp(t.hi)
	if err := t.checkEnds(count); err != nil {
		return err
	}
	if ev.rolled+count > MaxTotalDice {
		return ev.tooMany(n)
	}
	t.dice = make([]Die, 0, count)
	for range count {
		die, err := t.roll()
		if err != nil {
			return err
		}
		t.dice = append(t.dice, die)
	}
	if n.mods != nil {
		if err := t.apply(); err != nil {
			return err
		}
		out.Counting = m.success.given()
	}
	out.Dice = t.dice
	for i := range t.dice {
		die := &t.dice[i]
		switch {
		case !die.Counts():
		case out.Counting && die.Success:
			out.Value++
		case out.Counting && die.Failure:
			out.Value--
		case !out.Counting:
			out.Value += float64(die.Value)
		}
	}
	return nil
}

func (ev *evaluator) tooMany(n *node) error {
	return errAt(ev.src, n.pos, "too many dice").
		hint("the limit is %d dice in one roll, counting explosions and rerolls", MaxTotalDice).limit(LimitTotalDice)
}

// term is the state of one dice term being rolled.
type term struct {
	ev       *evaluator
	n        *node
	m        *modifiers
	sides    int
	fate     bool
	lo, hi   int // natural faces
	elo, ehi int // faces after min and max clamps
	dice     []Die
}

func (t *term) clamp(v int) int {
	if t.m.minSet && v < t.m.minV {
		v = t.m.minV
	}
	if t.m.maxSet && v > t.m.maxV {
		v = t.m.maxV
	}
	return v
}

func (t *term) dieName() string {
	switch {
	case t.fate:
		return "dF"
	case t.n.dice.percent:
		return "d%"
	}
	return "d" + strconv.Itoa(t.sides)
}

// explodeCmp and rerollCmp resolve the defaults: explode on the highest
// face, reroll the lowest.
func (t *term) explodeCmp() compare {
	if t.m.explodeCmp.given() {
		return t.m.explodeCmp
	}
	return compare{op: cmpEq, v: float64(t.hi)}
}

func (t *term) rerollCmp() compare {
	if t.m.rerollCmp.given() {
		return t.m.rerollCmp
	}
	return compare{op: cmpEq, v: float64(t.lo)}
}

// checkEnds refuses, before rolling, a roll that could never finish.
func (t *term) checkEnds(count int) error {
	m, src := t.m, t.ev.src
	if m.explode != explodeNone && !m.explodeOnce && t.explodeCmp().matchesAll(t.elo, t.ehi) {
		return errAt(src, m.explodePos, "endless explosion").hint("every face of a %s explodes", t.dieName())
	}
	if m.reroll && !m.rerollOnce && t.rerollCmp().matchesAll(t.elo, t.ehi) {
		return errAt(src, m.rerollPos, "endless reroll").hint("every face of a %s is rerolled", t.dieName())
	}
	return t.checkUnique(count)
}

// checkUnique refuses a unique roll of more dice than the die has results.
func (t *term) checkUnique(count int) error {
	m := t.m
	if m.unique && !m.uniqueOnce && (!m.uniqueCmp.given() || m.uniqueCmp.matchesAll(t.elo, t.ehi)) &&
		count > t.ehi-t.elo+1 {
		return errAt(t.ev.src, m.uniquePos, "impossible unique roll").
			hint("%d dice cannot all differ on a %s with %d possible results", count, t.dieName(), t.ehi-t.elo+1)
	}
	return nil
}

// roll draws one die, counting it against MaxTotalDice.
func (t *term) roll() (Die, error) {
	ev := t.ev
	if ev.rolled >= MaxTotalDice {
		return Die{}, ev.tooMany(t.n)
	}
	ev.rolled++
	v := ev.r.face(t.sides)
	if t.fate {
		v -= 2
	}
	die := Die{Value: v, Sides: t.sides, Fate: t.fate}
	if c := t.clamp(v); c != v {
		rolled := v
		die.Rolled, die.Value = &rolled, c
	}
	die.face = die.Value
	return die, nil
}

func (t *term) apply() error {
	m := t.m
	if m.explode != explodeNone {
		if err := t.explode(); err != nil {
			return err
		}
	}
	if m.reroll {
		if err := t.reroll(); err != nil {
			return err
		}
	}
	if m.unique {
		if err := t.unique(); err != nil {
			return err
		}
	}
	value := func(i int) float64 { return float64(t.dice[i].Value) }
	counted := func(i int) bool { return t.dice[i].Counts() }
	drop := func(i int) { t.dice[i].Dropped = true }
	if m.keep {
		keepDrop(len(t.dice), value, counted, drop, m.keepN, m.keepHigh, true)
	}
	if m.drop {
		keepDrop(len(t.dice), value, counted, drop, m.dropN, m.dropHigh, false)
	}
	if m.success.given() {
		for i := range t.dice {
			die := &t.dice[i]
			if !die.Counts() {
				continue
			}
			if m.success.match(float64(die.Value)) {
				die.Success = true
			} else if m.failure.given() && m.failure.match(float64(die.Value)) {
				die.Failure = true
			}
		}
	}
	if m.critS || m.critF {
		cs, cf := m.critSCmp, m.critFCmp
		if !cs.given() {
			cs = compare{op: cmpEq, v: float64(t.hi)}
		}
		if !cf.given() {
			cf = compare{op: cmpEq, v: float64(t.lo)}
		}
		for i := range t.dice {
			die := &t.dice[i]
			if !die.Counts() {
				continue
			}
			switch {
			case m.critS && cs.match(float64(die.face)):
				die.Critical = "success"
			case m.critF && cf.match(float64(die.face)):
				die.Critical = "failure"
			}
		}
	}
	if m.sort != 0 {
		slices.SortStableFunc(t.dice, func(a, b Die) int { return m.sort * cmp.Compare(a.Value, b.Value) })
	}
	return nil
}

// explode adds a die after each die that matches the explode point (!, x,
// !p), or adds the new rolls into the die itself (!!, !!p). Penetrating
// explosions count one less than they show; whether they explode again is
// decided on the face shown.
func (t *term) explode() error {
	m := t.m
	at := t.explodeCmp()
	penetrate := m.explode == explodePenetrate || m.explode == explodeCompoundPen
	if m.explode == explodeCompound || m.explode == explodeCompoundPen {
		for i := range t.dice {
			die := &t.dice[i]
			if !at.match(float64(die.face)) {
				continue
			}
			die.Exploded = true
			die.Rolls = append(die.Rolls, die.face)
			for {
				next, err := t.roll()
				if err != nil {
					return err
				}
				die.Rolls = append(die.Rolls, next.face)
				die.Value += next.face
				if penetrate {
					die.Value--
				}
				if !at.match(float64(next.face)) {
					break
				}
			}
		}
		return nil
	}
	out := make([]Die, 0, len(t.dice)+len(t.dice)/2)
	for _, die := range t.dice {
		for at.match(float64(die.face)) && !(m.explodeOnce && die.Explosion) {
			die.Exploded = true
			out = append(out, die)
			next, err := t.roll()
			if err != nil {
				return err
			}
			next.Explosion = true
			if penetrate {
				next.Penetrated = true
				next.Value--
			}
			die = next
		}
		out = append(out, die)
	}
	t.dice = out
	return nil
}

// reroll replaces each counted die that matches the reroll point: again
// and again until it no longer matches (r), or once (ro, rN).
func (t *term) reroll() error {
	at := t.rerollCmp()
	out := make([]Die, 0, len(t.dice)+len(t.dice)/2)
	for _, die := range t.dice {
		for tries := 0; die.Counts() && at.match(float64(die.Value)) && !(t.m.rerollOnce && tries > 0); tries++ {
			die.Rerolled = true
			out = append(out, die)
			next, err := t.roll()
			if err != nil {
				return err
			}
			die = next
		}
		out = append(out, die)
	}
	t.dice = out
	return nil
}

// unique rerolls each counted die whose value an earlier counted die
// already shows (only values matching the compare point, when given):
// until it differs (u) or once (uo).
func (t *term) unique() error {
	counted := 0
	for i := range t.dice {
		if t.dice[i].Counts() {
			counted++
		}
	}
	if err := t.checkUnique(counted); err != nil {
		return err // explosions made more dice than there are results
	}
	at := t.m.uniqueCmp
	seen := make(map[int]bool, len(t.dice))
	out := make([]Die, 0, len(t.dice)+len(t.dice)/2)
	for _, die := range t.dice {
		if !die.Counts() {
			out = append(out, die)
			continue
		}
		for tries := 0; seen[die.Value] && (!at.given() || at.match(float64(die.Value))) && !(t.m.uniqueOnce && tries > 0); tries++ {
			die.Rerolled, die.Duplicate = true, true
			out = append(out, die)
			next, err := t.roll()
			if err != nil {
				return err
			}
			die = next
		}
		seen[die.Value] = true
		out = append(out, die)
	}
	t.dice = out
	return nil
}
