package core

import (
	"bytes"
	"encoding/json"
	"slices"
)

// The Encounter+ web client rebuilds every token view whenever a
// gameUpdated carries creatures, after it has marked the acting creature's
// token: the mark is lost. Turn changes already go out without the lists
// (GameTurn); so does any other gameUpdated whose lists players would
// receive byte for byte as they last did (a monster's hit points change,
// which players see only as bloodied or not; a token moved).

// playerLists remembers the lists of the last gameUpdated players
// received, as they encode: Service.playerLists, guarded by the commit lock.
type playerLists struct {
	last []byte
}

// listsOf is the encoding of the lists players receive of game g.
func listsOf(g *Game) []byte {
	pg, ok := ForPlayers(g).(*Game)
	if !ok || pg == nil {
		return nil
	}
	data, err := json.Marshal(struct {
		Combatants []*Combatant `json:"combatants"`
		Creatures  []Creature   `json:"creatures"`
	}{pg.Combatants, pg.Creatures})
	if err != nil {
		return nil
	}
	return data
}

// trim returns events with each gameUpdated whose players' lists equal the
// last ones sent carrying players the turn alone (TurnOf); the lists sent
// are remembered. A reload (clients read everything again), or a change
// to combatants published without a gameUpdated (a combatant patched over
// the API: players' lists are no longer known), forgets them, so that the
// next gameUpdated carries its lists. events is not changed.
func (l *playerLists) trim(events []Event) []Event {
	out, copied := events, false
	sawGame, sawCombatant := false, false
	for i, e := range events {
		switch e.Name {
		case EventReload:
			l.last = nil
		case EventCombatantUpdated, EventCombatantsUpdated, EventCombatantDeleted, EventCombatantCreated:
			sawCombatant = true
		case EventGameUpdated:
			v, ok := e.Data.(Views)
			if !ok {
				continue
			}
			g, ok := v.Players.(*Game)
			if !ok || g == nil {
				continue
			}
			sawGame = true
			lists := listsOf(g)
			if lists == nil || !bytes.Equal(lists, l.last) {
				l.last = lists
				continue
			}
			if !copied {
				out, copied = slices.Clone(events), true
			}
			v.Players = TurnOf(g)
			out[i].Data = v
		}
	}
	if sawCombatant && !sawGame {
		l.last = nil
	}
	return out
}
