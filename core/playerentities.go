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

// EntityForPlayers returns an entity as players may see it: without its
// notes, those of its stored combatant and of that combatant's effects.
// e is not changed; it is returned itself when it has none. A copy is
// marked Redacted, so that what a system renders from it is never cached
// as the game master's (or the other way round).
func EntityForPlayers(e *Entity) *Entity {
	if e == nil || !entityHasNotes(e) {
		return e
	}
	cp := *e
	cp.Notes = ""
	if c := e.Combatant; c != nil {
		cc := *c
		cc.Notes = ""
		cc.Effects = playerEffects(c.Effects, false)
		cp.Combatant = &cc
	}
	cp.Redacted = true
	return &cp
}

// EntitiesForPlayers is EntityForPlayers over a list: the list itself when
// no entity in it has notes, else a copy.
func EntitiesForPlayers(list []*Entity) []*Entity {
	for i, e := range list {
		if entityHasNotes(e) {
			out := make([]*Entity, len(list))
			copy(out, list[:i])
			for j := i; j < len(list); j++ {
				out[j] = EntityForPlayers(list[j])
			}
			return out
		}
	}
	return list
}

// entityHasNotes reports whether e carries notes players may not read.
func entityHasNotes(e *Entity) bool {
	if e == nil {
		return false
	}
	if e.Notes != "" {
		return true
	}
	if c := e.Combatant; c != nil {
		return c.Notes != "" || effectsHaveSecrets(c.Effects, false)
	}
	return false
}

// keepFromPlayers puts back on a player's version of an entity what
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

// ClientForPlayers returns a connected client as players may see it
// (GET /api/clients, clientConnected, clientUpdated, clientDisconnected):
// without its network address, which is the game master's to see (the
// host console lists it).
func ClientForPlayers(c Client) Client {
	c.Address = ""
	return c
}

// ClientsForPlayers is ClientForPlayers over a list (a new list).
func ClientsForPlayers(list []Client) []Client {
	out := make([]Client, len(list))
	for i, c := range list {
		out[i] = ClientForPlayers(c)
	}
	return out
}
