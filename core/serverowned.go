package core

import "time"

// A client's PUT or PATCH replaces an object's document, but some of its
// fields are the server's: where the object lives and how often it was
// written (kept in the row's columns, not in the document), when it was
// made, and what players may not change. restoreServerOwned puts them
// back on the next version; each type's is the one place that says which
// fields they are.

// edit is a client's change to a stored object: its whole document (PUT)
// or an RFC 7386 merge patch (PATCH).
type edit[T any] struct {
	whole *T
	patch Object
}

func wholeDocument[T any](body *T) edit[T]   { return edit[T]{whole: body} }
func mergePatch[T any](patch Object) edit[T] { return edit[T]{patch: patch} }

// next is the version the edit makes of old, before the server-owned
// fields are restored.
func (e edit[T]) next(old *T) (*T, error) {
	if e.whole != nil {
		next := *e.whole
		return &next, nil
	}
	next := new(T)
	if err := patchDocument(old, e.patch, next); err != nil {
		return nil, err
	}
	return next, nil
}

// restoreServerOwned keeps an entity's id, kind, owner, revision and
// creation time; the modification time is the store's to set.
func (e *Entity) restoreServerOwned(old *Entity) {
	e.ID, e.Kind, e.Owner = old.ID, old.Kind, old.Owner
	e.Revision, e.Created, e.Modified = old.Revision, old.Created, time.Time{}
}

// restoreServerOwned keeps a token's id, map and revision; a player's
// write also keeps whether it is hidden (hiding is the game master's) and
// the combatant stored with it, which players receive stripped or
// replaced by the linked one (playerToken): writing back what they
// received must not overwrite it.
func (t *Token) restoreServerOwned(old *Token, players bool) {
	t.ID, t.MapID, t.Revision = old.ID, old.MapID, old.Revision
	if players {
		t.Hidden, t.Combatant = old.Hidden, old.Combatant
	}
}

// restoreServerOwned keeps a combatant's id, campaign, rank and revision;
// a player's write also keeps what players cannot see or decide
// (keepFromPlayers).
func (c *Combatant) restoreServerOwned(old *Combatant, players bool) {
	c.ID, c.Campaign, c.Rank, c.Revision = old.ID, old.Campaign, old.Rank, old.Revision
	if players {
		c.keepFromPlayers(old)
	}
}

// keepFromPlayers puts back on a player's version of a combatant what
// CombatantForPlayers leaves out, so that a player who reads a combatant,
// edits it and writes it back loses nothing they were not shown, and
// cannot set it either: its notes and its effects' notes, and unless
// NumbersShown its data, attributes and modifiers. It also keeps hidden
// and role, the game master's calls: a role turned friendly would show a
// foe's numbers to the next read.
func (c *Combatant) keepFromPlayers(old *Combatant) {
	c.Hidden, c.Role, c.Notes = old.Hidden, old.Role, old.Notes
	keepEffectNotes(c.Effects, old.Effects)
	if !NumbersShown(old) {
		c.Data, c.Attributes, c.Modifiers = old.Data, old.Attributes, old.Modifiers
	}
}

// keepEffectNotes gives each effect of a player's write the notes of the
// stored effect it is (the same id; an effect without an id is the stored
// one at its place when that has none either), and none to a new one.
func keepEffectNotes(next, old []StatusEffect) {
	byID := make(map[string]string, len(old))
	for _, e := range old {
		if e.ID != "" {
			if _, seen := byID[e.ID]; !seen {
				byID[e.ID] = e.Notes
			}
		}
	}
	for i := range next {
		switch {
		case next[i].ID != "":
			next[i].Notes = byID[next[i].ID]
		case i < len(old) && old[i].ID == "":
			next[i].Notes = old[i].Notes
		default:
			next[i].Notes = ""
		}
	}
}
