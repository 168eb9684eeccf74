package core

// What players receive of an entity and of a connected client.
//
// An entity's notes are the game master's (the original's shape: "GM
// notes"), and so are the notes of the combatant stored with it and of
// that combatant's effects: players never receive them, on any path (the
// collection reads, an entity page, entityUpdated, the answer to their
// own write, their character sheet), and a player's write keeps them as
// stored (keepFromPlayers). The rest of an entity is the compendium's
// and players read it.

// KeepFromPlayers puts back on a player's version of an entity what
// players never receive: its notes, and those of its stored combatant and
// its effects (keepEffects), so a read, edit and write loses none of them
// and no write of a player's sets them.
func (e *Entity) KeepFromPlayers(old *Entity) {
	e.Notes = old.Notes
	if e.Combatant == nil {
		return
	}
	c := *e.Combatant
	c.Notes = ""
	var oldEffects []StatusEffect
	if was := old.Combatant; was != nil {
		c.Notes, oldEffects = was.Notes, was.Effects
	}
	c.Effects = append([]StatusEffect(nil), c.Effects...)
	keepEffects(c.Effects, oldEffects, true)
	e.Combatant = &c
}
