package core

import "context"

// HostCampaign is the host console's view of the primary campaign: its
// maps, the player screen, and the game with every combatant (hidden ones
// included: the host sees them) and the turn order.
type HostCampaign struct {
	Campaign  *Campaign     `json:"campaign"`
	Maps      []CampaignMap `json:"maps"`
	Screen    *Screen       `json:"screen"`
	Game      *Game         `json:"game"`
	TurnOrder []TurnSlot    `json:"turnOrder"`
}

// CampaignMap is a row of HostCampaign.Maps: enough to choose a map.
type CampaignMap struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Image    string `json:"image,omitempty"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	GridSize int    `json:"gridSize"`
	Tokens   int    `json:"tokens"`
	// OnScreen is true for the map on the player screen.
	OnScreen bool `json:"onScreen"`
}

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
				GridSize: m.GridSize, Tokens: len(m.Tokens), OnScreen: m.ID == out.Screen.MapID})
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
