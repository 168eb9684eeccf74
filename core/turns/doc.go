// Package turns holds the order of turns and its steps as pure rules:
// the turn order by initiative or as the game master set it, the place an
// added combatant takes in it, a turn passed by its player, the steps of
// combat. The engine applies them; the game system chooses the style
// (TurnStyler).
package turns
