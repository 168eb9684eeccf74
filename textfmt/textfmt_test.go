package textfmt

import "testing"

func TestFormatHelpers(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Signed(2), "+2"}, {Signed(-1), "-1"}, {Signed(0), "+0"}, {Signed(1.5), "+1.5"},
		{Modifier(14), "+2"}, {Modifier(10), "+0"}, {Modifier(9), "-1"}, {Modifier(1), "-5"}, {Modifier(30), "+10"},
		{Fraction(0.25), "1/4"}, {Fraction(0.125), "1/8"}, {Fraction(0.5), "1/2"}, {Fraction(2), "2"}, {Fraction(0), "0"},
		{Fraction(1.5), "1 1/2"}, {Fraction(-0.5), "-1/2"}, {Fraction(0.3333333333333333), "1/3"}, {Fraction(0.01), "0.01"},
		{Ordinal(1), "1st"}, {Ordinal(2), "2nd"}, {Ordinal(3), "3rd"}, {Ordinal(4), "4th"}, {Ordinal(11), "11th"},
		{Ordinal(12), "12th"}, {Ordinal(13), "13th"}, {Ordinal(21), "21st"}, {Ordinal(22), "22nd"}, {Ordinal(111), "111th"}, {Ordinal(0), "0th"},
		{Join([]string{"a", "b", "c"}, ", ", " and "), "a, b and c"}, {Join([]string{"a"}, ", ", " and "), "a"},
		{Join(nil, ", ", " and "), ""}, {Join([]string{"a", "b"}, ", ", " or "), "a or b"},
		{Thousands(1800), "1,800"}, {Thousands(155000), "155,000"}, {Thousands(100), "100"}, {Thousands(-1234567.5), "-1,234,567.5"},
		{FormatNumber(3), "3"}, {FormatNumber(2.5), "2.5"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
