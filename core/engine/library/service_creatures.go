package library

import (
	"github.com/vttapp/companion/core"
)

// Creatures lists the visible combatants as rows of game.creatures, in
// turn order: those that take a turn first (rank 1...), then the others in
// their stored order. Health follows the system's ranges (see Health).
func (s *LibraryRoom) Creatures(combatants []*core.Combatant) []core.Creature {
	return s.pin().Creatures(combatants)
}

// Health returns what players may know of a combatant's hit points, as
// health (current) and hitpoints (maximum). The value is the first range
// the loaded system keeps in step for the combatant's kind (D&D 5e's hit_points);
// the maximum is data["max_<range>"] when present (see
// healthSources: the combatant's, else its entity's), else the current
// value. Only friendly combatants (the party and its allies) give
// numbers: a hostile or neutral creature's exact hit points are the game
// master's, players learn only bloodied and dead. Both are nil when there
// is nothing to tell.
func (s *LibraryRoom) Health(c *core.Combatant) (health, hitpoints *float64) {
	return s.pin().Health(c)
}
