package engine

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
)

// MoveMapObject acts on a move of the game master (who nil) or a player:
// the play room moves the mark, under a guard from the player's rights.
func (s *Service) MoveMapObject(ctx context.Context, from core.EventSource, mv core.MarkMove, who *core.Actor) (any, error) {
	var guardFor func(kernel.Pinned, *mapobjects.MapKind) (func(core.Tx) error, error)
	if who != nil {
		p := s.PlayerAs(*who)
		guardFor = func(ps kernel.Pinned, k *mapobjects.MapKind) (func(core.Tx) error, error) {
			owner, err := p.markRights(k)
			if err != nil {
				return nil, err
			}
			return p.ownGuard(ps, k, mv.MapID, mv.ID, owner), nil
		}
	}
	return s.PlayRoom.MoveMark(ctx, from, mv, guardFor)
}
