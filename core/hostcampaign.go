package core

// HostCampaign is the host console's view of the primary campaign: its
// maps, the player screen, and the game with every combatant (hidden ones
// included: the host sees them) and the turn order.
type HostCampaign struct {
	Campaign *Campaign     `json:"campaign"`
	Maps     []CampaignMap `json:"maps"`
	Screen   *Screen       `json:"screen"`
	// ScreenMap is the map on the player screen, whoever owns it: one of
	// Maps, or a module's map (its row names the module in Library); nil
	// when the screen is clear.
	ScreenMap *CampaignMap `json:"screenMap,omitempty"`
	Game      *Game        `json:"game"`
	TurnOrder []TurnSlot   `json:"turnOrder"`
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
	// GridPending is true for a map made from an image whose grid is not
	// set yet: it cannot go on the player screen until it is.
	GridPending bool `json:"gridPending,omitempty"`
	// Library names the module a map comes from (ScreenMap only; empty
	// for the campaign's own maps).
	Library string `json:"library,omitempty"`
}
