package kernel

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// PlayerScreenMap is the id of the map on the primary campaign's player
// screen, "" when there is none (or no primary campaign).
func (s Pinned) PlayerScreenMap(tx core.Tx) (string, error) {
	if s.Rules == nil {
		return "", nil
	}
	c, err := s.PrimaryCampaign(tx)
	if core.IsNotFound(err) {
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

// tokenShownIn is playerMaps.tokenShown for a token id read in tx; a
// token that does not exist is not shown.
func tokenShownIn(tx core.Tx, id string, maps PlayerMaps) (bool, error) {
	if id == "" {
		return false, nil
	}
	t, err := tx.Token(id)
	if core.IsNotFound(err) {
		return false, nil
	}
	return maps.TokenShown(t), err
}

// shownLinks returns players' combatants with the tokenId of each dropped
// where it names a token players do not see (hidden, on another map, or
// gone): the id alone would tell them a hidden token exists. A token on a
// map some player looks at keeps its link (the game is one payload for
// every player, a split party included). A combatant that changes is
// copied; list is not changed.
func shownLinks(tx core.Tx, maps PlayerMaps, list []*core.Combatant) ([]*core.Combatant, error) {
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
			out, copied = append([]*core.Combatant(nil), list...), true
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
func (s Pinned) playerGameIn(tx core.Tx, g *core.Game) (*core.Game, error) {
	out := redact.PlayerGame(g, func() []core.TurnSlot { return s.TurnOrder(g.Combatants) })
	maps, err := s.PlayerMapsIn(tx)
	if err != nil {
		return nil, err
	}
	if out.Combatants, err = shownLinks(tx, maps, out.Combatants); err != nil {
		return nil, err
	}
	return s.withCreatures(tx, out)
}

// PlayerCombatantIn is one combatant as players see it
// (CombatantForPlayers, naming only a token they see).
func (s Pinned) PlayerCombatantIn(tx core.Tx, c *core.Combatant) (*core.Combatant, error) {
	maps, err := s.PlayerMapsIn(tx)
	if err != nil {
		return nil, err
	}
	list, err := shownLinks(tx, maps, []*core.Combatant{redact.CombatantForPlayers(c)})
	if err != nil {
		return nil, err
	}
	return list[0], nil
}
