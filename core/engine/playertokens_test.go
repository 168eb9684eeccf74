package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

func TestTokensCarrySizeAndLinkedHealth(t *testing.T) {
	f := newLiveFixture(t)
	seedCombatants(t, f)
	if _, err := f.svc.ShowMap(context.Background(), liveMapID); err != nil {
		t.Fatal(err)
	}
	snap, err := f.svc.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*core.Token{}
	for _, tok := range snap.Map.Tokens {
		byID[tok.ID] = tok
	}
	if byID[liveHiddenID] != nil {
		t.Fatal("the hidden token reached players")
	}
	hero, statue := byID[liveTokenID], byID[liveLockedID]
	wantJSON(t, "linked token health", []any{hero.Size, hero.Health, hero.Hitpoints, hero.Bloodied, hero.Dead}, `["M",7,10,true,false]`)
	// The real client draws token.combatant's bloodied and defeated: the
	// combatant rides along without its data.
	wantJSON(t, "token.combatant", hero.Combatant, `{"id":"c-hero","label":"A","name":"Hero","role":"friendly","hidden":false,
		"initiative":[{"id":"i-1","value":12}],"attributes":{},"modifiers":[],"effects":[],"bloodied":true,"defeated":false,
		"player":true,"image":null,"entityType":"characters","tokenId":"tok-free"}`)
	b, _ := json.Marshal(statue)
	var unlinked map[string]any
	json.Unmarshal(b, &unlinked)
	if unlinked["size"] != "M" || unlinked["health"] != nil || unlinked["bloodied"] != nil || unlinked["dead"] != nil || unlinked["combatant"] != nil {
		t.Fatalf("unlinked token %s, want size M and no health fields", b)
	}

	// Derived fields are never stored, and tokenUpdated carries them.
	f.events.take()
	if _, err := f.svc.PatchToken(context.Background(), liveTokenID, core.Object{"width": 2.0, "height": 2.0, "size": "T", "health": 99.0}); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventTokenUpdated)
	shown := events[0].Data.(*core.Token)
	if shown.Size != "L" || shown.Health == nil || *shown.Health != 7 {
		t.Fatalf("tokenUpdated size %q health %v, want L and the combatant's 7", shown.Size, shown.Health)
	}
	var stored *core.Token
	f.store.View(context.Background(), func(tx core.Tx) (err error) { stored, err = tx.Token(liveTokenID); return })
	if stored.Size != "" || stored.Health != nil || stored.Bloodied != nil {
		t.Fatalf("derived fields were stored: size %q health %v", stored.Size, stored.Health)
	}
}

func TestTokenSize(t *testing.T) {
	for _, tc := range []struct {
		w, h float64
		want string
	}{{0.5, 0.5, "T"}, {1, 1, "M"}, {2, 2, "L"}, {3, 3, "H"}, {4, 4, "G"}, {6, 6, "C"}, {2, 1, "2x1"}, {5, 5, "5x5"}, {1.5, 1.5, "1.5x1.5"}} {
		if got := redact.TokenSize(tc.w, tc.h); got != tc.want {
			t.Errorf("TokenSize(%v, %v) = %q, want %q", tc.w, tc.h, got, tc.want)
		}
	}
}

func TestTokenStoredCombatantReachesPlayersWithoutItsData(t *testing.T) {
	f := newLiveFixture(t)
	f.updateStore(t, func(tx core.Tx) error {
		for id, hidden := range map[string]bool{liveLockedID: false, liveTokenID: true} {
			tok, err := tx.Token(id)
			if err != nil {
				return err
			}
			tok.Combatant = &core.Combatant{ID: "c-" + id, Name: "Stored", Hidden: hidden, Notes: "weak to fire",
				Data: core.Object{"hp": 99.0}, Attributes: core.Object{"str": 3.0}}
			if err := tx.PutToken(tok); err != nil {
				return err
			}
		}
		return nil
	})
	if _, err := f.svc.ShowMap(context.Background(), liveMapID); err != nil {
		t.Fatal(err)
	}
	snap, err := f.svc.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range snap.Map.Tokens {
		b, _ := json.Marshal(tok.Combatant)
		switch tok.ID {
		case liveLockedID:
			if tok.Combatant == nil || tok.Combatant.Name != "Stored" || tok.Combatant.Data != nil || tok.Combatant.Notes != "" || len(tok.Combatant.Attributes) != 0 {
				t.Fatalf("stored combatant sent as %s, want it without data, notes or attributes", b)
			}
		case liveTokenID:
			if tok.Combatant != nil {
				t.Fatalf("a hidden stored combatant reached players: %s", b)
			}
		}
	}
}
