package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// The server half of a new game master's first session (issue 33), on the
// real binary with the demo campaign: what the console's buttons send,
// and what a player's socket receives.

func TestFirstSessionAtTheHostAPI(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	player := testkit.Dial(t, srv.URL+"/", nil)
	player.WaitFor(gmWait, nil, "app")

	// Item 2: an unreadable private roll is refused with the words the
	// player chat gives for the same line, and nothing is stored.
	player.SendJSON(map[string]any{"name": "createMessage", "data": map[string]any{"text": "/r 1d20+"}, "requestId": "bad-roll"})
	reply := player.AwaitReply(gmWait, "bad-roll", nil)
	var refused struct{ Message string }
	json.Unmarshal(reply.Data, &refused)
	if reply.Name != "error" || !strings.HasPrefix(refused.Message, "cannot roll '1d20+'") {
		t.Fatalf("the player chat's answer: %s %s", reply.Name, reply.Data)
	}
	r := host.Do("POST", "/host/api/messages", `{"text": "/r 1d20+", "private": true}`)
	e2e.WantAPIError(t, r, http.StatusBadRequest, refused.Message)
	var log []struct{ Text string }
	host.Get("/host/api/messages", &log)
	for _, m := range log {
		if strings.Contains(m.Text, "1d20+") {
			t.Fatalf("the refused private roll was stored: %+v", log)
		}
	}
	if r := host.Do("POST", "/host/api/messages", `{"text": "/r 1d20+4", "private": true}`); r.Status != http.StatusCreated {
		t.Fatalf("a good private roll: %d %s", r.Status, r.Body)
	}

	// Item 4: the Crab Knight's token is in the demo's fight already.
	r = host.Do("POST", "/host/api/combatants", `{"tokenId": "`+e2e.DemoKnightID+`"}`)
	e2e.WantAPIError(t, r, http.StatusConflict, "'Saltmarsh Crab Knight' is in combat already")

	// Item 3: a Goblin joins the seeded fight (19, 16, 14, 11, 7) with
	// initiative 12: it acts after Quill's 14, before the Knight's 11.
	var added []struct{ ID string }
	if r := host.Do("POST", "/host/api/combatants", `{"entityId": "5e0c0000-0000-4000-8000-000000000005"}`); r.Status != http.StatusCreated {
		t.Fatalf("add the Goblin: %d %s", r.Status, r.Body)
	} else {
		json.Unmarshal(r.Body, &added)
	}
	if r := host.Do("PUT", "/host/api/combatants/"+added[0].ID+"/initiative", `{"value": 12}`); r.Status != http.StatusOK {
		t.Fatalf("initiative 12: %d %s", r.Status, r.Body)
	}
	var camp struct {
		TurnOrder []struct{ Name string } `json:"turnOrder"`
	}
	host.Get("/host/api/campaign", &camp)
	var order []string
	for _, s := range camp.TurnOrder {
		order = append(order, s.Name)
	}
	if got := strings.Join(order, ", "); !strings.Contains(got, "Quill Marrowby C, Goblin, Saltmarsh Crab Knight K1") {
		t.Fatalf("turn order %s: want the Goblin between Quill (14) and the Knight (11)", got)
	}

	// Items 5 and 15: the Crab Knight (27 hit points, seeded without a
	// maximum) takes 5, then 10: 12 of 27 is bloodied; players, who see a
	// foe's health only as bloodied, get the first change as the turn
	// alone, the second with the lists; healing stops at 27.
	drain(player)
	hp := func(body string) map[string]any {
		t.Helper()
		r := host.Do("POST", "/host/api/combatants/"+e2e.DemoKnightCombatant+"/hitpoints", body)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", body, r.Status, r.Body)
		}
		return r.Object(t)
	}
	if c := hp(`{"damage": 5}`); c["data"].(map[string]any)["hit_points"] != 22.0 || c["bloodied"] != false {
		t.Fatalf("after 5 damage: %v", c["data"])
	}
	if game := player.WaitFor(gmWait, nil, "gameUpdated"); strings.Contains(string(game.Data), `"creatures"`) {
		t.Errorf("5 damage to a foe at full health sent players the lists again: %.300s", game.Data)
	}
	c := hp(`{"damage": 10}`)
	data := c["data"].(map[string]any)
	if data["hit_points"] != 12.0 || data["max_hit_points"] != 27.0 || c["bloodied"] != true {
		t.Fatalf("after 5 and 10 damage: %v bloodied %v, want 12 of 27, bloodied", data, c["bloodied"])
	}
	if game := player.WaitFor(gmWait, nil, "gameUpdated"); !strings.Contains(string(game.Data), `"creatures"`) || !strings.Contains(string(game.Data), `"bloodied":true`) {
		t.Errorf("the Knight bloodied: players got %.300s, want the lists with it bloodied", game.Data)
	}
	c = hp(`{"healing": 20}`)
	if c["data"].(map[string]any)["hit_points"] != 27.0 || c["bloodied"] != false {
		t.Fatalf("healed 20: %v, want 27", c["data"])
	}
}

// drain empties a socket's queue of received messages.
func drain(s *testkit.Socket) {
	for {
		select {
		case <-s.In:
		default:
			return
		}
	}
}
