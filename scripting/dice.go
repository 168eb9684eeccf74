package scripting

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Dice is a parsed dice formula: a sum of terms NdM or K, each with a sign,
// e.g. "2d6+1", "1d20 - 1", "3d8+1d6+4", "d20". It serves averages, as
// stat blocks print them; rolls go through core/dice, which knows the whole
// notation.
type Dice struct {
	Terms []DiceTerm
}

// DiceTerm is one term of a formula: Count dice of Sides faces, or a
// constant when Sides is 0. Sign is +1 or -1.
type DiceTerm struct {
	Sign  int
	Count int
	Sides int
}

// Limits keep a formula cheap to roll.
const (
	maxDiceCount = 1000
	maxDiceSides = 10000
	maxDiceTerms = 50
)

// ParseDice parses a formula; an error explains what is wrong.
func ParseDice(formula string) (Dice, error) {
	text := strings.ToLower(strings.ReplaceAll(formula, " ", ""))
	if text == "" {
		return Dice{}, fmt.Errorf("empty dice formula")
	}
	var d Dice
	for len(text) > 0 {
		sign := 1
		switch text[0] {
		case '+':
			text = text[1:]
		case '-':
			sign = -1
			text = text[1:]
		default:
			if len(d.Terms) > 0 {
				return Dice{}, fmt.Errorf("dice formula %q: expected + or - before %q", formula, text)
			}
		}
		end := strings.IndexAny(text, "+-")
		if end < 0 {
			end = len(text)
		}
		term, err := parseTerm(text[:end])
		if err != nil {
			return Dice{}, fmt.Errorf("dice formula %q: %v", formula, err)
		}
		term.Sign = sign
		d.Terms = append(d.Terms, term)
		if len(d.Terms) > maxDiceTerms {
			return Dice{}, fmt.Errorf("dice formula %q has more than %d terms", formula, maxDiceTerms)
		}
		text = text[end:]
	}
	return d, nil
}

func parseTerm(s string) (DiceTerm, error) {
	if s == "" {
		return DiceTerm{}, fmt.Errorf("missing term")
	}
	countText, sidesText, isDice := strings.Cut(s, "d")
	if !isDice {
		k, err := strconv.Atoi(s)
		if err != nil || k < 0 {
			return DiceTerm{}, fmt.Errorf("%q is not a number or NdM", s)
		}
		return DiceTerm{Count: k}, nil
	}
	count := 1
	if countText != "" {
		n, err := strconv.Atoi(countText)
		if err != nil || n < 1 || n > maxDiceCount {
			return DiceTerm{}, fmt.Errorf("%q: the number of dice must be 1 to %d", s, maxDiceCount)
		}
		count = n
	}
	sides, err := strconv.Atoi(sidesText)
	if err != nil || sides < 1 || sides > maxDiceSides {
		return DiceTerm{}, fmt.Errorf("%q: a die has 1 to %d sides", s, maxDiceSides)
	}
	return DiceTerm{Count: count, Sides: sides}, nil
}

// Average is the floor of the formula's mean, as stat blocks print it:
// "2d6+1" -> 8, "1d4" -> 2.
func (d Dice) Average() int {
	mean := 0.0
	for _, t := range d.Terms {
		if t.Sides == 0 {
			mean += float64(t.Sign * t.Count)
			continue
		}
		mean += float64(t.Sign) * float64(t.Count) * float64(t.Sides+1) / 2
	}
	return int(math.Floor(mean))
}
