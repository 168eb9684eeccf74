package core

import (
	"context"
	"strings"
)

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

// PlaceToken puts a new token for an entity on a map: name, reference and
// entity link from the entity; size, art, vision and role from the
// system's token hook (TokenRules). Clients get tokenUpdated (a hidden one
// reaches players as {id, hidden}).
func (s *Service) PlaceToken(ctx context.Context, mapID string, place PlaceToken) (*Token, error) {
	p := s.pin()
	e, err := p.placedEntity(ctx, place)
	if err != nil {
		return nil, err
	}
	var tpl *TokenTemplate
	if tr, ok := p.rules.(TokenRules); ok {
		// Outside the write lock: the hook runs Lua.
		if tpl, err = tr.TokenFor(ctx, e); err != nil {
			return nil, err
		}
	}
	if tpl == nil {
		tpl = &TokenTemplate{}
	}
	t := tokenFromTemplate(e, tpl, place)
	err = p.write(ctx, func(tx Tx) ([]Event, error) {
		if _, err := mapByID(tx, mapID); err != nil {
			return nil, err
		}
		t.MapID = mapID
		return p.storeToken(tx, t)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// placedEntity resolves the entity a token is placed from.
func (s *Service) placedEntity(ctx context.Context, p PlaceToken) (*Entity, error) {
	switch {
	case p.EntityID != "":
		return s.Entity(ctx, "", p.EntityID)
	case p.Reference != "":
		kind, slug, ok := strings.Cut(strings.TrimPrefix(p.Reference, "/"), "/")
		if !ok || kind == "" || slug == "" {
			return nil, Invalidf("reference '%s' must be written /kind/slug, e.g. /monster/goblin", Clip(p.Reference))
		}
		return s.EntityByReference(ctx, kind, slug)
	}
	return nil, Invalidf("give the entity to place: 'entityId' or 'reference' (/kind/slug)")
}

func tokenFromTemplate(e *Entity, tpl *TokenTemplate, p PlaceToken) *Token {
	t := &Token{
		ID: NewID(), Name: e.Name, Label: tpl.Label, Role: tpl.Role, X: p.X, Y: p.Y,
		Width: tpl.Width, Height: tpl.Height, Hidden: p.Hidden, Vision: tpl.Vision,
		Reference: "/" + e.Kind + "/" + e.Slug,
	}
	id := e.ID
	t.EntityID = &id
	image := tpl.Image
	if image == "" {
		image = e.Token
	}
	if image == "" {
		image = e.Image
	}
	if image != "" {
		t.Image = &image
	}
	if t.Vision != nil && t.Vision.ID == "" {
		t.Vision.ID = NewID()
	}
	return t
}

func mapByID(tx Tx, id string) (*Map, error) {
	m, err := tx.Map(id)
	if IsNotFound(err) {
		return nil, NotFoundf("no map with id '%s'", Clip(id))
	}
	return m, err
}

// MapTokens is the tokensUpdated payload: every token of a map. Clients
// replace the map's tokens with the list.
type MapTokens struct {
	MapID  string   `json:"mapId"`
	Tokens []*Token `json:"tokens"`
}

// DeleteToken removes a token from its map. Clients get tokensUpdated with
// the map's tokens, since the contract has no event for one token leaving:
// the host always, players (without the hidden tokens) when the map is on
// the player screen, as their clients replace the tokens of the map they
// show.
func (s *Service) DeleteToken(ctx context.Context, id string) error {
	p := s.pin()
	return p.write(ctx, func(tx Tx) ([]Event, error) {
		t, err := tokenByID(tx, id)
		if err != nil {
			return nil, err
		}
		if err := tx.DeleteToken(id); err != nil {
			return nil, err
		}
		m, err := tx.Map(t.MapID)
		if err != nil {
			return nil, err
		}
		host, err := p.hostMapIn(tx, m)
		if err != nil {
			return nil, err
		}
		views := Views{Host: &MapTokens{MapID: m.ID, Tokens: host.Tokens}}
		if onScreen, err := p.onPlayerScreen(tx, m.ID); err != nil {
			return nil, err
		} else if onScreen {
			players, err := p.playerMapIn(tx, m)
			if err != nil {
				return nil, err
			}
			views.Players = &MapTokens{MapID: m.ID, Tokens: players.Tokens}
		}
		return []Event{{Name: EventTokensUpdated, Data: views}}, nil
	})
}

// onPlayerScreen reports whether a map is on the primary campaign's player
// screen.
func (s pinned) onPlayerScreen(tx Tx, mapID string) (bool, error) {
	c, err := s.primaryCampaign(tx)
	if IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	screen, err := tx.Screen(c.ID)
	if err != nil {
		return false, err
	}
	return screen.MapID == mapID, nil
}
