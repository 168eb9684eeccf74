package kernel

import (
	"context"
	"fmt"
	"strings"

	"github.com/vttapp/companion/core"
)

// Entity returns the entity with id. When kind is not empty the entity must
// be of that kind: a monster id asked for as a spell is not found.
func (s *Kernel) Entity(ctx context.Context, kind, id string) (*core.Entity, error) {
	var e *core.Entity
	err := s.Store.View(ctx, func(tx core.Tx) error {
		var err error
		e, err = entityOfKind(tx, kind, id)
		return err
	})
	return e, err
}

// EntityByReference resolves "<slug-or-id>" among the entities of kind.
func (s *Kernel) EntityByReference(ctx context.Context, kind, slugOrID string) (*core.Entity, error) {
	var e *core.Entity
	err := s.Store.View(ctx, func(tx core.Tx) error {
		var err error
		e, err = tx.EntityBySlug(kind, slugOrID)
		if core.IsNotFound(err) {
			e, err = entityOfKind(tx, kind, slugOrID)
		}
		return err
	})
	if core.IsNotFound(err) {
		return nil, core.NotFoundf("no %s '%s'", kind, core.Clip(slugOrID))
	}
	return e, err
}

func (s *Kernel) PutEntityChecked(ctx context.Context, kind, pathID string, e *core.Entity, guard EditGuard[core.Entity], players bool) (*core.Entity, error) {
	if e.ID != pathID {
		return nil, core.Invalidf("body id '%s' does not match path id '%s'", core.Clip(e.ID), core.Clip(pathID))
	}
	if e.Kind != "" && e.Kind != kind {
		return nil, core.Invalidf("body kind '%s' does not match the collection's kind '%s'", core.Clip(e.Kind), kind)
	}
	return s.replaceEntity(ctx, kind, pathID, wholeDocument(e), guard, players)
}

// PatchEntity merges patch into the entity (RFC 7386: unmentioned keys are
// unchanged, null removes a key), as PATCH and updateEntity do.
func (s *Kernel) PatchEntity(ctx context.Context, kind, id string, patch core.Object) (*core.Entity, error) {
	return s.PatchEntityChecked(ctx, kind, id, patch, nil, false)
}

func (s *Kernel) PatchEntityChecked(ctx context.Context, kind, id string, patch core.Object, guard EditGuard[core.Entity], players bool) (*core.Entity, error) {
	if err := CheckPatchID(patch, id); err != nil {
		return nil, err
	}
	if k, ok := patch["kind"]; ok && kind != "" && k != kind {
		return nil, core.Invalidf("body kind '%s' does not match the collection's kind '%s'", core.Clip(fmt.Sprint(k)), kind)
	}
	return s.replaceEntity(ctx, kind, id, MergePatch[core.Entity](patch), guard, players)
}

// replaceEntity stores a client's edit of an entity of kind (any kind when
// kind is empty), its server-owned fields kept (and, for a player's edit,
// what players never receive: keepFromPlayers).
func (s *Kernel) replaceEntity(ctx context.Context, kind, id string, e edit[core.Entity], guard EditGuard[core.Entity], players bool) (*core.Entity, error) {
	return replaceStored(s, ctx, e,
		func(_ Pinned, tx core.Tx) (*core.Entity, error) { return entityOfKind(tx, kind, id) },
		func(next, old *core.Entity) {
			next.RestoreServerOwned(old)
			if players {
				next.KeepFromPlayers(old)
			}
			if e.whole != nil && next.System == "" {
				next.System = old.System // a whole document without a system keeps the one it had
			}
		},
		Pinned.StoreEntity, guard)
}

// StoreEntity validates and writes an entity, then keeps a unique entity's
// linked combatants in step. It returns the events to publish.
func (s Pinned) StoreEntity(tx core.Tx, e *core.Entity) ([]core.Event, error) {
	if strings.TrimSpace(e.Name) == "" {
		return nil, core.Invalidf("entity: 'name' is required")
	}
	now := s.Now().UTC()
	if err := e.Normalize(now); err != nil {
		return nil, err
	}
	e.Modified = now
	if s.Rules != nil && s.Rules.IsUnique(e.Kind) && e.Combatant != nil {
		copyRanges(e.Combatant.Data, e.Data, s.sharedKeys(e.Kind))
	}
	if err := checkEntitySize(e); err != nil {
		return nil, err
	}
	if err := tx.PutEntity(e); err != nil {
		return nil, err
	}
	events := []core.Event{{Name: core.EventEntityUpdated, Data: e}}
	if s.Rules == nil || !s.Rules.IsUnique(e.Kind) {
		return events, nil
	}
	linked, err := tx.CombatantsOfEntity(e.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range linked {
		if c.Data == nil {
			c.Data = core.Object{}
		}
		copyRanges(c.Data, e.Data, s.sharedKeys(e.Kind))
		c.Name = e.Name
		if err := tx.PutCombatant(c); err != nil {
			return nil, err
		}
		updated, err := s.combatantEvent(tx, c, c) // the entity changes numbers, not whether it is hidden
		if err != nil {
			return nil, err
		}
		events = append(events, updated)
	}
	return events, nil
}
