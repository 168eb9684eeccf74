package core

// NumbersShown reports whether players may know a combatant's numbers:
// its data (hit points and the like), attributes and modifiers (stat
// adjustments such as "data.ac +1"). Only a friendly combatant's, the
// party and its allies: a hostile or neutral creature's are the game
// master's, players learn only bloodied and dead. Health,
// CombatantForPlayers and the token's combatant (playerCombatant, which
// never has them) follow it.
func NumbersShown(c *Combatant) bool { return c.Role == RoleFriendly }
