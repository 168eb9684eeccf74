package legacyxml

import (
	"math"
	"strconv"
	"strings"
)

// values converts the text of typed fields, keeping the first error
// (located at its element) so that a parser reads on and reports once.
type values struct {
	file string
	err  *Error
}

func (v *values) fail(el *Element, format string, args ...any) {
	if v.err == nil {
		v.err = Errorf(v.file, el, format, args...)
	}
}

// text is the trimmed text of el.
func (v *values) text(el *Element) string { return strings.TrimSpace(el.Text) }

// float reads a number; empty text is 0.
func (v *values) float(el *Element) float64 {
	s := v.text(el)
	if s == "" {
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		v.fail(el, "%q is not a number", clip(s))
		return 0
	}
	return f
}

// optFloat reads a number that may be absent (nil) or empty (nil).
func (v *values) optFloat(el *Element) *float64 {
	if v.text(el) == "" {
		return nil
	}
	f := v.float(el)
	return &f
}

// int reads a whole number; empty text is 0. "12.0" is read as 12 (some
// exporters write every number with a fraction).
func (v *values) int(el *Element) int {
	s := v.text(el)
	if s == "" {
		return 0
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		v.fail(el, "%q is not a whole number", clip(s))
		return 0
	}
	return int(f)
}

// boolean reads YES/NO (also 1/0, true/false, any case); empty is nil.
func (v *values) boolean(el *Element) *bool {
	s := strings.ToLower(v.text(el))
	var b bool
	switch s {
	case "":
		return nil
	case "yes", "1", "true":
		b = true
	case "no", "0", "false":
		b = false
	default:
		v.fail(el, "%q is not YES or NO", clip(s))
		return nil
	}
	return &b
}

// yes reads a boolean that is false when absent.
func (v *values) yes(el *Element) bool {
	b := v.boolean(el)
	return b != nil && *b
}

// numbers reads a comma-separated list of numbers (wall and drawing
// points: "10.0,20.0,30.5,40").
func (v *values) numbers(el *Element) []float64 {
	s := v.text(el)
	if s == "" {
		return nil
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' })
	out := make([]float64, 0, len(parts))
	for _, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			v.fail(el, "%q is not a number (in a list of coordinates)", clip(p))
			return nil
		}
		out = append(out, f)
	}
	return out
}

// clip shortens a quoted value in an error message.
func clip(s string) string {
	if len(s) > 40 {
		return strings.ToValidUTF8(s[:40], "") + "…"
	}
	return s
}
