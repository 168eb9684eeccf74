package templates

import (
	"fmt"
	"html"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/flosch/pongo2/v6"

	"github.com/vttapp/companion/textfmt"
)

// Project filters. pongo2 keeps filters in a process-wide table, so they are
// registered once per process, never per system.
//
//	signed    2 -> "+2", -1 -> "-1"
//	modifier  ability score -> modifier text: 14 -> "+2"
//	ordinal   3 -> "3rd"
//	fraction  0.25 -> "1/4"
//	number    1800 -> "1,800"
//	join_and  ["a","b","c"] -> "a, b and c" (the argument replaces " and ", e.g. join_and:" or ")
//	markdown  text -> <p> paragraphs (blank lines) with <br> for single line breaks,
//	          **bold** and _italic_; the text is escaped first
//
// The number and list filters call textfmt, as companion.format does in
// Lua, so that a Lua view and a template format alike.
var builtinOnce sync.Once

// registerBuiltins registers the project filters; NewSet calls it.
func registerBuiltins() {
	builtinOnce.Do(func() {
		pongo2.SetAutoescape(true) // the default; said here because pages depend on it
		register(map[string]pongo2.FilterFunction{
			"signed":         numberFilter("signed", textfmt.Signed),
			"modifier":       numberFilter("modifier", textfmt.Modifier),
			"ordinal":        numberFilter("ordinal", func(x float64) string { return textfmt.Ordinal(int64(x)) }),
			"fraction":       numberFilter("fraction", textfmt.Fraction),
			"number":         numberFilter("number", textfmt.Thousands),
			"join_and":       joinAndFilter,
			"markdown":       markdownFilter,
			strictFilterName: strictFilter,
		})
	})
}

func register(filters map[string]pongo2.FilterFunction) {
	for name, fn := range filters {
		if pongo2.FilterExists(name) {
			if err := pongo2.ReplaceFilter(name, fn); err != nil {
				panic(err) // cannot happen: the filter exists
			}
			continue
		}
		if err := pongo2.RegisterFilter(name, fn); err != nil {
			panic(err) // cannot happen: checked above
		}
	}
}

func filterError(name string, format string, args ...any) *pongo2.Error {
	return &pongo2.Error{Sender: "filter:" + name, OrigError: fmt.Errorf(format, args...)}
}

func numberFilter(name string, format func(float64) string) pongo2.FilterFunction {
	return func(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
		if isNull(in) {
			return pongo2.AsValue(""), nil
		}
		if !in.IsNumber() {
			return nil, filterError(name, "%s expects a number, not %q", name, in.String())
		}
		f := in.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, filterError(name, "%s expects a finite number", name)
		}
		return pongo2.AsValue(format(f)), nil
	}
}

func joinAndFilter(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	if isNull(in) {
		return pongo2.AsValue(""), nil
	}
	if !in.CanSlice() || in.IsString() {
		return nil, filterError("join_and", "join_and expects a list, not %q", in.String())
	}
	last := " and "
	if !param.IsNil() {
		last = param.String()
	}
	items := make([]string, 0, in.Len())
	for i := 0; i < in.Len(); i++ {
		items = append(items, in.Index(i).String())
	}
	return pongo2.AsValue(textfmt.Join(items, ", ", last)), nil
}

var (
	boldMarks   = newPairReplacer("**", "<strong>", "</strong>")
	italicMarks = newPairReplacer("_", "<em>", "</em>")
)

// markdownFilter is a small, safe subset of Markdown: the text is escaped,
// then blank lines separate paragraphs, single line breaks become <br>,
// **bold** and _italic_ are honoured.
func markdownFilter(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	if isNull(in) {
		return pongo2.AsSafeValue(""), nil
	}
	text := strings.ReplaceAll(in.String(), "\r\n", "\n")
	var b strings.Builder
	for _, para := range strings.Split(text, "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		escaped := html.EscapeString(para)
		escaped = boldMarks.apply(escaped)
		escaped = italicMarks.apply(escaped)
		b.WriteString("<p>")
		b.WriteString(strings.ReplaceAll(escaped, "\n", "<br>"))
		b.WriteString("</p>")
	}
	return pongo2.AsSafeValue(b.String()), nil
}

// pairReplacer turns pairs of a marker into an opening and closing tag; an
// unpaired marker is left as it is.
type pairReplacer struct{ mark, open, close string }

func newPairReplacer(mark, open, close string) pairReplacer { return pairReplacer{mark, open, close} }

func (p pairReplacer) apply(s string) string {
	parts := strings.Split(s, p.mark)
	if len(parts) < 3 {
		return s
	}
	var b strings.Builder
	pairs := (len(parts) - 1) / 2
	for i, part := range parts {
		if i > 0 {
			switch {
			case i > pairs*2:
				b.WriteString(p.mark)
			case i%2 == 1:
				b.WriteString(p.open)
			default:
				b.WriteString(p.close)
			}
		}
		b.WriteString(part)
	}
	return b.String()
}

// strictFilter fails when its input is missing (see strict.go). Its
// parameter is "file:line path".
func strictFilter(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	if in.IsNil() && !isNull(in) {
		where, path, _ := strings.Cut(param.String(), " ")
		return nil, &pongo2.Error{Sender: "filter:" + strictFilterName, OrigError: &MissingVariableError{Where: where, Path: path}}
	}
	return in, nil
}

// MissingVariableError is a template printing a variable that is not there.
type MissingVariableError struct {
	Where string // file:line
	Path  string
}

func (e *MissingVariableError) Error() string { return e.Where + ": " + e.message() }

func (e *MissingVariableError) message() string {
	return fmt.Sprintf("the template prints %s, which is missing (check the name, or write {{ %s|default:\"\" }} when it is optional)", e.Path, e.Path)
}

// nullValue is the type of Null: a JSON null in template data. It is a nil
// pointer, so pongo2 treats it as empty and false, but it is not missing.
type nullValue struct{}

// Null stands for JSON null in template contexts.
var Null = (*nullValue)(nil)

var nullType = reflect.TypeOf(Null)

func isNull(v *pongo2.Value) bool {
	if !v.IsNil() {
		return false
	}
	i := v.Interface()
	return i != nil && reflect.TypeOf(i) == nullType
}

// Values returns a copy of a JSON value for a template context: JSON null
// becomes Null so that a present-but-null key is not taken for a missing
// one.
func Values(v any) any {
	return markNulls(v, true)
}

// MarkNulls is Values for a value the caller owns and no longer shares:
// the maps and slices are marked in place instead of copied.
func MarkNulls(v any) any {
	return markNulls(v, false)
}

func markNulls(v any, cp bool) any {
	if !cp {
		markInPlace(v)
		if v == nil {
			return Null
		}
		return v
	}
	switch x := v.(type) {
	case nil:
		return Null
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			out[k] = markNulls(item, true)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = markNulls(item, true)
		}
		return out
	default:
		return v
	}
}

// markInPlace replaces the nulls inside v's maps and slices, writing only
// where there is a null.
func markInPlace(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, item := range x {
			switch item.(type) {
			case nil:
				x[k] = Null
			case map[string]any, []any:
				markInPlace(item)
			}
		}
	case []any:
		for i, item := range x {
			switch item.(type) {
			case nil:
				x[i] = Null
			case map[string]any, []any:
				markInPlace(item)
			}
		}
	}
}
