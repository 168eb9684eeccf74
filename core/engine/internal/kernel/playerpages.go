package kernel

import (
	"github.com/vttapp/companion/core"
)

// Players read a page only once the game master has shown it to them: the
// whole page, or some of its sections (a heading and what follows it). A
// show belongs to a campaign (page_shows): the primary campaign's shows
// decide what the public listener serves. A page never shown, like an
// unknown one, does not exist for players; the host console reads every
// page whole.

// PrimaryShows reads the primary campaign's shows and the map on its
// player screen; none without a primary campaign (players then read no
// page at all).
func (s Pinned) PrimaryShows(tx core.Tx) ([]core.PageShow, string, error) {
	if s.Rules == nil {
		return nil, "", nil
	}
	c, err := s.PrimaryCampaign(tx)
	if core.IsNotFound(err) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	shows, err := tx.PageShows(c.ID)
	if err != nil {
		return nil, "", err
	}
	screen, err := tx.Screen(c.ID)
	if err != nil {
		return nil, "", err
	}
	return shows, screen.MapID, nil
}
