package library

import (
	"context"

	"github.com/vttapp/companion/core"
)

// HostCampaign reads the primary campaign's view for the host console in
// one read transaction (a consistent picture).
func (s *LibraryRoom) HostCampaign(ctx context.Context) (*core.HostCampaign, error) {
	p := s.pin()
	out := &core.HostCampaign{}
	err := p.Store.View(ctx, func(tx core.Tx) error {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return err
		}
		out.Campaign = c
		if out.Screen, err = tx.Screen(c.ID); err != nil {
			return err
		}
		maps, err := tx.Maps(c.ID)
		if err != nil {
			return err
		}
		out.Maps = make([]core.CampaignMap, 0, len(maps))
		for _, m := range maps {
			out.Maps = append(out.Maps, campaignMap(m, out.Screen.MapID))
			if m.ID == out.Screen.MapID {
				row := out.Maps[len(out.Maps)-1]
				out.ScreenMap = &row
			}
		}
		if out.ScreenMap == nil && out.Screen.MapID != "" {
			// A module's map on the screen (the library shows them): the
			// console must say so, not "nothing is on the player screen".
			m, err := tx.Map(out.Screen.MapID)
			if err != nil && !core.IsNotFound(err) {
				return err
			}
			if m != nil {
				row := campaignMap(m, m.ID)
				if mod, err := tx.Module(m.Owner); err == nil {
					row.Library = mod.Name
				} else if !core.IsNotFound(err) {
					return err
				}
				out.ScreenMap = &row
			}
		}
		if out.Game, err = tx.Game(c.ID); err != nil {
			return err
		}
		if out.Game.Combatants, err = tx.Combatants(c.ID); err != nil {
			return err
		}
		out.TurnOrder = p.TurnOrder(out.Game.Combatants)
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.LiveScreen(out.Screen)
	return out, nil
}

// campaignMap is a map's row in the host console's lists.
func campaignMap(m *core.Map, screenMapID string) core.CampaignMap {
	return core.CampaignMap{ID: m.ID, Name: m.Name, Image: m.Image, Width: m.Width, Height: m.Height,
		GridSize: m.GridSize, Tokens: len(m.Tokens), OnScreen: m.ID == screenMapID, GridPending: m.GridPending}
}
