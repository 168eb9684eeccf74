package core

// Players see the map on the primary campaign's player screen, or the map
// the game master put their seat on (seatmaps.go). A token on any other
// map, like a hidden one, does not exist for them (the game master
// prepares the next encounter there), and the combatants they see name
// only tokens they see. These are the rules that
// need the store; those on one object alone are in playerview.go and
// playertokens.go.

// playerScreenMap is the id of the map on the primary campaign's player
// screen, "" when there is none (or no primary campaign).
func (s pinned) playerScreenMap(tx Tx) (string, error) {
	if s.rules == nil {
		return "", nil
	}
	c, err := s.primaryCampaign(tx)
	if IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	screen, err := tx.Screen(c.ID)
	if err != nil {
		return "", err
	}
	return screen.MapID, nil
}

// TokenShown reports whether players see a token, given the map on the
// player screen: it is not hidden and stands on that map.
func TokenShown(t *Token, screenMap string) bool {
	return t != nil && !t.Hidden && screenMap != "" && t.MapID == screenMap
}

// tokenShownIn is playerMaps.tokenShown for a token id read in tx; a
// token that does not exist is not shown.
func tokenShownIn(tx Tx, id string, maps playerMaps) (bool, error) {
	if id == "" {
		return false, nil
	}
	t, err := tx.Token(id)
	if IsNotFound(err) {
		return false, nil
	}
	return maps.tokenShown(t), err
}

// shownLinks returns players' combatants with the tokenId of each dropped
// where it names a token players do not see (hidden, on another map, or
// gone): the id alone would tell them a hidden token exists. A token on a
// map some player looks at keeps its link (the game is one payload for
// every player, a split party included). A combatant that changes is
// copied; list is not changed.
func shownLinks(tx Tx, maps playerMaps, list []*Combatant) ([]*Combatant, error) {
	out, copied := list, false
	for i, c := range list {
		if c.TokenID == nil {
			continue
		}
		shown, err := tokenShownIn(tx, *c.TokenID, maps)
		if err != nil {
			return nil, err
		}
		if shown {
			continue
		}
		if !copied {
			out, copied = append([]*Combatant(nil), list...), true
		}
		cp := *c
		cp.TokenID = nil
		out[i] = &cp
	}
	return out, nil
}

// playerGameIn is g as players see it (playerGame, under the loaded
// system's turn order), its combatants naming only tokens players see,
// with its creatures.
func (s pinned) playerGameIn(tx Tx, g *Game) (*Game, error) {
	out := playerGame(g, func() []TurnSlot { return s.turnOrder(g.Combatants) })
	maps, err := s.playerMapsIn(tx)
	if err != nil {
		return nil, err
	}
	if out.Combatants, err = shownLinks(tx, maps, out.Combatants); err != nil {
		return nil, err
	}
	return s.withCreatures(tx, out)
}

// playerCombatantIn is one combatant as players see it
// (CombatantForPlayers, naming only a token they see).
func (s pinned) playerCombatantIn(tx Tx, c *Combatant) (*Combatant, error) {
	maps, err := s.playerMapsIn(tx)
	if err != nil {
		return nil, err
	}
	list, err := shownLinks(tx, maps, []*Combatant{CombatantForPlayers(c)})
	if err != nil {
		return nil, err
	}
	return list[0], nil
}
