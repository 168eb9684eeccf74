package redact

import "github.com/vttapp/companion/core"

// EntityForPlayers returns an entity as players may see it: without its
// notes, those of its stored combatant and of that combatant's effects.
// e is not changed; it is returned itself when it has none. A copy is
// marked Redacted, so that what a system renders from it is never cached
// as the game master's (or the other way round).
func EntityForPlayers(e *core.Entity) *core.Entity {
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
func EntitiesForPlayers(list []*core.Entity) []*core.Entity {
	for i, e := range list {
		if entityHasNotes(e) {
			out := make([]*core.Entity, len(list))
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
func entityHasNotes(e *core.Entity) bool {
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

// ClientForPlayers returns a connected client as players may see it
// (GET /api/clients, clientConnected, clientUpdated, clientDisconnected):
// without its network address, which is the game master's to see (the
// host console lists it).
func ClientForPlayers(c core.Client) core.Client {
	c.Address = ""
	return c
}

// ClientsForPlayers is ClientForPlayers over a list (a new list).
func ClientsForPlayers(list []core.Client) []core.Client {
	out := make([]core.Client, len(list))
	for i, c := range list {
		out[i] = ClientForPlayers(c)
	}
	return out
}

// PlayersEntity is the answer to a player's write of an entity: the
// stored entity as players may see it.
func PlayersEntity(e *core.Entity, err error) (*core.Entity, error) {
	if err != nil {
		return nil, err
	}
	return EntityForPlayers(e), nil
}
