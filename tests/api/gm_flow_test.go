package api

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// gmWait bounds each wait for a WebSocket event in the flow.
const gmWait = 10 * time.Second

// TestGameMasterFlow runs a session from the host API against the real
// binary while a player's socket watches: the console's server half.
func TestGameMasterFlow(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	public := e2e.NewAPIClient(t, srv.URL)
	hostWS := testkit.Dial(t, srv.HostURL+"/host/ws", http.Header{"Origin": {srv.HostURL}})
	player := testkit.Dial(t, srv.URL+"/", nil)
	hostWS.WaitFor(gmWait, nil, "app")
	player.WaitFor(gmWait, nil, "app")

	var campaign struct {
		Campaign struct{ ID string }
		Maps     []struct{ ID string }
	}
	host.Get("/host/api/campaign", &campaign)
	if len(campaign.Maps) == 0 {
		t.Fatal("the demo campaign has no map")
	}
	mapID := campaign.Maps[0].ID
	if r := host.Do("POST", "/host/api/screen", `{"mapId": "`+mapID+`"}`); r.Status != 200 {
		t.Fatalf("show map: %d %s", r.Status, r.Body)
	}

	// The SRD goblin and hobgoblin, imported into the campaign.
	archive := testkit.Zip(t, "monsters.json", string(e2e.GmMonsters(t)))
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("destination", campaign.Campaign.ID)
	fw, _ := mw.CreateFormFile("file", "goblins.zip")
	fw.Write(archive)
	mw.Close()
	if r := host.Do("POST", "/host/api/import", body.String(), "Content-Type", mw.FormDataContentType()); r.Status != 200 && r.Status != 201 {
		t.Fatalf("import: %d %s", r.Status, r.Body)
	}

	// The picker's list has what it shows.
	var rows []map[string]any
	public.Get("/api/monsters?schema=list", &rows)
	var goblinRow map[string]any
	for _, row := range rows {
		if row["slug"] == "goblin" {
			goblinRow = row
		}
	}
	if goblinRow == nil || goblinRow["name"] != "Goblin" || goblinRow["type"] != "humanoid" || goblinRow["challenge_rating"] != 0.25 {
		t.Fatalf("goblin list row %v", goblinRow)
	}

	// Place the goblin: players see it, sized and with darkvision.
	place := func(ref string, x int) map[string]any {
		t.Helper()
		r := host.Do("POST", "/host/api/maps/"+mapID+"/tokens", `{"reference": "`+ref+`", "x": `+itoa(x)+`, "y": 140}`)
		if r.Status != 201 {
			t.Fatalf("place %s: %d %s", ref, r.Status, r.Body)
		}
		return r.Object(t)
	}
	goblin := place("/monster/goblin", 140)
	goblinID := goblin["id"].(string)
	if goblin["width"] != 1.0 || goblin["vision"].(map[string]any)["darkRadiusMax"] != 60.0 {
		t.Fatalf("goblin token %v", goblin)
	}
	player.WaitFor(gmWait, nil, "tokenUpdated", goblinID, `"name":"Goblin"`)
	if !strings.Contains(string(public.Get("/api", nil).Body), goblinID) {
		t.Fatal("the goblin is not in the player's snapshot")
	}

	// Hide it: it leaves the player's map and snapshot.
	if r := host.Do("PATCH", "/host/api/tokens/"+goblinID, `{"hidden": true}`); r.Status != 200 {
		t.Fatalf("hide: %d %s", r.Status, r.Body)
	}
	gone := player.WaitFor(gmWait, nil, "tokenUpdated", goblinID)
	if string(gone.Data) != `{"id":"`+goblinID+`","hidden":true,"size":""}` {
		t.Fatalf("players got %s for the hidden goblin", gone.Data)
	}
	hostWS.WaitFor(gmWait, nil, "tokenUpdated", goblinID, `"name":"Goblin"`, `"hidden":true`)
	if strings.Contains(string(public.Get("/api", nil).Body), goblinID) {
		t.Fatal("the hidden goblin is still in the player's snapshot")
	}

	// A hobgoblin joins; both go into the fight and roll initiative.
	hob := place("/monster/hobgoblin", 280)
	hobID := hob["id"].(string)
	r := host.Do("POST", "/host/api/combatants", `{"combatants": [{"tokenId": "`+goblinID+`"}, {"tokenId": "`+hobID+`"}]}`)
	if r.Status != 201 {
		t.Fatalf("add combatants: %d %s", r.Status, r.Body)
	}
	var added []map[string]any
	json.Unmarshal(r.Body, &added)
	hobCombatant := added[1]["id"].(string)
	if added[0]["hidden"] != true {
		t.Fatalf("the hidden goblin's combatant is not hidden: %v", added[0])
	}
	if r := host.Do("POST", "/host/api/combatants/initiative", ""); r.Status != 200 {
		t.Fatalf("roll initiative: %d %s", r.Status, r.Body)
	}
	var snap struct {
		Game struct {
			Creatures []struct {
				ID         string
				Name       string
				Initiative float64
				Bloodied   bool
			}
		}
	}
	public.Get("/api", &snap)
	var hobRow bool
	for _, c := range snap.Game.Creatures {
		if c.Name == "Goblin" {
			t.Fatal("players see the hidden goblin in the initiative list")
		}
		if c.ID == hobCombatant {
			hobRow = c.Initiative > 1 // 1d20 + 1
		}
	}
	if !hobRow {
		t.Fatalf("players' initiative lacks the rolled hobgoblin: %+v", snap.Game.Creatures)
	}

	// 7 damage leaves the hobgoblin (11) at 4: bloodied for players.
	if r := host.Do("POST", "/host/api/combatants/"+hobCombatant+"/hitpoints", `{"damage": 7}`); r.Status != 200 {
		t.Fatalf("damage: %d %s", r.Status, r.Body)
	}
	player.WaitFor(gmWait, nil, "gameUpdated", hobCombatant, `"bloodied":true`)

	// A private roll reaches the host alone.
	leaked := func(env testkit.Envelope) {
		if strings.Contains(string(env.Data), "SECRET-ROLL") {
			t.Fatalf("the player's socket got the private roll: %s %s", env.Name, env.Data)
		}
	}
	if r := host.Do("POST", "/host/api/messages", `{"text": "/r 1d20 # SECRET-ROLL", "private": true}`); r.Status != 201 {
		t.Fatalf("private roll: %d %s", r.Status, r.Body)
	}
	hostWS.WaitFor(gmWait, nil, "messageCreated", "SECRET-ROLL", `"private":true`)
	if r := host.Do("POST", "/host/api/messages", `{"text": "The hobgoblin roars", "creature": "Hobgoblin"}`); r.Status != 201 {
		t.Fatalf("message: %d %s", r.Status, r.Body)
	}
	player.WaitFor(gmWait, leaked, "messageCreated", "roars")
	if strings.Contains(string(public.Get("/api", nil).Body), "SECRET-ROLL") {
		t.Fatal("GET /api shows the private roll")
	}
}
