package dice

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error is what Parse and Roll return for bad input: a message a person can
// act on, naming the position in the expression, and the limit when one was
// exceeded. Every error this package returns is an *Error.
type Error struct {
	// Expression is the expression as written.
	Expression string
	// Pos is the 1-based character column the problem starts at, or 0 when
	// it concerns the whole expression.
	Pos int
	// Msg says what is wrong, e.g. "unexpected ')'" or "0 sides".
	Msg string
	// Hint, when set, says why or what to do instead.
	Hint string
	// Limit names the limit exceeded (one of the Limit... constants), or "".
	Limit string
}

// Error formats as `<Msg> at <Pos> in "<Expression>": <Hint>`, for example
// `unexpected ')' at 6 in "2d6+3)"` or `0 sides at 1 in "1d0"`.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Msg)
	if e.Pos > 0 {
		fmt.Fprintf(&b, " at %d in %q", e.Pos, e.Expression)
	}
	if e.Hint != "" {
		b.WriteString(": ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// errAt builds an *Error at byte offset off of src.
func errAt(src string, off int, msg string, args ...any) *Error {
	if len(args) > 0 {
		msg = fmt.Sprintf(msg, args...)
	}
	return &Error{Expression: src, Pos: column(src, off), Msg: msg}
}

func (e *Error) hint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

func (e *Error) limit(name string) *Error {
	e.Limit = name
	return e
}

// column converts a byte offset into a 1-based character column.
func column(src string, off int) int {
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	return utf8.RuneCountInString(src[:off]) + 1
}
