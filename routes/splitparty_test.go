package routes

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
)

// framesUntilPing sends ping and returns every frame received before its
// answer: what the connection was sent by then.
func framesUntilPing(t *testing.T, ws *websocket.Conn) []string {
	t.Helper()
	id := "ping-" + time.Now().Format("150405.000000000")
	if err := ws.WriteJSON(map[string]any{"name": "ping", "requestId": id}); err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		ws.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, b, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for the ping's answer: %v", err)
		}
		if strings.Contains(string(b), `"responseId":"`+id+`"`) {
			return out
		}
		out = append(out, string(b))
	}
}

// waitFrame reads ws until a frame holds every part (10 s at most).
func waitFrame(t *testing.T, ws *websocket.Conn, parts ...string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ws.SetReadDeadline(deadline)
		_, b, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("no frame with %v: %v", parts, err)
		}
		if anyFrameHas([]string{string(b)}, parts...) {
			return
		}
	}
}

func anyFrameHas(frames []string, parts ...string) bool {
	for _, f := range frames {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(f, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestSplitPartyHidesEachMapFromTheOther: the game master puts the only
// seat on map B while map A is on the player screen. The seat's player
// reads B (GET /api, its token, its picture) and hears only of B; a player
// without a seat reads A and hears only of A; neither reaches the other's
// map by any path: API reads, WebSocket frames, sights, a door, a pointer,
// the map's picture. Taking the seat off B, and deleting B, return it to
// the screen.
func TestSplitPartyHidesEachMapFromTheOther(t *testing.T) {
	e := newSeatEnv(t)
	ctx := context.Background()
	const mapB, tokB, doorB = "a0000000-0000-4000-8000-0000000000b2", "d0000000-0000-4000-8000-0000000000b2", "wall-door-b"
	picture := "/campaigns/" + testkit.CampaignID + "/maps/cellar-b.png"
	if err := os.MkdirAll(filepath.Join(e.dataDir, "campaigns", testkit.CampaignID, "maps"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.dataDir, filepath.FromSlash(picture)), []byte("\x89PNG\r\n\x1a\n picture of B"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := e.store.Update(ctx, func(tx core.Tx) error {
		m := &core.Map{ID: mapB, Name: "Cellar B", Owner: testkit.CampaignID, Image: picture,
			Walls: []core.Wall{{ID: doorB, Data: []float64{0, 0, 100, 0}, Type: core.WallDoor, Door: core.DoorClosed}}}
		if err := m.Normalize(); err != nil {
			return err
		}
		if err := tx.PutMap(m); err != nil {
			return err
		}
		tk := &core.Token{ID: tokB, Name: "Scout on B", MapID: mapB, X: 10, Y: 10}
		tk.Normalize()
		return tx.PutToken(tk)
	})
	if err != nil {
		t.Fatal(err)
	}

	taken := e.do(t, "POST", "/api/seats/"+heroID+"/take", `{"player":"Ann"}`).json(t)
	token, _ := taken["seatToken"].(string)
	seat := []string{"X-Companion-Seat", token}
	ann, _, err := e.dial(t, "/ws", seat...)
	if err != nil {
		t.Fatal(err)
	}
	bob, _, err := e.dial(t, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	framesUntilPing(t, ann)
	framesUntilPing(t, bob)

	// Before the split, B is nobody's: its picture is hidden.
	if r := e.do(t, "GET", picture, ""); r.status != http.StatusNotFound {
		t.Fatalf("B's picture before any seat is on it: %d", r.status)
	}

	if err := e.svc.SetSeatMap(ctx, heroID, mapB); err != nil {
		t.Fatal(err)
	}
	annFrames, bobFrames := framesUntilPing(t, ann), framesUntilPing(t, bob)
	if !anyFrameHas(annFrames, `"name":"mapLoaded"`, mapB, "Scout on B") {
		t.Fatalf("Ann was not sent map B: %v", annFrames)
	}
	if anyFrameHas(bobFrames, mapB) || anyFrameHas(bobFrames, "Scout on B") {
		t.Fatalf("Bob heard of map B: %v", bobFrames)
	}

	// GET /api: each their own map.
	annAPI := e.do(t, "GET", "/api", "", seat...).json(t)
	if m, _ := annAPI["map"].(map[string]any); m == nil || m["id"] != mapB || !strings.Contains(string(e.do(t, "GET", "/api", "", seat...).body), "Scout on B") {
		t.Fatalf("Ann's GET /api does not show map B: %v", annAPI["map"])
	}
	bobAPI := e.do(t, "GET", "/api", "")
	if m, _ := bobAPI.json(t)["map"].(map[string]any); m == nil || m["id"] != testkit.MapID || strings.Contains(string(bobAPI.body), mapB) || strings.Contains(string(bobAPI.body), tokB) {
		t.Fatalf("Bob's GET /api is not map A alone: %s", bobAPI.body)
	}

	// Tokens: each reads their own map's, not the other's.
	if r := e.do(t, "GET", "/api/tokens/"+tokB, "", seat...); r.status != http.StatusOK {
		t.Fatalf("Ann reads her map's token: %d %s", r.status, r.body)
	}
	if r := e.do(t, "GET", "/api/tokens/"+tokB, ""); r.status != http.StatusNotFound {
		t.Fatalf("Bob reads a token on B: %d %s", r.status, r.body)
	}
	if r := e.do(t, "GET", "/api/tokens/"+testkit.TokenA, "", seat...); r.status != http.StatusNotFound {
		t.Fatalf("Ann reads a token on A: %d %s", r.status, r.body)
	}
	if r := e.do(t, "PATCH", "/api/tokens/"+testkit.TokenA, `{"x":5}`, seat...); r.status != http.StatusNotFound {
		t.Fatalf("Ann changes a token on A: %d %s", r.status, r.body)
	}

	// Changes on each map reach only those looking at it.
	if _, err := e.svc.PatchToken(ctx, tokB, core.Object{"x": 77.0}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.PatchToken(ctx, testkit.TokenA, core.Object{"x": 66.0}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.UpdateDoor(ctx, core.Door{MapID: mapB, ID: doorB, State: core.DoorOpen}); err != nil {
		t.Fatal(err)
	}
	annFrames, bobFrames = framesUntilPing(t, ann), framesUntilPing(t, bob)
	if !anyFrameHas(annFrames, `"name":"tokenUpdated"`, tokB) || anyFrameHas(annFrames, testkit.TokenA) {
		t.Fatalf("Ann's frames: %v", annFrames)
	}
	if !anyFrameHas(annFrames, `"name":"lineOfSightUpdated"`) || !anyFrameHas(annFrames, `"name":"mapUpdated"`, mapB) {
		t.Fatalf("Ann did not hear of B's door: %v", annFrames)
	}
	if !anyFrameHas(bobFrames, `"name":"tokenUpdated"`, testkit.TokenA) || anyFrameHas(bobFrames, tokB) || anyFrameHas(bobFrames, mapB) ||
		anyFrameHas(bobFrames, `"name":"lineOfSightUpdated"`) {
		t.Fatalf("Bob's frames: %v", bobFrames)
	}

	// A player's requests are checked against their own map.
	if name, _ := request(t, bob, "updateDoor", map[string]any{"mapId": mapB, "id": doorB, "state": "closed"}); name != "error" {
		t.Fatalf("Bob opened a door on B: %s", name)
	}
	if name, _ := request(t, ann, "updateDoor", map[string]any{"mapId": mapB, "id": doorB, "state": "closed"}); name == "error" {
		t.Fatal("Ann could not close a door on her map")
	}
	if name, _ := request(t, bob, "pointerUpdated", map[string]any{"x": 1, "y": 2}); name == "error" {
		t.Fatal("Bob's pointer was refused")
	}
	if anyFrameHas(framesUntilPing(t, ann), `"name":"pointerUpdated"`) {
		t.Fatal("Bob's pointer on A reached Ann on B")
	}

	// The picture: Ann's seat reads B's, not A's; a request naming no
	// seat reads B's only while some seat is on it.
	if r := e.do(t, "GET", picture, "", seat...); r.status != http.StatusOK {
		t.Fatalf("Ann reads B's picture: %d", r.status)
	}
	if err := e.svc.SetSeatMap(ctx, heroID, ""); err != nil {
		t.Fatal(err)
	}
	if !anyFrameHas(framesUntilPing(t, ann), `"name":"mapLoaded"`, testkit.MapID) {
		t.Fatal("Ann back on the screen was not sent map A")
	}
	for _, h := range [][]string{nil, seat} {
		if r := e.do(t, "GET", picture, "", h...); r.status != http.StatusNotFound {
			t.Fatalf("B's picture once no seat is on it (%v): %d", h, r.status)
		}
	}

	// A seat on its own map freed by the game master: its player's page
	// goes back to the screen's map; taking the seat again brings B.
	if err := e.svc.SetSeatMap(ctx, heroID, mapB); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, ann, `"name":"mapLoaded"`, mapB)
	if err := e.svc.FreeSeat(ctx, heroID); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, ann, `"name":"mapLoaded"`, testkit.MapID)
	if err := ann.WriteJSON(map[string]any{"name": "takeSeat", "data": map[string]any{"seatId": heroID, "player": "Ann"}, "requestId": "again"}); err != nil {
		t.Fatal(err)
	}
	annFrames = framesUntilPing(t, ann)
	if !anyFrameHas(annFrames, `"name":"mapLoaded"`, mapB) {
		t.Fatalf("Ann, seated again, was not sent map B: %v", annFrames)
	}
	for _, f := range annFrames {
		var env struct {
			ResponseID string `json:"responseId"`
			Data       struct{ SeatToken string }
		}
		if json.Unmarshal([]byte(f), &env) == nil && env.ResponseID == "again" {
			token = env.Data.SeatToken
		}
	}
	seat = []string{"X-Companion-Seat", token}

	// Deleting the map returns its seats to the screen.
	if err := e.svc.SetSeatMap(ctx, heroID, mapB); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.DeleteMap(ctx, mapB); err != nil {
		t.Fatal(err)
	}
	if got := e.svc.SeatMapID(core.SeatHash(token)); got != "" {
		t.Fatalf("the seat is still on the deleted map: %q", got)
	}
	if m, _ := e.do(t, "GET", "/api", "", seat...).json(t)["map"].(map[string]any); m == nil || m["id"] != testkit.MapID {
		t.Fatalf("after the delete Ann's GET /api: %v", m)
	}
	if err := e.svc.SetSeatMap(ctx, heroID, "no-such-map"); !core.IsNotFound(err) {
		t.Fatalf("a seat on an unknown map: %v", err)
	}
}
