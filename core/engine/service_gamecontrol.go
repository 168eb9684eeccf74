package engine

import (
	"context"

	"github.com/vttapp/companion/core/turns"

	"github.com/vttapp/companion/core/redact"

	"github.com/vttapp/companion/core"
)

// ShowMap puts a map on the primary campaign's player screen and tells
// clients: screenUpdated with the screen, then mapLoaded with the map as
// players see it (PlayerMap: hidden tokens, markers and the like left out,
// as in GET /api). An empty mapID clears the screen (screenUpdated only). Any stored map may be shown,
// whether the campaign or a module owns it, once its grid is set (a map
// made from an image waits for it: GridPending, grid.go).
func (s *libraryRoom) ShowMap(ctx context.Context, mapID string) (*core.Screen, error) {
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

// ControlCombat runs one combat action on the primary campaign's game in one
// transaction: CombatStart begins round 1 with the first slot of the turn
// order acting; CombatNext passes the turn on (after the last slot a new
// round begins); CombatPrevious goes back one slot (into the previous round
// from the first); CombatEnd stops combat, and ending a combat that is not
// running changes nothing and tells no one. It returns the game with every combatant (the host sees
// hidden ones); clients get gameUpdated with the game as players see it
// (hidden combatants left out, as in GET /api).
func (s *tableRoom) ControlCombat(ctx context.Context, action string) (*core.Game, error) {
	return s.pin().ControlCombat(ctx, action, "", nil)
}

// PassTurn hands the turn to combatant to (CombatPass), or starts combat
// with them acting, in a system whose turns are passed (TurnsPassed): the
// game master may pick anyone who has not acted this round.
func (s *tableRoom) PassTurn(ctx context.Context, to string) (*core.Game, error) {
	p := s.pin()
	if !p.TurnsPassed() {
		return nil, core.Conflictf("this system takes turns by initiative: use next instead of passing the turn")
	}
	return p.ControlCombat(ctx, turns.CombatPass, to, nil)
}
