package core_test

import (
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// CheckJSON counts values, containers, nesting and members on the bytes:
// at a bound a document passes, one past it is refused too large; brackets
// and quotes inside strings count for nothing.
func TestCheckJSONBounds(t *testing.T) {
	repeatArray := func(item string, n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
	}
	members := func(n int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"k`)
			b.WriteString(strings.Repeat("x", i%7))
			b.WriteString(itoa(i))
			b.WriteString(`": 1`)
		}
		b.WriteString("}")
		return b.String()
	}
	for _, c := range []struct {
		name string
		doc  string
		ok   bool
	}{
		{"values at the bound", repeatArray("0", core.MaxJSONValues-1), true},
		{"one value past", repeatArray("0", core.MaxJSONValues), false},
		{"strings with brackets inside", repeatArray(`"[{\"]}"`, core.MaxJSONValues-1), true},
		{"nesting at the bound", strings.Repeat("[", core.MaxJSONDepth) + strings.Repeat("]", core.MaxJSONDepth), true},
		{"nesting past", strings.Repeat("[", core.MaxJSONDepth+1) + strings.Repeat("]", core.MaxJSONDepth+1), false},
		{"members at the bound", members(core.MaxJSONMembers), true},
		{"one member past", members(core.MaxJSONMembers + 1), false},
		{"keys are not values", `{"a": {"b": 1}, "c": [1, "d"]}`, true},
		{"containers within the allowance", repeatArray("{}", core.JSONContainersBase-2), true},
		{"containers past the allowance", repeatArray("{}", core.JSONContainersBase+200), false},
		{"malformed is the decoder's", `{"a": [1, 2}`, true},
		{"an unterminated string", `["abc`, true},
		{"empty", ``, true},
	} {
		err := core.CheckJSON([]byte(c.doc))
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case !c.ok && strings.HasPrefix(c.name, "nesting") && core.KindOf(err) != core.KindInvalid:
			t.Errorf("%s: %v, want invalid", c.name, err)
		case !c.ok && !strings.HasPrefix(c.name, "nesting") && core.KindOf(err) != core.KindTooLarge:
			t.Errorf("%s: %v, want too large", c.name, err)
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
