package dice

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Expr is a parsed expression. It is immutable: roll it as often as you
// like, from any goroutine.
type Expr struct {
	src     string
	root    *node
	comment string
	formula string
	nodes   int // number of nodes in the tree
	args    int // total length of their args
	buf     [64]byte
}

// Expression returns the expression as written.
func (e *Expr) Expression() string { return e.src }

// Formula returns the canonical form: no spaces, defaults spelled out
// (d20 is 1d20, k3 is kh3), aliases replaced (mi is min, x is !), labels
// kept and the comment left out.
func (e *Expr) Formula() string { return e.formula }

// Comment returns the text after '#', trimmed, or "".
func (e *Expr) Comment() string { return e.comment }

// Parse reads a dice expression such as "4d6dl1", "{1d20+5, 1d20+3}kh1" or
// "2d6 [fire] + 1d6 [cold] # fireball".
func Parse(src string) (*Expr, error) {
	if n := utf8.RuneCountInString(src); n > MaxExpressionLength {
		return nil, (&Error{Expression: src, Msg: "expression too long"}).
			hint("%d characters, the limit is %d", n, MaxExpressionLength).limit(LimitExpressionLength)
	}
	p := parser{src: src}
	body := src
	for i := 0; i < len(src); i++ {
		if src[i] == '#' && !insideLabel(src, i) {
			body = src[:i]
			p.comment = strings.TrimSpace(src[i+1:])
			break
		}
	}
	p.end = len(body)
	p.skipSpace()
	if p.pos >= p.end {
		return nil, &Error{Expression: src, Msg: "empty expression", Hint: "write dice such as 1d20+5"}
	}
	root, err := p.sum()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < p.end {
		return nil, p.unexpected()
	}
	e := &Expr{src: src, root: root, comment: p.comment}
	e.count(root)
	// Most expressions are written canonically: then the formula is src
	// itself and costs no allocation.
	if f := root.appendFormula(e.buf[:0]); string(f) == src {
		e.formula = src
	} else {
		e.formula = string(f)
	}
	setNotation(root, e.formula)
	return e, nil
}

// setNotation gives each dice and group term its canonical form, cut from
// the formula (appendFormula recorded where each one starts and ends).
func setNotation(n *node, formula string) {
	if n.kind == kindDice || n.kind == kindGroup {
		n.notation = formula[n.nstart:n.nend]
	}
	for _, a := range n.args {
		setNotation(a, formula)
	}
	if n.dice != nil {
		if n.dice.count != nil {
			setNotation(n.dice.count, formula)
		}
		if n.dice.sides != nil {
			setNotation(n.dice.sides, formula)
		}
	}
}

// count sizes the result tree of e: one node per parsed node.
func (e *Expr) count(n *node) {
	e.nodes++
	e.args += len(n.args)
	for _, a := range n.args {
		e.count(a)
	}
	if n.dice != nil {
		if n.dice.count != nil {
			e.count(n.dice.count)
		}
		if n.dice.sides != nil {
			e.count(n.dice.sides)
		}
	}
}

// insideLabel reports whether byte i of src sits between '[' and ']', where
// a '#' belongs to the label rather than starting a comment.
func insideLabel(src string, i int) bool {
	open := strings.LastIndexByte(src[:i], '[')
	return open >= 0 && strings.LastIndexByte(src[:i], ']') < open
}

type parser struct {
	src     string
	pos     int
	end     int // end of the expression proper (before any comment)
	depth   int
	comment string
}

func (p *parser) skipSpace() {
	for p.pos < p.end {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// peek returns the next byte (lower-cased) after spaces, or 0 at the end.
func (p *parser) peek() byte {
	p.skipSpace()
	if p.pos >= p.end {
		return 0
	}
	return lower(p.src[p.pos])
}

// at returns the byte at offset i (lower-cased), or 0 past the end.
func (p *parser) at(i int) byte {
	if i >= p.end {
		return 0
	}
	return lower(p.src[i])
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' }

// unexpected reports the character at the current position.
func (p *parser) unexpected() *Error {
	if p.pos >= p.end {
		return errAt(p.src, p.end, "unexpected end")
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return errAt(p.src, p.pos, "unexpected %q", r)
}

// enter counts one more level of nesting, opened at byte offset at.
func (p *parser) enter(at int) *Error {
	p.depth++
	if p.depth > MaxDepth {
		return errAt(p.src, at, "nesting too deep").
			hint("the limit is %d levels of parentheses, groups, functions and signs", MaxDepth).limit(LimitDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// sum := product (('+' | '-') product)*
func (p *parser) sum() (*node, error) {
	left, err := p.product()
	if err != nil {
		return nil, err
	}
	for {
		c := p.peek()
		if c != '+' && c != '-' {
			return left, nil
		}
		opPos := p.pos
		p.pos++
		right, err := p.product()
		if err != nil {
			return nil, err
		}
		left = newOp(kindBinary, left.pos, left, right)
		left.opPos, left.op = opPos, c
	}
}

// product := unary (('*' | '/') unary)*
func (p *parser) product() (*node, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		c := p.peek()
		if c != '*' && c != '/' {
			return left, nil
		}
		opPos := p.pos
		p.pos++
		right, err := p.unary()
		if err != nil {
			return nil, err
		}
		left = newOp(kindBinary, left.pos, left, right)
		left.opPos, left.op = opPos, c
	}
}

// unary := ('-' | '+') unary | term
func (p *parser) unary() (*node, error) {
	c := p.peek()
	if c != '-' && c != '+' {
		return p.term()
	}
	start := p.pos
	p.pos++
	if err := p.enter(start); err != nil {
		return nil, err
	}
	defer p.leave()
	arg, err := p.unary()
	if err != nil {
		return nil, err
	}
	if c == '+' {
		return arg, nil
	}
	return newOp(kindNegate, start, arg), nil
}

// term := primary [dice] [label]
func (p *parser) term() (*node, error) {
	n, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.peek() == '[' {
		if err := p.label(n); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// label reads "[text]" into n.label.
func (p *parser) label(n *node) error {
	start := p.pos
	i := strings.IndexByte(p.src[p.pos+1:p.end], ']')
	if i < 0 {
		return errAt(p.src, start, "unclosed label").hint("close it with ']'")
	}
	text := strings.TrimSpace(p.src[p.pos+1 : p.pos+1+i])
	if strings.ContainsRune(text, '[') {
		return errAt(p.src, start, "'[' inside a label")
	}
	if n.label != "" {
		return errAt(p.src, start, "second label").hint("a term takes one label")
	}
	n.label = text
	p.pos += i + 2
	return nil
}

// primary := number ['d' ...] | '(' sum ')' ['d' ...] | 'd' ... | group | call
func (p *parser) primary() (*node, error) {
	c := p.peek()
	start := p.pos
	switch {
	case isDigit(c) || c == '.':
		v, err := p.number()
		if err != nil {
			return nil, err
		}
		if p.at(p.pos) == 'd' {
			return p.dice(start, nil, v)
		}
		return &node{kind: kindNumber, pos: start, num: v}, nil
	case c == '(':
		n, err := p.paren()
		if err != nil {
			return nil, err
		}
		if p.at(p.pos) == 'd' {
			return p.dice(start, n, 0)
		}
		return n, nil
	case c == '{':
		return p.group()
	case c == 'd' && !isLetter(p.at(p.pos+1)) || c == 'd' && p.at(p.pos+1) == 'f' && !isLetter(p.at(p.pos+2)):
		return p.dice(start, nil, 1)
	case isLetter(c):
		return p.call()
	case c == 0:
		return nil, p.expected("a number, dice or '('")
	}
	return nil, p.unexpected()
}

// paren := '(' sum ')'
func (p *parser) paren() (*node, error) {
	start := p.pos
	p.pos++
	if err := p.enter(start); err != nil {
		return nil, err
	}
	inner, err := p.sum()
	if err != nil {
		return nil, err
	}
	p.leave()
	if p.peek() != ')' {
		return nil, p.expected("')' to close the '(' at %d", column(p.src, start))
	}
	p.pos++
	return newOp(kindParen, start, inner), nil
}

func (p *parser) expected(what string, args ...any) *Error {
	if len(args) > 0 {
		what = fmt.Sprintf(what, args...)
	}
	e := p.unexpected()
	e.Hint = "expected " + what
	return e
}

// number reads an unsigned decimal constant.
func (p *parser) number() (float64, error) {
	start := p.pos
	for p.pos < p.end && isDigit(p.src[p.pos]) {
		p.pos++
	}
	if p.pos < p.end && p.src[p.pos] == '.' {
		p.pos++
		digits := p.pos
		for p.pos < p.end && isDigit(p.src[p.pos]) {
			p.pos++
		}
		if p.pos == digits {
			return 0, errAt(p.src, start, "malformed number %q", p.src[start:p.pos])
		}
	}
	if text := p.src[start:p.pos]; len(text) <= 15 && !strings.Contains(text, ".") {
		// Whole numbers of up to 15 digits are exact in a float64; reading
		// them directly is most of what parsing "1d20+5" costs otherwise.
		v := 0
		for i := 0; i < len(text); i++ {
			v = v*10 + int(text[i]-'0')
		}
		return float64(v), nil
	}
	v, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil {
		return 0, errAt(p.src, start, "number %s is too large", p.src[start:p.pos])
	}
	return v, nil
}

// integer reads an optionally signed whole number (for modifier arguments).
func (p *parser) integer(what string) (int, error) {
	start := p.pos
	if c := p.at(p.pos); c == '-' || c == '+' {
		p.pos++
	}
	digits := p.pos
	for p.pos < p.end && isDigit(p.src[p.pos]) {
		p.pos++
	}
	if p.pos == digits {
		return 0, p.expected(what)
	}
	v, err := strconv.Atoi(p.src[start:p.pos])
	if err != nil || v > MaxSides*MaxDicePerRoll || v < -MaxSides*MaxDicePerRoll {
		return 0, errAt(p.src, start, "number %s is too large", p.src[start:p.pos])
	}
	return v, nil
}
