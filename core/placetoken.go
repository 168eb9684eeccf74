package core

import "context"

// TokenTemplate is what the loaded system says a token placed from an
// entity looks like (the system's Lua token hook): its footprint in grid
// cells, its art, its vision and its role. Zero fields take the defaults
// (one cell, the entity's token or image, no vision, the entity's role).
type TokenTemplate struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Image  string  `json:"image,omitempty"`
	Role   string  `json:"role,omitempty"`
	Label  string  `json:"label,omitempty"`
	Vision *Vision `json:"vision,omitempty"`
}

// TokenRules is implemented by Rules whose system shapes the tokens placed
// from its entities. TokenFor returns nil (and no error) when the entity's
// kind has no token hook.
type TokenRules interface {
	TokenFor(ctx context.Context, e *Entity) (*TokenTemplate, error)
}

// PlaceToken asks for a token on a map from an entity, named by its id or
// by its reference ("/monster/goblin", the kind and the slug).
type PlaceToken struct {
	EntityID  string  `json:"entityId"`
	Reference string  `json:"reference"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	Hidden    bool    `json:"hidden"`
}

// MapTokens is the tokensUpdated payload: every token of a map. Clients
// replace the map's tokens with the list.
type MapTokens struct {
	MapID  string   `json:"mapId"`
	Tokens []*Token `json:"tokens"`
}
