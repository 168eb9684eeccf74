package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

func (s *Kernel) ReadCombatant(ctx context.Context, id string, players bool) (*core.Combatant, error) {
	p := s.Pin()
	var c *core.Combatant
	err := p.Store.View(ctx, func(tx core.Tx) error {
		var err error
		c, err = p.combatantFor(tx, id, players)
		return err
	})
	return c, err
}

func (s *Kernel) PutCombatantChecked(ctx context.Context, pathID string, c *core.Combatant, players bool, guard EditGuard[core.Combatant]) (*core.Combatant, error) {
	if c.ID != pathID {
		return nil, core.Invalidf("body id '%s' does not match path id '%s'", core.Clip(c.ID), core.Clip(pathID))
	}
	return s.replaceCombatant(ctx, pathID, wholeDocument(c), players, guard)
}

func (s *Kernel) PatchCombatantChecked(ctx context.Context, id string, patch core.Object, players bool, guard EditGuard[core.Combatant]) (*core.Combatant, error) {
	if err := CheckPatchID(patch, id); err != nil {
		return nil, err
	}
	return s.replaceCombatant(ctx, id, MergePatch[core.Combatant](patch), players, guard)
}

// replaceCombatant stores a client's edit of a combatant, its server-owned
// fields kept.
func (s *Kernel) replaceCombatant(ctx context.Context, id string, e edit[core.Combatant], players bool, guard EditGuard[core.Combatant]) (*core.Combatant, error) {
	return replaceStored(s, ctx, e,
		func(p Pinned, tx core.Tx) (*core.Combatant, error) { return p.combatantFor(tx, id, players) },
		func(next, old *core.Combatant) { next.RestoreServerOwned(old, players) },
		Pinned.StoreCombatant, guard)
}

// StoreCombatant writes a combatant and, when it is shared (its entity is of
// a unique kind), copies its ranges back to the entity.
func (s Pinned) StoreCombatant(tx core.Tx, c *core.Combatant) ([]core.Event, error) {
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
	if c.EntityID == "" || s.Rules == nil {
		return events, nil
	}
	e, err := tx.Entity(c.EntityID)
	if core.IsNotFound(err) {
		return events, nil // links are soft: a missing entity is no error
	}
	if err != nil {
		return nil, err
	}
	if !s.Rules.IsUnique(e.Kind) {
		return events, nil
	}
	if e.Data == nil {
		e.Data = core.Object{}
	}
	copyRanges(e.Data, c.Data, s.sharedKeys(e.Kind))
	e.Modified = s.Now().UTC()
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
func (s Pinned) combatantEvent(tx core.Tx, c, prev *core.Combatant) (core.Event, error) {
	event := core.Event{Name: core.EventCombatantUpdated, Data: redact.HostOnly(c)}
	if s.Rules == nil {
		return event, nil
	}
	primary, err := s.PrimaryCampaign(tx)
	if core.IsNotFound(err) || err == nil && primary.ID != c.Campaign {
		return event, nil
	}
	if err != nil {
		return core.Event{}, err
	}
	switch {
	case !c.Hidden:
		players, err := s.PlayerCombatantIn(tx, c)
		if err != nil {
			return core.Event{}, err
		}
		event.Data = redact.Views{Players: players, Host: c}
	case prev != nil && !prev.Hidden:
		event.Data = redact.Views{Players: c, Host: c} // ForPlayers sends players {id, hidden}
	}
	return event, nil
}
