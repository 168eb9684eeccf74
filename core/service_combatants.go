package core

import "context"

// Combatant returns the combatant with id.
func (s *Service) Combatant(ctx context.Context, id string) (*Combatant, error) {
	return s.combatant(ctx, id, false)
}

func (s *Service) combatant(ctx context.Context, id string, players bool) (*Combatant, error) {
	p := s.pin()
	var c *Combatant
	err := p.store.View(ctx, func(tx Tx) error {
		var err error
		c, err = p.combatantFor(tx, id, players)
		return err
	})
	return c, err
}

// PutCombatant replaces a combatant (its id must equal the path id). A
// shared combatant pushes its ranges back to its unique entity.
func (s *Service) PutCombatant(ctx context.Context, pathID string, c *Combatant) (*Combatant, error) {
	return s.putCombatant(ctx, pathID, c, false, nil)
}

func (s *Service) putCombatant(ctx context.Context, pathID string, c *Combatant, players bool, guard editGuard[Combatant]) (*Combatant, error) {
	if c.ID != pathID {
		return nil, Invalidf("body id '%s' does not match path id '%s'", Clip(c.ID), Clip(pathID))
	}
	return s.replaceCombatant(ctx, pathID, wholeDocument(c), players, guard)
}

// PatchCombatant merges patch into a combatant, as PATCH and
// updateCombatant do.
func (s *Service) PatchCombatant(ctx context.Context, id string, patch Object) (*Combatant, error) {
	return s.patchCombatant(ctx, id, patch, false, nil)
}

func (s *Service) patchCombatant(ctx context.Context, id string, patch Object, players bool, guard editGuard[Combatant]) (*Combatant, error) {
	if err := checkPatchID(patch, id); err != nil {
		return nil, err
	}
	return s.replaceCombatant(ctx, id, mergePatch[Combatant](patch), players, guard)
}

// replaceCombatant stores a client's edit of a combatant, its server-owned
// fields kept.
func (s *Service) replaceCombatant(ctx context.Context, id string, e edit[Combatant], players bool, guard editGuard[Combatant]) (*Combatant, error) {
	return replaceStored(s, ctx, e,
		func(p pinned, tx Tx) (*Combatant, error) { return p.combatantFor(tx, id, players) },
		func(next, old *Combatant) { next.restoreServerOwned(old, players) },
		pinned.storeCombatant, guard)
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
	prev, err := tx.Combatant(c.ID)
	if IsNotFound(err) {
		prev, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := tx.PutCombatant(c); err != nil {
		return nil, err
	}
	updated, err := s.combatantEvent(tx, c, prev)
	if err != nil {
		return nil, err
	}
	events := []Event{updated}
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
	copyRanges(e.Data, c.Data, s.sharedKeys(e.Kind))
	e.Modified = s.now().UTC()
	if err := tx.PutEntity(e); err != nil {
		return nil, err
	}
	return append(events, Event{Name: EventEntityUpdated, Data: e}), nil
}

// combatantEvent is combatantUpdated for c as just stored in tx, prev its
// version before (nil when new). The game master gets c whole. Players
// get it only when it is in the primary campaign's game: a visible one as
// they see it (playerCombatantIn), a hidden one that they saw before as
// ForPlayers' {id, hidden} stub, so that they drop it; of one hidden all
// along they learn nothing, not even its id.
func (s pinned) combatantEvent(tx Tx, c, prev *Combatant) (Event, error) {
	event := Event{Name: EventCombatantUpdated, Data: HostOnly(c)}
	if s.rules == nil {
		return event, nil
	}
	primary, err := s.primaryCampaign(tx)
	if IsNotFound(err) || err == nil && primary.ID != c.Campaign {
		return event, nil
	}
	if err != nil {
		return Event{}, err
	}
	switch {
	case !c.Hidden:
		players, err := s.playerCombatantIn(tx, c)
		if err != nil {
			return Event{}, err
		}
		event.Data = Views{Players: players, Host: c}
	case prev != nil && !prev.Hidden:
		event.Data = Views{Players: c, Host: c} // ForPlayers sends players {id, hidden}
	}
	return event, nil
}
