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
// write also keeps whether it is hidden (hiding is the game master's).
func (t *Token) restoreServerOwned(old *Token, players bool) {
	t.ID, t.MapID, t.Revision = old.ID, old.MapID, old.Revision
	if players {
		t.Hidden = old.Hidden
	}
}

// restoreServerOwned keeps a combatant's id, campaign, rank and revision;
// a player's write also keeps whether it is hidden and its notes, which
// players never see (CombatantForPlayers).
func (c *Combatant) restoreServerOwned(old *Combatant, players bool) {
	c.ID, c.Campaign, c.Rank, c.Revision = old.ID, old.Campaign, old.Rank, old.Revision
	if players {
		c.Hidden, c.Notes = old.Hidden, old.Notes
	}
}
