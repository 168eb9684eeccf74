package library

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// ShowMap puts a map on the primary campaign's player screen and tells
// clients: screenUpdated with the screen, then mapLoaded with the map as
// players see it (PlayerMap: hidden tokens, markers and the like left out,
// as in GET /api). An empty mapID clears the screen (screenUpdated only). Any stored map may be shown,
// whether the campaign or a module owns it, once its grid is set (a map
// made from an image waits for it: GridPending, grid.go).
func (s *LibraryRoom) ShowMap(ctx context.Context, mapID string) (*core.Screen, error) {
	p := s.pin()
	var out *core.Screen
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		var shown *core.Map
		if mapID != "" {
			m, err := tx.Map(mapID)
			if core.IsNotFound(err) {
				return nil, core.NotFoundf("no map with id '%s'", mapID)
			}
			if err != nil {
				return nil, err
			}
			if m.GridPending {
				return nil, core.Conflictf("map '%s' waits for its grid: set its grid size and offset before it goes on the player screen", core.Clip(m.Name))
			}
			shown = m
		}
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return nil, err
		}
		screen.MapID = mapID
		if err := tx.PutScreen(c.ID, screen); err != nil {
			return nil, err
		}
		p.LiveScreen(screen)
		out = screen
		events := []core.Event{{Name: core.EventScreenUpdated, Data: screen}}
		if shown != nil {
			players, err := p.PlayerMapIn(tx, shown)
			if err != nil {
				return nil, err
			}
			host, err := p.HostMapIn(tx, shown)
			if err != nil {
				return nil, err
			}
			events = append(events, core.Event{Name: core.EventMapLoaded, Data: redact.Views{Players: players, Host: host}})
		}
		// The tokens players see changed: so do the token links of the
		// combatants they see (shownLinks).
		game, err := p.LinkedGameEvents(tx, func(c *core.Combatant) bool { return c.TokenID != nil })
		if err != nil {
			return nil, err
		}
		return append(events, game...), nil
	})
	return out, err
}
