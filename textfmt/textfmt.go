// Package textfmt writes the numbers and lists of game text the way stat
// blocks print them: signed bonuses, ability modifiers, ordinals, fractions,
// thousands separators, "a, b and c". companion.format.* in Lua (scripting)
// and the project's template filters (templates) both call it, so a view and
// a page format alike; it imports the standard library only, so that both
// may depend on it without depending on each other.
package textfmt

import (
	"math"
	"strconv"
	"strings"
)

// FormatNumber writes n without a useless fraction: 3 -> "3", 1.5 -> "1.5".
func FormatNumber(n float64) string {
	if n == math.Trunc(n) && math.Abs(n) < 1e15 {
		return strconv.FormatInt(int64(n), 10)
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

// Signed writes n with its sign: 2 -> "+2", -1 -> "-1", 0 -> "+0".
func Signed(n float64) string {
	if n < 0 {
		return "-" + FormatNumber(-n)
	}
	return "+" + FormatNumber(n)
}

// AbilityModifier is the 5e-style modifier of an ability score:
// floor((score - 10) / 2).
func AbilityModifier(score float64) float64 { return math.Floor((score - 10) / 2) }

// Modifier writes the modifier of an ability score: 14 -> "+2", 8 -> "-1".
func Modifier(score float64) string { return Signed(AbilityModifier(score)) }

// Ordinal writes 1 -> "1st", 2 -> "2nd", 3 -> "3rd", 11 -> "11th", 22 -> "22nd".
func Ordinal(n int64) string {
	suffix := "th"
	abs := n
	if abs < 0 {
		abs = -abs
	}
	if abs%100 < 11 || abs%100 > 13 {
		switch abs % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.FormatInt(n, 10) + suffix
}

// Fraction writes x as a fraction when it has a small denominator:
// 0.25 -> "1/4", 0.125 -> "1/8", 2 -> "2", 1.5 -> "1 1/2". Other values are
// written as decimals.
func Fraction(x float64) string {
	if x == math.Trunc(x) {
		return FormatNumber(x)
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	whole := math.Floor(x)
	frac := x - whole
	for d := 2; d <= 64; d++ {
		n := frac * float64(d)
		if math.Abs(n-math.Round(n)) < 1e-9 {
			text := strconv.Itoa(int(math.Round(n))) + "/" + strconv.Itoa(d)
			if whole > 0 {
				text = FormatNumber(whole) + " " + text
			}
			return sign + text
		}
	}
	return sign + FormatNumber(x)
}

// Join joins items with sep, using last between the last two:
// Join({"a","b","c"}, ", ", " and ") == "a, b and c".
func Join(items []string, sep, last string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], sep) + last + items[len(items)-1]
}

// Thousands writes n with thousands separators: 1800 -> "1,800".
func Thousands(n float64) string {
	text := FormatNumber(math.Abs(n))
	intPart, fracPart, hasFrac := strings.Cut(text, ".")
	var b strings.Builder
	if n < 0 {
		b.WriteByte('-')
	}
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(fracPart)
	}
	return b.String()
}
