package dice

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// RollText finds and rolls the dice in a chat message (it implements
// core.Roller):
//
//   - "/roll EXPR" or "/r EXPR" (the whole message) is stored as the roll's
//     compact text, e.g. "1d20+5: [17]+5 = 22";
//   - each inline "[[EXPR]]" is replaced by its total, e.g. "I hit [[1d20+5]]"
//     is stored as "I hit 22";
//   - text without dice is stored as written, with no rolls.
//
// Each roll gives one JSON result (docs/dice.md), in order, whose start and
// end locate it in the stored text (UTF-16 code units). A roll that fails
// keeps its text as written and its JSON carries "error"; err is returned
// only when nothing would be left to store (an empty message, or /roll
// with no expression). command reports a /roll or /r command: this is the
// one place that tells a command from a chat line.
func (r *Roller) RollText(text string) (stored string, rolls []json.RawMessage, command bool, err error) {
	trimmed := strings.TrimLeft(text, " \t\r\n")
	if strings.TrimSpace(trimmed) == "" {
		return "", nil, false, &Error{Msg: "empty message", Hint: "write some text or a roll such as /roll 1d20+5"}
	}
	if expr, ok := commandExpr(trimmed); ok {
		stored, rolls, err = r.rollCommand(text, len(text)-len(expr), expr) // expr is a suffix of text
		return stored, rolls, true, err
	}
	stored, rolls, err = r.rollInline(text)
	return stored, rolls, false, err
}

// commandExpr returns the expression of a "/roll ..." or "/r ..." message.
func commandExpr(s string) (expr string, ok bool) {
	for _, name := range [...]string{"/roll", "/r"} {
		if len(s) >= len(name) && strings.EqualFold(s[:len(name)], name) {
			rest := s[len(name):]
			if rest == "" {
				return "", true
			}
			if c := rest[0]; c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				return strings.TrimLeft(rest, " \t\r\n"), true
			}
		}
	}
	return "", false
}

// rollCommand rolls the expression of a /roll command, found at byte
// offset off of text.
func (r *Roller) rollCommand(text string, off int, expr string) (string, []json.RawMessage, error) {
	expr = strings.TrimRight(expr, " \t\r\n")
	if expr == "" {
		return "", nil, &Error{Msg: "nothing to roll", Hint: "write an expression after the command, e.g. /roll 1d20+5"}
	}
	res, err := r.Roll(expr)
	if err != nil {
		start := utf16Len(text[:off])
		return text, []json.RawMessage{errorResult(expr, err, start, start+utf16Len(expr))}, nil
	}
	stored := res.Text()
	res.Start, res.End = 0, utf16Len(stored)
	return stored, []json.RawMessage{marshal(res)}, nil
}

// rollInline replaces each [[EXPR]] with its total.
func (r *Roller) rollInline(text string) (string, []json.RawMessage, error) {
	var (
		b     strings.Builder
		rolls []json.RawMessage
		at    int // bytes of text consumed
		u16   int // UTF-16 length of b
	)
	for {
		open := strings.Index(text[at:], "[[")
		if open < 0 {
			break
		}
		open += at
		end := closing(text, open+2)
		if end < 0 {
			break
		}
		written := text[open : end+2]
		expr := strings.TrimSpace(text[open+2 : end])
		if len(rolls) == MaxRollsPerText {
			// One error says why the rest of the message was not rolled; it
			// is left as written (no result per extra roll, so a long
			// message cannot make a huge list of rolls).
			err := (&Error{Expression: expr, Msg: "too many rolls in one message"}).
				hint("the limit is %d; the rest of the message is left as written", MaxRollsPerText).
				limit(LimitRollsPerText)
			start := u16 + utf16Len(text[at:open])
			rolls = append(rolls, errorResult(expr, err, start, start+utf16Len(written)))
			break
		}
		b.WriteString(text[at:open])
		u16 += utf16Len(text[at:open])
		at = end + 2

		res, err := r.Roll(expr)
		if err != nil {
			b.WriteString(written)
			rolls = append(rolls, errorResult(expr, err, u16, u16+utf16Len(written)))
			u16 += utf16Len(written)
			continue
		}
		total := formatNumber(res.Total)
		b.WriteString(total)
		res.Start, res.End = u16, u16+len(total)
		u16 += len(total)
		rolls = append(rolls, marshal(res))
	}
	if rolls == nil {
		return text, nil, nil
	}
	b.WriteString(text[at:])
	return b.String(), rolls, nil
}

// closing returns the byte offset of the "]]" that ends an inline roll
// whose expression starts at from, skipping labels such as [fire]; -1 if
// there is none.
func closing(text string, from int) int {
	depth := 0
	for i := from; i < len(text); i++ {
		switch text[i] {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			} else if i+1 < len(text) && text[i+1] == ']' {
				return i
			}
		}
	}
	return -1
}

func marshal(res *Result) json.RawMessage {
	data, err := json.Marshal(res)
	if err != nil {
		// Unreachable: a Result holds only finite numbers, strings and
		// booleans. Store the failure rather than lose the message.
		return errorResult(res.Expression, err, res.Start, res.End)
	}
	return data
}

func errorResult(expr string, err error, start, end int) json.RawMessage {
	out := errorJSON{Expression: expr, Error: err.Error(), Start: start, End: end}
	if e, ok := err.(*Error); ok {
		out.Position, out.Limit = e.Pos, e.Limit
	}
	data, _ := json.Marshal(out)
	return data
}

// utf16Len returns the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 && r <= utf8.MaxRune {
			n++
		}
	}
	return n
}
