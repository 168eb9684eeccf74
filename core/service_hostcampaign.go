package core

import "context"

// HostCampaign reads the primary campaign's view for the host console in
// one read transaction (a consistent picture).
func (s *Service) HostCampaign(ctx context.Context) (*HostCampaign, error) {
	p := s.pin()
	out := &HostCampaign{}
	err := p.store.View(ctx, func(tx Tx) error {
		c, err := p.primaryCampaign(tx)
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
		out.Maps = make([]CampaignMap, 0, len(maps))
		for _, m := range maps {
			out.Maps = append(out.Maps, CampaignMap{ID: m.ID, Name: m.Name, Image: m.Image, Width: m.Width, Height: m.Height,
				GridSize: m.GridSize, Tokens: len(m.Tokens), OnScreen: m.ID == out.Screen.MapID, GridPending: m.GridPending})
		}
		if out.Game, err = tx.Game(c.ID); err != nil {
			return err
		}
		if out.Game.Combatants, err = tx.Combatants(c.ID); err != nil {
			return err
		}
		out.TurnOrder = p.turnOrder(out.Game.Combatants)
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.liveScreen(out.Screen)
	return out, nil
}
