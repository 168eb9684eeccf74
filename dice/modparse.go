package dice

import "strings"

// modifiers reads the modifiers after a dice term (group false) or a group.
// It returns nil when there are none.
func (p *parser) modifiers(group bool) (*modifiers, error) {
	var m modifiers
	any := false
	for {
		c := p.peek()
		start := p.pos
		if c == 0 {
			break
		}
		if group && !strings.ContainsRune("kd<>=fs", rune(c)) {
			if c == '!' || c == 'x' || c == 'r' || c == 'u' || c == 'c' || c == 'm' {
				return nil, errAt(p.src, start, "modifier %q cannot apply to a group", p.word()).
					hint("groups take keep, drop, success counting and sorting")
			}
			break
		}
		var err *Error
		switch {
		case p.has("min") || p.has("mi"):
			err = p.clamp(&m, true, start)
		case p.has("max") || p.has("ma"):
			err = p.clamp(&m, false, start)
		case c == '!':
			err = p.explode(&m, start)
		case c == 'x':
			err = p.explodeX(&m, start)
		case c == 'r':
			err = p.reroll(&m, start)
		case c == 'u':
			err = p.uniqueMod(&m, start)
		case c == 'k':
			err = p.keepDrop(&m, true, start)
		case c == 'd':
			err = p.keepDrop(&m, false, start)
		case c == '<' || c == '>' || c == '=':
			if m.success.given() {
				return nil, p.twice("success target", start)
			}
			m.success, err = p.compareOpt(false)
		case c == 'f':
			if !m.success.given() {
				return nil, errAt(p.src, start, "failure target without a success target").
					hint("write the success target first, e.g. 10d10>=7f<=2")
			}
			if m.failure.given() {
				return nil, p.twice("failure target", start)
			}
			p.pos++
			m.failure, err = p.compareOpt(true)
			if err == nil && !m.failure.given() {
				err = p.expected("a compare point after 'f', such as f<=2")
			}
		case c == 'c' && (p.at(p.pos+1) == 's' || p.at(p.pos+1) == 'f'):
			err = p.critical(&m, start)
		case c == 's':
			if m.sort != 0 {
				return nil, p.twice("sort", start)
			}
			p.pos++
			m.sort = 1
			switch p.at(p.pos) {
			case 'a':
				p.pos++
			case 'd':
				p.pos++
				m.sort = -1
			}
		default:
			if isLetter(c) {
				return nil, errAt(p.src, start, "unknown modifier %q", p.word())
			}
			return p.done(&m, any), nil
		}
		if err != nil {
			return nil, err
		}
		any = true
	}
	return p.done(&m, any), nil
}

// done returns a heap copy of m, or nil when there were no modifiers (so
// that the common case allocates nothing).
func (p *parser) done(m *modifiers, any bool) *modifiers {
	if !any {
		return nil
	}
	c := *m
	return &c
}

// word returns the letters (or the single symbol) at the current position.
func (p *parser) word() string {
	i := p.pos
	for i < p.end && isLetter(lower(p.src[i])) {
		i++
	}
	if i == p.pos && i < p.end {
		i++
	}
	return p.src[p.pos:i]
}

// has reports whether the text at the current position starts with s
// (case-insensitive); s is lower case.
func (p *parser) has(s string) bool {
	if p.pos+len(s) > p.end {
		return false
	}
	return strings.EqualFold(p.src[p.pos:p.pos+len(s)], s)
}

func (p *parser) twice(what string, start int) *Error {
	return errAt(p.src, start, "second %s", what).hint("a term takes each modifier once")
}

func (p *parser) clamp(m *modifiers, isMin bool, start int) *Error {
	name := "max"
	if isMin {
		name = "min"
	}
	if p.has(name) {
		p.pos += 3
	} else {
		p.pos += 2
	}
	v, err := p.integer("a number after " + name)
	if err != nil {
		return err.(*Error)
	}
	if isMin {
		if m.minSet {
			return p.twice("min", start)
		}
		m.minSet, m.minV = true, v
	} else {
		if m.maxSet {
			return p.twice("max", start)
		}
		m.maxSet, m.maxV = true, v
	}
	if m.minSet && m.maxSet && m.minV > m.maxV {
		return errAt(p.src, start, "min %d is above max %d", m.minV, m.maxV)
	}
	return nil
}

func (p *parser) explode(m *modifiers, start int) *Error {
	if m.explode != explodeNone {
		return p.twice("explode", start)
	}
	p.pos++
	m.explode = explodeEach
	if p.at(p.pos) == '!' {
		p.pos++
		m.explode = explodeCompound
	}
	if p.at(p.pos) == 'p' {
		p.pos++
		if m.explode == explodeCompound {
			m.explode = explodeCompoundPen
		} else {
			m.explode = explodePenetrate
		}
	}
	m.explodePos = start
	var err *Error
	m.explodeCmp, err = p.compareOpt(true)
	return err
}

// explodeX reads Foundry's x (explode, like !) and xo (explode once).
func (p *parser) explodeX(m *modifiers, start int) *Error {
	if m.explode != explodeNone {
		return p.twice("explode", start)
	}
	p.pos++
	m.explode = explodeEach
	if p.at(p.pos) == 'o' {
		p.pos++
		m.explodeOnce = true
	}
	m.explodePos = start
	var err *Error
	m.explodeCmp, err = p.compareOpt(true)
	return err
}

// reroll reads r (until the die no longer matches), ro (once) and
// Foundry's bare-number form rN, which rerolls once a die showing N.
func (p *parser) reroll(m *modifiers, start int) *Error {
	if m.reroll {
		return p.twice("reroll", start)
	}
	p.pos++
	m.reroll, m.rerollPos = true, start
	if p.at(p.pos) == 'o' {
		p.pos++
		m.rerollOnce = true
	} else if isDigit(p.at(p.pos)) {
		m.rerollOnce = true // Foundry: r1 rerolls a 1 once
	}
	var err *Error
	m.rerollCmp, err = p.compareOpt(true)
	return err
}

func (p *parser) uniqueMod(m *modifiers, start int) *Error {
	if m.unique {
		return p.twice("unique", start)
	}
	p.pos++
	m.unique, m.uniquePos = true, start
	if p.at(p.pos) == 'o' {
		p.pos++
		m.uniqueOnce = true
	}
	var err *Error
	m.uniqueCmp, err = p.compareOpt(true)
	return err
}

// keepDrop reads k, kh, kl (keep) or d, dh, dl (drop) and an optional count
// (default 1). k alone keeps the highest; d alone drops the lowest.
func (p *parser) keepDrop(m *modifiers, keep bool, start int) *Error {
	name := "drop"
	if keep {
		name = "keep"
	}
	if keep && m.keep || !keep && m.drop {
		return p.twice(name, start)
	}
	p.pos++
	high := keep
	switch p.at(p.pos) {
	case 'h':
		p.pos++
		high = true
	case 'l':
		p.pos++
		high = false
	}
	n := 1
	if c := p.at(p.pos); isDigit(c) || c == '-' {
		v, err := p.integer("a number")
		if err != nil {
			return err.(*Error)
		}
		if v < 1 {
			return errAt(p.src, start, "%s %d", name, v).hint("%s at least one", name)
		}
		n = v
	}
	if keep {
		m.keep, m.keepHigh, m.keepN = true, high, n
	} else {
		m.drop, m.dropHigh, m.dropN = true, high, n
	}
	return nil
}

func (p *parser) critical(m *modifiers, start int) *Error {
	success := p.at(p.pos+1) == 's'
	p.pos += 2
	cmp, err := p.compareOpt(true)
	if err != nil {
		return err
	}
	if success {
		if m.critS {
			return p.twice("critical success", start)
		}
		m.critS, m.critSCmp = true, cmp
	} else {
		if m.critF {
			return p.twice("critical failure", start)
		}
		m.critF, m.critFCmp = true, cmp
	}
	return nil
}

// compareOpt reads an optional compare point: >=, <=, <>, !=, >, < or =
// followed by a number. With bare, a number alone means "=number".
func (p *parser) compareOpt(bare bool) (compare, *Error) {
	var c compare
	switch {
	case p.has(">="):
		c.op, p.pos = cmpGe, p.pos+2
	case p.has("<="):
		c.op, p.pos = cmpLe, p.pos+2
	case p.has("<>") || p.has("!="):
		c.op, p.pos = cmpNe, p.pos+2
	case p.has(">"):
		c.op, p.pos = cmpGt, p.pos+1
	case p.has("<"):
		c.op, p.pos = cmpLt, p.pos+1
	case p.has("="):
		c.op, p.pos = cmpEq, p.pos+1
	case bare && isDigit(p.at(p.pos)):
		c.op = cmpEq
	default:
		return c, nil
	}
	neg := false
	if p.at(p.pos) == '-' {
		neg = true
		p.pos++
	}
	if next := p.at(p.pos); !isDigit(next) && next != '.' {
		return c, p.expected("a number after the compare sign")
	}
	v, err := p.number()
	if err != nil {
		return c, err.(*Error)
	}
	if neg {
		v = -v
	}
	c.v = v
	return c, nil
}
