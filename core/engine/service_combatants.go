package engine

import (
	"context"

	"github.com/vttapp/companion/core/redact"

	"github.com/vttapp/companion/core"
)

// Combatant returns the combatant with id.
func (s *tableRoom) Combatant(ctx context.Context, id string) (*core.Combatant, error) {
	return s.readCombatant(ctx, id, false)
}

func (s *Kernel) readCombatant(ctx context.Context, id string, players bool) (*core.Combatant, error) {
	p := s.pin()
	var c *core.Combatant
	err := p.store.View(ctx, func(tx core.Tx) error {
		var err error
		c, err = p.combatantFor(tx, id, players)
		return err
	})
	return c, err
}

// PutCombatant replaces a combatant (its id must equal the path id). A
// shared combatant pushes its ranges back to its unique entity.
func (s *tableRoom) PutCombatant(ctx context.Context, pathID string, c *core.Combatant) (*core.Combatant, error) {
	return s.putCombatantChecked(ctx, pathID, c, false, nil)
}

func (s *Kernel) putCombatantChecked(ctx context.Context, pathID string, c *core.Combatant, players bool, guard editGuard[core.Combatant]) (*core.Combatant, error) {
	if c.ID != pathID {
		return nil, core.Invalidf("body id '%s' does not match path id '%s'", core.Clip(c.ID), core.Clip(pathID))
	}
	return s.replaceCombatant(ctx, pathID, wholeDocument(c), players, guard)
}

// PatchCombatant merges patch into a combatant, as PATCH and
// updateCombatant do.
func (s *tableRoom) PatchCombatant(ctx context.Context, id string, patch core.Object) (*core.Combatant, error) {
	return s.patchCombatantChecked(ctx, id, patch, false, nil)
}

func (s *Kernel) patchCombatantChecked(ctx context.Context, id string, patch core.Object, players bool, guard editGuard[core.Combatant]) (*core.Combatant, error) {
	if err := checkPatchID(patch, id); err != nil {
		return nil, err
	}
	return s.replaceCombatant(ctx, id, mergePatch[core.Combatant](patch), players, guard)
}

// replaceCombatant stores a client's edit of a combatant, its server-owned
// fields kept.
func (s *Kernel) replaceCombatant(ctx context.Context, id string, e edit[core.Combatant], players bool, guard editGuard[core.Combatant]) (*core.Combatant, error) {
	return replaceStored(s, ctx, e,
		func(p pinned, tx core.Tx) (*core.Combatant, error) { return p.combatantFor(tx, id, players) },
		func(next, old *core.Combatant) { next.RestoreServerOwned(old, players) },
		pinned.storeCombatant, guard)
}

// storeCombatant writes a combatant and, when it is shared (its entity is of
// a unique kind), copies its ranges back to the entity.
func (s pinned) storeCombatant(tx core.Tx, c *core.Combatant) ([]core.Event, error) {
	c.Normalize()
	if c.Role != "" && c.Role != core.RoleHostile && c.Role != core.RoleFriendly && c.Role != core.RoleNeutral {
		return nil, core.Invalidf("combatant: role must be hostile, friendly or neutral, not '%s'", core.Clip(c.Role))
	}
	if err := core.CheckEncodedSize("combatant", c, core.MaxCombatantBytes); err != nil {
		return nil, err
	}
	prev, err := tx.Combatant(c.ID)
	if core.IsNotFound(err) {
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
	events := []core.Event{updated}
	if c.EntityID == "" || s.rules == nil {
		return events, nil
	}
	e, err := tx.Entity(c.EntityID)
	if core.IsNotFound(err) {
		return events, nil // links are soft: a missing entity is no error
	}
	if err != nil {
		return nil, err
	}
	if !s.rules.IsUnique(e.Kind) {
		return events, nil
	}
	if e.Data == nil {
		e.Data = core.Object{}
	}
	copyRanges(e.Data, c.Data, s.sharedKeys(e.Kind))
	e.Modified = s.now().UTC()
	if err := tx.PutEntity(e); err != nil {
		return nil, err
	}
	return append(events, core.Event{Name: core.EventEntityUpdated, Data: e}), nil
}

// combatantEvent is combatantUpdated for c as just stored in tx, prev its
// version before (nil when new). The game master gets c whole. Players
// get it only when it is in the primary campaign's game: a visible one as
// they see it (playerCombatantIn), a hidden one that they saw before as
// ForPlayers' {id, hidden} stub, so that they drop it; of one hidden all
// along they learn nothing, not even its id.
func (s pinned) combatantEvent(tx core.Tx, c, prev *core.Combatant) (core.Event, error) {
	event := core.Event{Name: core.EventCombatantUpdated, Data: redact.HostOnly(c)}
	if s.rules == nil {
		return event, nil
	}
	primary, err := s.primaryCampaign(tx)
	if core.IsNotFound(err) || err == nil && primary.ID != c.Campaign {
		return event, nil
	}
	if err != nil {
		return core.Event{}, err
	}
	switch {
	case !c.Hidden:
		players, err := s.playerCombatantIn(tx, c)
		if err != nil {
			return core.Event{}, err
		}
		event.Data = redact.Views{Players: players, Host: c}
	case prev != nil && !prev.Hidden:
		event.Data = redact.Views{Players: c, Host: c} // ForPlayers sends players {id, hidden}
	}
	return event, nil
}
