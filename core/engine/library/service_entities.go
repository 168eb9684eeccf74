package library

import (
	"context"

	"github.com/vttapp/companion/core"
)

// Entities lists every entity of a kind, ordered by name.
func (s *LibraryRoom) Entities(ctx context.Context, kind string) ([]*core.Entity, error) {
	var list []*core.Entity
	err := s.Store.View(ctx, func(tx core.Tx) error {
		var err error
		list, err = tx.Entities(core.EntityQuery{Kind: kind})
		return err
	})
	return list, err
}

// PutEntity replaces the entity at pathID (of kind) with e, as PUT does: the
// body must be complete and its id must equal the path id. The owner and
// creation time are kept. A unique entity's linked combatants are updated to
// match in the same transaction.
func (s *LibraryRoom) PutEntity(ctx context.Context, kind, pathID string, e *core.Entity) (*core.Entity, error) {
	return s.PutEntityChecked(ctx, kind, pathID, e, nil, false)
}
