// Package dice parses and rolls dice notation (rpg-dice-roller's meaning,
// plus Foundry's x, xo, mi and ma), keeps every die in a result tree that
// anyone can recompute, and finds rolls in chat text (/roll, /r, [[...]]).
//
// It imports only the standard library so that every layer may use it.
// docs/dice.md describes the notation, the limits and the JSON shape.
package dice

// Limits keep one roll bounded in time and memory. Exceeding one is an
// *Error whose Limit names it; nothing is ever silently capped.
const (
	// MaxExpressionLength is the longest expression, in characters.
	MaxExpressionLength = 1000
	// MaxDicePerRoll is the most dice one term may ask for (the N of NdM).
	MaxDicePerRoll = 1000
	// MaxSides is the most sides a die may have.
	MaxSides = 1_000_000
	// MaxTotalDice is the most dice one expression may roll, counting
	// explosions, rerolls and every term.
	MaxTotalDice = 10_000
	// MaxDepth is the deepest nesting of parentheses, groups, function
	// calls and unary signs.
	MaxDepth = 32
	// MaxGroupSize is the most expressions a {...} group may hold.
	MaxGroupSize = 100
	// MaxRollsPerText is the most rolls RollText rolls in one message; the
	// rest of the message is kept as written, with one error result.
	MaxRollsPerText = 100
)

// Limit names, as found in Error.Limit.
const (
	LimitExpressionLength = "expression length"
	LimitDicePerRoll      = "dice per roll"
	LimitSides            = "sides"
	LimitTotalDice        = "total dice"
	LimitDepth            = "nesting depth"
	LimitGroupSize        = "group size"
	LimitRollsPerText     = "rolls per message"
)
