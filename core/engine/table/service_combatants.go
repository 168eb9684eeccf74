package table

import (
	"context"

	"github.com/vttapp/companion/core"
)

// Combatant returns the combatant with id.
func (s *TableRoom) Combatant(ctx context.Context, id string) (*core.Combatant, error) {
	return s.ReadCombatant(ctx, id, false)
}

// PutCombatant replaces a combatant (its id must equal the path id). A
// shared combatant pushes its ranges back to its unique entity.
func (s *TableRoom) PutCombatant(ctx context.Context, pathID string, c *core.Combatant) (*core.Combatant, error) {
	return s.PutCombatantChecked(ctx, pathID, c, false, nil)
}

// PatchCombatant merges patch into a combatant, as PATCH and
// updateCombatant do.
func (s *TableRoom) PatchCombatant(ctx context.Context, id string, patch core.Object) (*core.Combatant, error) {
	return s.PatchCombatantChecked(ctx, id, patch, false, nil)
}
