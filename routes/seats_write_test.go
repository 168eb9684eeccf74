package routes

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/internal/testkit"
)

const otherHeroID = "e0000000-0000-4000-8000-0000000000f3"

// newTwoSeatEnv is newSeatEnv with a second player character (a second seat).
func newTwoSeatEnv(t *testing.T) *seatEnv {
	t.Helper()
	e := newSeatEnv(t)
	err := e.store.Update(context.Background(), func(tx core.Tx) error {
		other := &core.Entity{ID: otherHeroID, Kind: "character", System: "dnd5e", Name: "Other", Slug: "other", Owner: testkit.CampaignID,
			Data: core.Object{"hit_points": 9.0, "max_hit_points": 9.0}}
		if err := other.Normalize(other.Created); err != nil {
			return err
		}
		return tx.PutEntity(other)
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestAPlayerCannotWriteAnotherCharacterOverHTTP: with the join key on, a
// player holding a seat is refused (403, nothing stored) every HTTP write
// of another player's character, by PUT and PATCH, and of their own
// outside its editable data; without a seat, of any character. With the
// key off the contract's open writes stand.
func TestAPlayerCannotWriteAnotherCharacterOverHTTP(t *testing.T) {
	e := newTwoSeatEnv(t)
	ctx := context.Background()
	if r := e.do(t, "PATCH", "/api/characters/"+otherHeroID, `{"notes":"key off"}`); r.status != 200 {
		t.Fatalf("key off, an open write was refused: %d %s", r.status, r.body)
	}
	st, err := e.svc.SetJoinKey(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	key := []string{"X-Companion-Key", st.Key}
	if me := e.do(t, "GET", "/api/me", "", key...).json(t); me["joinKey"] != true {
		t.Fatalf("GET /api/me with the key on: %v", me)
	}
	taken := e.do(t, "POST", "/api/seats/"+heroID+"/take", `{"player":"Ann"}`, key...)
	token, _ := taken.json(t)["seatToken"].(string)
	if taken.status != 200 || token == "" {
		t.Fatalf("taking a seat: %d %s", taken.status, taken.body)
	}
	seated := append(append([]string{}, key...), "X-Companion-Seat", token)
	before, _ := e.svc.Entity(ctx, "", otherHeroID)

	wantError(t, e.do(t, "PATCH", "/api/characters/"+otherHeroID, `{"data":{"hit_points":1}}`, seated...), http.StatusForbidden, "")
	wantError(t, e.do(t, "PATCH", "/api/characters/"+otherHeroID, `{"data":{"max_hit_points":99}}`, seated...), http.StatusForbidden, "")
	wantError(t, e.do(t, "PUT", "/api/characters/"+otherHeroID, `{"id":"`+otherHeroID+`","name":"Mine now","data":{"hit_points":1}}`, seated...), http.StatusForbidden, "")
	wantError(t, e.do(t, "PATCH", "/api/characters/"+heroID, `{"name":"Renamed"}`, seated...), http.StatusForbidden, "")
	wantError(t, e.do(t, "PATCH", "/api/characters/"+heroID, `{"data":{"strength":30}}`, seated...), http.StatusForbidden, "strength")
	wantError(t, e.do(t, "PATCH", "/api/characters/"+heroID, `{"data":{"max_hit_points":31}}`, key...), http.StatusForbidden, "")
	after, _ := e.svc.Entity(ctx, "", otherHeroID)
	if after.Name != before.Name || after.Data["hit_points"] != before.Data["hit_points"] || after.Data["max_hit_points"] != 9.0 {
		t.Fatalf("a refused write changed the other character: %+v", after.Data)
	}
	// Their own character's editable data is theirs to write.
	if r := e.do(t, "PATCH", "/api/characters/"+heroID, `{"data":{"max_hit_points":31}}`, seated...); r.status != 200 || !strings.Contains(string(r.body), `"max_hit_points":31`) {
		t.Fatalf("the player's own editable key: %d %s", r.status, r.body)
	}
}

// TestOldKeyOverWebSocket: after new keys, the old key in the socket's URL
// and the old header are refused at the upgrade (401), and a connection
// admitted with it is closed with 4401.
func TestOldKeyOverWebSocket(t *testing.T) {
	e := newSeatEnv(t)
	ctx := context.Background()
	st, err := e.svc.SetJoinKey(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	ws, _, err := e.dial(t, "/ws?key="+st.Key)
	if err != nil {
		t.Fatalf("the key in the URL: %v", err)
	}
	request(t, ws, "clientUpdated", map[string]any{"name": "Ann"})
	if _, err := e.svc.NewJoinKeys(ctx); err != nil {
		t.Fatal(err)
	}
	if code := closedWith(t, ws); code != hub.CloseJoinKeyChanged {
		t.Fatalf("the old key's connection closed with %d", code)
	}
	for _, try := range []struct{ path, header string }{{"/ws?key=" + st.Key, ""}, {"/ws", st.Key}, {"/ws?key=" + st.SpectatorKey, ""}} {
		var h []string
		if try.header != "" {
			h = []string{"X-Companion-Key", try.header}
		}
		if _, resp, err := e.dial(t, try.path, h...); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("the old key (%s %s) upgraded: %v", try.path, try.header, err)
		}
	}
}
