package core

import "time"

// A client's PUT or PATCH replaces an object's document, but some of its
// fields are the server's: where the object lives and how often it was
// written (kept in the row's columns, not in the document), when it was
// made, and what players may not change. restoreServerOwned puts them
// back on the next version; each type's is the one place that says which
// fields they are.

// RestoreServerOwned keeps an entity's id, kind, owner, revision and
// creation time; the modification time is the store's to set.
func (e *Entity) RestoreServerOwned(old *Entity) {
	e.ID, e.Kind, e.Owner = old.ID, old.Kind, old.Owner
	e.Revision, e.Created, e.Modified = old.Revision, old.Created, time.Time{}
}

// RestoreServerOwned keeps a token's id, map and revision; a player's
// write also keeps what players may not decide (keepFromPlayers).
func (t *Token) RestoreServerOwned(old *Token, players bool) {
	t.ID, t.MapID, t.Revision = old.ID, old.MapID, old.Revision
	if players {
		t.keepFromPlayers(old)
	}
}

// keepFromPlayers puts back on a player's version of a token what is the
// game master's: whether it is hidden; the combatant stored with it, which
// players receive stripped or replaced by the linked one (playerToken), so
// writing back what they received must not overwrite it; what the token
// is: its role and whether it is a player character's (a foe turned
// friendly could be dragged in mode token and would lend players its
// sight, see PartySight); and its links to an entity (entityId,
// reference).
func (t *Token) keepFromPlayers(old *Token) {
	t.Hidden, t.Combatant = old.Hidden, old.Combatant
	t.Role, t.Player = old.Role, old.Player
	t.EntityID, t.Reference = old.EntityID, old.Reference
}

// RestoreServerOwned keeps a combatant's id, campaign, rank and revision;
// a player's write also keeps what players cannot see or decide
// (keepFromPlayers).
func (c *Combatant) RestoreServerOwned(old *Combatant, players bool) {
	c.ID, c.Campaign, c.Rank, c.Revision = old.ID, old.Campaign, old.Rank, old.Revision
	if players {
		c.keepFromPlayers(old)
	}
}

// keepFromPlayers puts back on a player's version of a combatant what
// CombatantForPlayers leaves out, so that a player who reads a combatant,
// edits it and writes it back loses nothing they were not shown, and
// cannot set it either: its notes and its effects' notes, and unless
// NumbersShown its data, attributes and modifiers and its effects'. It
// also keeps the game master's calls: hidden and role (a role turned
// friendly would show a foe's numbers to the next read), and the
// combatant's links (entityId and its entityType, reference, tokenId):
// a foe pointed at a character would share its hit points with the
// character's public data both ways, and a tokenId could name a hidden
// token.
func (c *Combatant) keepFromPlayers(old *Combatant) {
	c.Hidden, c.Role, c.Notes = old.Hidden, old.Role, old.Notes
	c.EntityID, c.EntityType, c.Reference, c.TokenID = old.EntityID, old.EntityType, old.Reference, old.TokenID
	numbers := NumbersShown(old)
	keepEffects(c.Effects, old.Effects, numbers)
	if !numbers {
		c.Data, c.Attributes, c.Modifiers = old.Data, old.Attributes, old.Modifiers
	}
}

// keepEffects gives each effect of a player's write the notes of the
// stored effect it is (the same id; an effect without an id is the stored
// one at its place when that has none either), and none to a new one; and
// unless numbers (the combatant's numbers are shown) that effect's data,
// attributes and modifiers too, which players were not shown (a new
// effect gets none).
func keepEffects(next, old []StatusEffect, numbers bool) {
	byID := make(map[string]*StatusEffect, len(old))
	for i := range old {
		if id := old[i].ID; id != "" {
			if _, seen := byID[id]; !seen {
				byID[id] = &old[i]
			}
		}
	}
	for i := range next {
		var was *StatusEffect
		switch {
		case next[i].ID != "":
			was = byID[next[i].ID]
		case i < len(old) && old[i].ID == "":
			was = &old[i]
		}
		next[i].Notes = ""
		if was != nil {
			next[i].Notes = was.Notes
		}
		if numbers {
			continue
		}
		next[i].Data, next[i].Attributes, next[i].Modifiers = nil, Object{}, []Modifier{}
		if was != nil {
			next[i].Data, next[i].Attributes, next[i].Modifiers = was.Data, was.Attributes, was.Modifiers
		}
	}
}
