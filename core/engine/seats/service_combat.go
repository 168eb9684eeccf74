package seats

import (
	"context"
)

// applyInitiative sets rolled initiative values (by combatant id) and
// settles ties by tiebreak then a roll-off, in one transaction.
func (s seatsPinned) applyInitiative(ctx context.Context, campaignID string, totals map[string]any, tiebreak map[string]float64) error {
	_, err := s.ApplyInitiativeOut(ctx, campaignID, totals, tiebreak)
	return err
}
