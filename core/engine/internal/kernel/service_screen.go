package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
)

// LiveScreen fills the parts of a screen that live in memory: the remote
// interaction (as the mode and as the contract's boolean) and the defaults
// the real web client reads (sharedVision always when unset).
func (s *Kernel) LiveScreen(screen *core.Screen) { screen.ApplySettings(s.LiveState.Settings()) }

func (s *Kernel) ScreenMapID(ctx context.Context) (string, error) {
	p := s.Pin()
	var id string
	err := p.Store.View(ctx, func(tx core.Tx) error {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return err
		}
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return err
		}
		id = screen.MapID
		return nil
	})
	if err == nil && id == "" {
		return "", core.Conflictf("no map is on the player screen: show one first")
	}
	return id, err
}
