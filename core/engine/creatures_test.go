package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/core/turns"
)

// seedCombatants links three combatants of the fixture's campaign: the
// friendly hero to the free token (acts second), a hostile guard (acts
// first), a hidden ambusher linked to the hidden token, and a friendly
// one without initiative.
func seedCombatants(t *testing.T, f *liveFixture) {
	t.Helper()
	free, hidden := liveTokenID, liveHiddenID
	f.updateStore(t, func(tx core.Tx) error {
		for i, c := range []*core.Combatant{
			{ID: "c-hero", Label: "A", Name: "Hero", Role: core.RoleFriendly, Player: true, EntityType: "characters",
				Initiative: []core.Initiative{{ID: "i-1", Value: 12.0}}, Data: core.Object{"hp": 7.0, "max_hp": 10.0}, Bloodied: true, TokenID: &free},
			{ID: "c-guard", Label: "G1", Name: "Guard", Role: core.RoleHostile, EntityType: "monsters",
				Initiative: []core.Initiative{{ID: "i-2", Value: 15.0}}, Data: core.Object{"hp": 11.0}},
			{ID: "c-ambush", Name: "Ambusher", Role: core.RoleHostile, Hidden: true,
				Initiative: []core.Initiative{{ID: "i-3", Value: 20.0}}, TokenID: &hidden},
			{ID: "c-dog", Name: "Dog", Role: core.RoleFriendly, EntityType: "characters", EntityID: liveEntityID, Data: core.Object{"hp": 4.0}},
		} {
			c.Campaign, c.Rank = liveCampaign, i
			c.Normalize()
			if err := tx.PutCombatant(c); err != nil {
				return err
			}
		}
		// The dog's maximum lives on its entity only, as D&D 5e keeps
		// max_hit_points on the character.
		e, err := tx.Entity(liveEntityID)
		if err != nil {
			return err
		}
		e.Data["max_hp"] = 12.0
		return tx.PutEntity(e)
	})
}

func TestSnapshotCreaturesInTurnOrderWithoutHiddenOrHostileHitPoints(t *testing.T) {
	f := newLiveFixture(t)
	seedCombatants(t, f)
	snap, err := f.svc.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "game.creatures", snap.Game.Creatures, `[
		{"id":"c-guard","uid":"G1","type":"monsters","name":"Guard","role":"hostile","rank":1,"initiative":15,
		 "health":null,"hitpoints":null,"bloodied":false,"dead":false,"hidden":false,"tokenId":null,"image":null,"player":false},
		{"id":"c-hero","uid":"A","type":"characters","name":"Hero","role":"friendly","rank":2,"initiative":12,
		 "health":7,"hitpoints":10,"bloodied":true,"dead":false,"hidden":false,"tokenId":"tok-free","image":null,"player":true},
		{"id":"c-dog","uid":"Dog","type":"characters","name":"Dog","role":"friendly","rank":3,"initiative":-10,
		 "health":4,"hitpoints":12,"bloodied":false,"dead":false,"hidden":false,"tokenId":null,"image":null,"player":false}]`)
	if len(snap.Game.Combatants) != 3 {
		t.Fatalf("game.combatants has %d rows, want the 3 visible ones beside the creatures", len(snap.Game.Combatants))
	}
}

// gameUpdated carries creatures when the list changes (initiative set), and
// only the turn when the turn alone moves: the real client rebuilds its
// token views on creatures, after marking the acting token, which would
// wipe the turn highlight (core.GameTurn).
func TestGameUpdatedCarriesCreatures(t *testing.T) {
	f := newLiveFixture(t)
	seedCombatants(t, f)
	v := 16.0 // from 15: the lists change (setting the same 15 again goes out as the turn)
	if _, err := f.svc.SetInitiative(context.Background(), "c-guard", &v); err != nil {
		t.Fatal(err)
	}
	var g *core.Game
	for _, e := range f.events.take() {
		if e.Name == core.EventGameUpdated {
			g = redact.PlayersView(e.Data).(*core.Game)
		}
	}
	if g == nil {
		t.Fatal("setting initiative sent no gameUpdated")
	}
	if len(g.Creatures) != 3 || g.Creatures[0].ID != "c-guard" {
		t.Fatalf("gameUpdated creatures %+v", g.Creatures)
	}
	b, _ := json.Marshal(g)
	var back struct {
		Creatures []map[string]any `json:"creatures"`
	}
	if err := json.Unmarshal(b, &back); err != nil || len(back.Creatures) != 3 {
		t.Fatalf("gameUpdated JSON has no creatures: %s", b)
	}

	if _, err := f.svc.ControlCombat(context.Background(), turns.CombatStart); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventGameUpdated)
	b, _ = json.Marshal(redact.PlayersView(events[0].Data))
	var turn map[string]any
	if err := json.Unmarshal(b, &turn); err != nil {
		t.Fatal(err)
	}
	if _, has := turn["creatures"]; has || turn["started"] != true || turn["round"] != 1.0 {
		t.Fatalf("gameUpdated on a turn change = %s, want the turn without creatures", b)
	}
}
