package core

import "context"

// ShowMap puts a map on the primary campaign's player screen and tells
// clients: screenUpdated with the screen, then mapLoaded with the map as
// players see it (PlayerMap: hidden tokens, markers and the like left out,
// as in GET /api). An empty mapID clears the screen (screenUpdated only). Any stored map may be shown,
// whether the campaign or a module owns it.
func (s *Service) ShowMap(ctx context.Context, mapID string) (*Screen, error) {
	p := s.pin()
	var out *Screen
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		var shown *Map
		if mapID != "" {
			m, err := tx.Map(mapID)
			if IsNotFound(err) {
				return nil, NotFoundf("no map with id '%s'", mapID)
			}
			if err != nil {
				return nil, err
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
		p.liveScreen(screen)
		out = screen
		events := []Event{{Name: EventScreenUpdated, Data: screen}}
		if shown != nil {
			players, err := p.playerMapIn(tx, shown)
			if err != nil {
				return nil, err
			}
			host, err := p.hostMapIn(tx, shown)
			if err != nil {
				return nil, err
			}
			events = append(events, Event{Name: EventMapLoaded, Data: Views{Players: players, Host: host}})
		}
		// The tokens players see changed: so do the token links of the
		// combatants they see (shownLinks).
		game, err := p.linkedGameEvents(tx, func(c *Combatant) bool { return c.TokenID != nil })
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
func (s *Service) ControlCombat(ctx context.Context, action string) (*Game, error) {
	p := s.pin()
	switch action {
	case CombatStart, CombatNext, CombatPrevious, CombatEnd:
	default:
		return nil, Invalidf("unknown combat action '%s': use start, next, previous or end", action)
	}
	var out *Game
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		game, err := tx.Game(c.ID)
		if err != nil {
			return nil, err
		}
		combatants, err := tx.Combatants(c.ID)
		if err != nil {
			return nil, err
		}
		ended := game.CombatantID
		changed, err := stepCombat(game, p.turnOrder(combatants), action)
		if err != nil {
			return nil, err
		}
		game.Combatants = combatants
		out = game
		if !changed {
			return nil, nil
		}
		if err := tx.PutGame(c.ID, game); err != nil {
			return nil, err
		}
		var events []Event
		if action == CombatNext { // effects run out as turns pass (effects.go)
			for _, expired := range expireEffects(combatants, ended, game) {
				stored, err := p.storeCombatant(tx, expired)
				if err != nil {
					return nil, err
				}
				events = append(events, stored...)
			}
		}
		views, err := p.gameViews(tx, game)
		if err != nil {
			return nil, err
		}
		// Only the turn moved: players get it without the lists (GameTurn).
		if pg, ok := views.Players.(*Game); ok {
			views.Players = TurnOf(pg)
		}
		return append(events, Event{Name: EventGameUpdated, Data: views}), nil
	})
	return out, err
}
