package kernel

import (
	"bytes"
	"encoding/json"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// The Encounter+ web client rebuilds every token view whenever a
// gameUpdated carries creatures, after it has marked the acting creature's
// token: the mark is lost. Turn changes already go out without the lists
// (GameTurn); so does a change to combatants that leaves the lists players
// receive byte for byte as they were before it (a monster's hit points,
// which players see only as bloodied or not).

// playerListsIn is the encoding of the lists players receive of a
// campaign's game as it stands in tx, whose combatants are given: its
// combatants and creatures as they see them.
func (s Pinned) playerListsIn(tx core.Tx, campaignID string, combatants []*core.Combatant) ([]byte, error) {
	g, err := tx.Game(campaignID)
	if err != nil {
		return nil, err
	}
	g.Combatants = combatants
	players, err := s.playerGameIn(tx, g)
	if err != nil {
		return nil, err
	}
	return listsOf(players), nil
}

// listsOf is the encoding of the lists players receive of game g (its
// combatants and creatures, as ForPlayers leaves them); nil when g is not
// a game.
func listsOf(g any) []byte {
	pg, ok := redact.ForPlayers(g).(*core.Game)
	if !ok || pg == nil {
		return nil
	}
	data, err := json.Marshal(struct {
		Combatants []*core.Combatant `json:"combatants"`
		Creatures  []core.Creature   `json:"creatures"`
	}{pg.Combatants, pg.Creatures})
	if err != nil {
		return nil
	}
	return data
}

// turnIfListsAre makes each gameUpdated of events whose players' lists
// encode as before carry players the turn alone (TurnOf). events is
// changed in place.
func turnIfListsAre(events []core.Event, before []byte) {
	if before == nil {
		return
	}
	for i, e := range events {
		v, ok := e.Data.(redact.Views)
		if e.Name != core.EventGameUpdated || !ok {
			continue
		}
		if g, ok := v.Players.(*core.Game); ok && g != nil && bytes.Equal(listsOf(g), before) {
			v.Players = core.TurnOf(g)
			events[i].Data = v
		}
	}
}
