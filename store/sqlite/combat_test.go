package sqlite

import (
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestGameDefaultsAndRoundTrip(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"))
	view(t, s, func(tx core.Tx) error {
		g, err := tx.Game("c1")
		if err != nil {
			return err
		}
		want := &core.Game{Round: 1, Turn: 1, Combatants: []*core.Combatant{}}
		if !reflect.DeepEqual(g, want) {
			t.Fatalf("fresh game %+v, want %+v", g, want)
		}
		return nil
	})

	g := &core.Game{Started: true, Round: 3, Turn: 2, CombatantID: "k1", InitiativeID: "i1",
		Combatants: []*core.Combatant{testCombatant("k1", "c1", "", 1)}}
	update(t, s, func(tx core.Tx) error { return tx.PutGame("c1", g) })
	if len(g.Combatants) != 1 {
		t.Fatal("PutGame changed the caller's combatants")
	}
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Game("c1")
		if err != nil {
			return err
		}
		want := *g
		want.Combatants = []*core.Combatant{}
		if !reflect.DeepEqual(got, &want) {
			t.Fatalf("game %+v, want %+v (without combatants)", got, &want)
		}
		// The combatants in g were not stored as rows by PutGame.
		list, err := tx.Combatants("c1")
		if err != nil {
			return err
		}
		if len(list) != 0 {
			t.Fatalf("PutGame stored %d combatants", len(list))
		}
		return nil
	})
}

func TestScreenDefaultsAndRoundTrip(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"))
	view(t, s, func(tx core.Tx) error {
		sc, err := tx.Screen("c1")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(sc, &core.Screen{RemoteInteraction: true}) {
			t.Fatalf("fresh screen %+v, want remote interaction on and the rest off", sc)
		}
		return nil
	})
	sc := &core.Screen{MapID: "map1", Interaction: "token", TableTopMode: true, Fog: true, RemoteInteraction: false}
	update(t, s, func(tx core.Tx) error { return tx.PutScreen("c1", sc) })
	sc.Fog = false
	update(t, s, func(tx core.Tx) error { return tx.PutScreen("c1", sc) })
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Screen("c1")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, sc) {
			t.Fatalf("screen %+v, want %+v", got, sc)
		}
		return nil
	})
}

func TestGameAndScreenOfMissingCampaign(t *testing.T) {
	s := newStore(t)
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Game("nope")
		wantNotFound(t, err, "no campaign with id 'nope'")
		_, err = tx.Screen("nope")
		wantNotFound(t, err, "no campaign with id 'nope'")
		return nil
	})
	err := s.Update(bg, func(tx core.Tx) error { return tx.PutGame("nope", &core.Game{}) })
	wantNotFound(t, err, "no campaign with id 'nope'")
	err = s.Update(bg, func(tx core.Tx) error { return tx.PutScreen("nope", &core.Screen{}) })
	wantNotFound(t, err, "no campaign with id 'nope'")
}

func TestCombatantRoundTrip(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"))
	img, tok := "goblin.png", "t1"
	k := testCombatant("k1", "c1", "e1", 5)
	k.Image, k.TokenID = &img, &tok
	k.Initiative = []core.Initiative{{ID: "i1", Value: 17.0, Order: 1}}
	k.Effects = []core.StatusEffect{{ID: "x", Name: "Poisoned", Attributes: core.Object{}, Modifiers: []core.Modifier{}}}
	k.Data = core.Object{"hp": core.Object{"value": 3.0}}
	put(t, s, k)
	if k.Revision != 1 {
		t.Fatalf("first write set Revision %d", k.Revision)
	}
	put(t, s, k)
	if k.Revision != 2 {
		t.Fatalf("second write set Revision %d", k.Revision)
	}
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Combatant("k1")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, k) {
			t.Fatalf("combatant %+v\nwant %+v", got, k)
		}
		_, err = tx.Combatant("nope")
		wantNotFound(t, err, "no combatant with id 'nope'")
		return nil
	})
}

func TestCombatantsByRankAndEntity(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"), testCampaign("c2"),
		testCombatant("k3", "c1", "e1", 3),
		testCombatant("k1", "c1", "e2", 1),
		testCombatant("k2b", "c1", "e1", 2),
		testCombatant("k2a", "c1", "", 2),
		testCombatant("x1", "c2", "e1", 1))
	view(t, s, func(tx core.Tx) error {
		list, err := tx.Combatants("c1")
		if err != nil {
			return err
		}
		if got, want := combatantIDs(list), []string{"k1", "k2a", "k2b", "k3"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("Combatants(c1) = %v, want %v (rank, then id)", got, want)
		}
		for _, c := range list {
			if c.Campaign != "c1" || c.Rank == 0 || c.Revision != 1 {
				t.Fatalf("%s lost its columns: campaign %q rank %d revision %d", c.ID, c.Campaign, c.Rank, c.Revision)
			}
		}
		list, err = tx.CombatantsOfEntity("e1")
		if err != nil {
			return err
		}
		if got, want := combatantIDs(list), []string{"k2b", "k3", "x1"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("CombatantsOfEntity(e1) = %v, want %v", got, want)
		}
		list, err = tx.CombatantsOfEntity("none")
		if err != nil || list == nil || len(list) != 0 {
			t.Fatalf("CombatantsOfEntity(none) = %v, %v; want an empty slice", list, err)
		}
		_, err = tx.Combatants("nope")
		wantNotFound(t, err, "no campaign with id 'nope'")
		return nil
	})
}

func TestPutCombatantNeedsItsCampaign(t *testing.T) {
	s := newStore(t)
	err := s.Update(bg, func(tx core.Tx) error { return tx.PutCombatant(testCombatant("k1", "nope", "", 1)) })
	wantNotFound(t, err, "no campaign with id 'nope'")
	err = s.Update(bg, func(tx core.Tx) error { return tx.PutCombatant(testCombatant("k1", "", "", 1)) })
	wantKind(t, err, core.KindInvalid, "campaign is required")
}

func TestDeleteCombatant(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"), testCombatant("k1", "c1", "", 1), testCombatant("k2", "c1", "", 2))
	update(t, s, func(tx core.Tx) error { return tx.DeleteCombatant("k1") })
	err := s.Update(bg, func(tx core.Tx) error { return tx.DeleteCombatant("k1") })
	wantNotFound(t, err, "no combatant with id 'k1'")
	view(t, s, func(tx core.Tx) error {
		list, err := tx.Combatants("c1")
		if got := combatantIDs(list); !reflect.DeepEqual(got, []string{"k2"}) {
			t.Fatalf("combatants after delete: %v", got)
		}
		return err
	})
}

func combatantIDs(list []*core.Combatant) []string {
	out := []string{}
	for _, c := range list {
		out = append(out, c.ID)
	}
	return out
}
