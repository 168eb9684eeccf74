package core

import "context"

// Combatant returns the combatant with id.
func (s *Service) Combatant(ctx context.Context, id string) (*Combatant, error) {
	return s.combatant(ctx, id, false)
}

func (s *Service) combatant(ctx context.Context, id string, players bool) (*Combatant, error) {
	var c *Combatant
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		c, err = combatantFor(tx, id, players)
		return err
	})
	return c, err
}

// PutCombatant replaces a combatant (its id must equal the path id). A
// shared combatant pushes its ranges back to its unique entity.
func (s *Service) PutCombatant(ctx context.Context, pathID string, c *Combatant) (*Combatant, error) {
	return s.putCombatant(ctx, pathID, c, false)
}

func (s *Service) putCombatant(ctx context.Context, pathID string, c *Combatant, players bool) (*Combatant, error) {
	if c.ID != pathID {
		return nil, Invalidf("body id '%s' does not match path id '%s'", Clip(c.ID), Clip(pathID))
	}
	return s.replaceCombatant(ctx, pathID, wholeDocument(c), players)
}

// PatchCombatant merges patch into a combatant, as PATCH and
// updateCombatant do.
func (s *Service) PatchCombatant(ctx context.Context, id string, patch Object) (*Combatant, error) {
	return s.patchCombatant(ctx, id, patch, false)
}

func (s *Service) patchCombatant(ctx context.Context, id string, patch Object, players bool) (*Combatant, error) {
	if err := checkPatchID(patch, id); err != nil {
		return nil, err
	}
	return s.replaceCombatant(ctx, id, mergePatch[Combatant](patch), players)
}

// replaceCombatant stores a client's edit of a combatant, its server-owned
// fields kept.
func (s *Service) replaceCombatant(ctx context.Context, id string, e edit[Combatant], players bool) (*Combatant, error) {
	return replaceStored(s, ctx, e,
		func(tx Tx) (*Combatant, error) { return combatantFor(tx, id, players) },
		func(next, old *Combatant) { next.restoreServerOwned(old, players) },
		pinned.storeCombatant)
}

// storeCombatant writes a combatant and, when it is shared (its entity is of
// a unique kind), copies its ranges back to the entity.
func (s pinned) storeCombatant(tx Tx, c *Combatant) ([]Event, error) {
	c.Normalize()
	if c.Role != "" && c.Role != RoleHostile && c.Role != RoleFriendly && c.Role != RoleNeutral {
		return nil, Invalidf("combatant: role must be hostile, friendly or neutral, not '%s'", Clip(c.Role))
	}
	if err := checkEncodedSize("combatant", c, MaxCombatantBytes); err != nil {
		return nil, err
	}
	if err := tx.PutCombatant(c); err != nil {
		return nil, err
	}
	events := []Event{{Name: EventCombatantUpdated, Data: c}}
	if c.EntityID == "" || s.rules == nil {
		return events, nil
	}
	e, err := tx.Entity(c.EntityID)
	if IsNotFound(err) {
		return events, nil // links are soft: a missing entity is no error
	}
	if err != nil {
		return nil, err
	}
	if !s.rules.IsUnique(e.Kind) {
		return events, nil
	}
	if e.Data == nil {
		e.Data = Object{}
	}
	copyRanges(e.Data, c.Data, s.rules.Ranges(e.Kind))
	e.Modified = s.now().UTC()
	if err := tx.PutEntity(e); err != nil {
		return nil, err
	}
	return append(events, Event{Name: EventEntityUpdated, Data: e}), nil
}
