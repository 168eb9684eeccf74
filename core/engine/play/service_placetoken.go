package play

import (
	"context"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
)

// PlaceToken puts a new token for an entity on a map: name, reference and
// entity link from the entity; size, art, vision and role from the
// system's token hook (TokenRules). Clients get tokenUpdated (a hidden one
// reaches players as {id, hidden}).
func (s *PlayRoom) PlaceToken(ctx context.Context, mapID string, place core.PlaceToken) (*core.Token, error) {
	p := s.pin()
	e, err := s.placedEntity(ctx, place)
	if err != nil {
		return nil, err
	}
	var tpl *core.TokenTemplate
	if tr, ok := p.Rules.(core.TokenRules); ok {
		// Outside the write lock: the hook runs Lua.
		if tpl, err = tr.TokenFor(ctx, e); err != nil {
			return nil, err
		}
	}
	if tpl == nil {
		tpl = &core.TokenTemplate{}
	}
	t := kernel.TokenFromTemplate(e, tpl, place)
	err = p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		if _, err := kernel.MapByID(tx, mapID); err != nil {
			return nil, err
		}
		t.MapID = mapID
		return p.StoreToken(tx, t)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// placedEntity resolves the entity a token is placed from.
func (s *PlayRoom) placedEntity(ctx context.Context, p core.PlaceToken) (*core.Entity, error) {
	switch {
	case p.EntityID != "":
		return s.Entity(ctx, "", p.EntityID)
	case p.Reference != "":
		kind, slug, ok := strings.Cut(strings.TrimPrefix(p.Reference, "/"), "/")
		if !ok || kind == "" || slug == "" {
			return nil, core.Invalidf("reference '%s' must be written /kind/slug, e.g. /monster/goblin", core.Clip(p.Reference))
		}
		return s.EntityByReference(ctx, kind, slug)
	}
	return nil, core.Invalidf("give the entity to place: 'entityId' or 'reference' (/kind/slug)")
}

// DeleteToken removes a token from its map. Clients get tokensUpdated with
// the map's tokens, since the contract has no event for one token leaving:
// the host always, players (without the hidden tokens) when the map is on
// the player screen, as their clients replace the tokens of the map they
// show.
func (s *PlayRoom) DeleteToken(ctx context.Context, id string) error {
	p := s.pin()
	return p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		t, err := kernel.TokenByID(tx, id)
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
		host, err := p.HostMapIn(tx, m)
		if err != nil {
			return nil, err
		}
		views := redact.Views{Host: &core.MapTokens{MapID: m.ID, Tokens: host.Tokens}}
		if onScreen, err := p.PlayersSee(tx, m.ID); err != nil {
			return nil, err
		} else if onScreen {
			players, err := p.PlayerMapIn(tx, m)
			if err != nil {
				return nil, err
			}
			views.Players = &core.MapTokens{MapID: m.ID, Tokens: players.Tokens}
		}
		return []core.Event{{Name: core.EventTokensUpdated, Data: views}}, nil
	})
}
