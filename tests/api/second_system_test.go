package api

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/vttapp/companion/tests/e2e"
)

// The second system's demo ids (examples/lanternlight/sample).
const (
	lanternMaud        = "1a47e000-0000-4000-8000-000000000001"
	lanternEdwin       = "1a47e000-0000-4000-8000-000000000002"
	lanternEdwinInGame = "1a47e000-0000-4000-8000-000000000501"
	lanternMaudInGame  = "1a47e000-0000-4000-8000-000000000502"
	lanternWightInGame = "1a47e000-0000-4000-8000-000000000503"
)

// TestASecondSystemPlaysEndToEnd: companion --system examples/lanternlight
// seeds its own demo campaign; a phone takes an investigator's seat, reads
// a sheet with the system's options, health and tallies and none of D&D's
// words, and rolls a skill with a bonus die: the roll is the system's
// formula and the chat carries the outcome the system names. An option the
// action does not take is refused, and nothing is posted for it.
func TestASecondSystemPlaysEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--join-key", "--system", "../../examples/lanternlight"}})
	key, _ := joinLinks(t, srv)
	maud := phone(t, srv, key, "Alice")
	maud.send("takeSeat", map[string]any{"seatId": lanternMaud, "player": "Alice"}, "seat")
	if _, seat := maud.answer("seat"); seat["seatToken"] == nil {
		t.Fatalf("the seat: %v", seat)
	}
	maud.send("getCharacter", nil, "sheet")
	_, sheet := maud.answer("sheet")
	raw, _ := json.Marshal(sheet)
	for _, word := range []string{"advantage", "hit_points", "death", "d20", "critical"} {
		if strings.Contains(strings.ToLower(string(raw)), word) {
			t.Errorf("the investigator's sheet says %q: %s", word, raw)
		}
	}
	hp, _ := sheet["hitPoints"].(map[string]any)
	tallies, _ := sheet["tallies"].([]any)
	options, _ := sheet["rollOptions"].([]any)
	if hp["key"] != "vigour" || hp["title"] != "Vigour" || hp["current"] != 9.0 || len(tallies) != 1 || len(options) != 3 {
		t.Fatalf("the sheet's health, tallies and options: %v %v %v", hp, tallies, options)
	}

	maud.send("rollAction", map[string]any{"action": "skill-spot-hidden", "options": []string{"bonus"}}, "roll")
	name, res := maud.answer("roll")
	outcome, _ := res["outcome"].(map[string]any)
	if name != "rollAction" || outcome == nil {
		t.Fatalf("the roll: %s %v", name, res)
	}
	title, _ := outcome["title"].(string)
	if !regexp.MustCompile(`^(Extreme success|Hard success|Regular success|Failure|Blunder)$`).MatchString(title) {
		t.Fatalf("the outcome %v is not one the system declares", outcome)
	}
	maud.waitFor(`"messageCreated"`, `"name":"Spot Hidden (60%) (bonus die)"`, `"formula":"2d100kl1"`, `"outcome":"`+title+`"`)

	// A struggle asks for its harm: the follow-up rolls after it.
	maud.send("rollAction", map[string]any{"action": "struggle-boathook-swing", "follow": true}, "swing")
	if _, res := maud.answer("swing"); len(res["messages"].([]any)) != 2 {
		t.Fatalf("the struggle and its harm: %v", res)
	}

	before := len(maud.all())
	maud.send("rollAction", map[string]any{"action": "skill-spot-hidden", "options": []string{"advantage"}}, "bad")
	if name, v := maud.answer("bad"); name != "error" || !strings.Contains(v["message"].(string), "bonus, penalty") {
		t.Fatalf("an option the action does not take: %s %v", name, v)
	}
	for _, f := range maud.all()[before:] {
		if strings.Contains(string(f), `"messageCreated"`) {
			t.Fatalf("a refused roll posted: %s", f)
		}
	}

	passATurnRound(t, srv, key, maud)
}

// passATurnRound: Lanternlight declares combat.turns "passed". The demo's
// combat starts with Edwin acting; his player hands the turn to Maud, who
// may not hand it back (Edwin has acted this round) and has no initiative
// to roll; she hands it to the Tide Wight, and the game master, passing
// the Wight's turn to Edwin again, starts round 2 (everyone had acted).
// Every phone hears who acted.
func passATurnRound(t *testing.T, srv *e2e.Server, key string, maud *seatPhone) {
	t.Helper()
	edwin := phone(t, srv, key, "Bo")
	edwin.send("takeSeat", map[string]any{"seatId": lanternEdwin, "player": "Bo"}, "seat")
	edwin.answer("seat")

	maud.send("endTurn", map[string]any{"to": lanternWightInGame}, "not-mine")
	if name, v := maud.answer("not-mine"); name != "error" || !strings.Contains(v["message"].(string), "not Maud Gallager's turn") {
		t.Fatalf("Maud ended Edwin's turn: %s %v", name, v)
	}
	edwin.send("endTurn", map[string]any{"to": lanternMaudInGame}, "to-maud")
	if name, g := edwin.answer("to-maud"); name != "endTurn" || g["combatantId"] != lanternMaudInGame || g["round"] != 1.0 {
		t.Fatalf("Edwin passed to Maud: %s %v", name, g)
	}
	maud.waitFor(`"gameUpdated"`, `"combatantId":"`+lanternMaudInGame+`"`, `"acted":["`+lanternEdwinInGame+`"]`)
	maud.send("getCharacter", nil, "my-turn")
	if _, sheet := maud.answer("my-turn"); sheet["turns"] != "passed" || sheet["myTurn"] != true ||
		fmt.Sprint(sheet["passTo"]) != fmt.Sprintf("[map[id:%s name:Tide Wight W]]", lanternWightInGame) {
		t.Fatalf("Maud's sheet on her turn: turns %v, myTurn %v, passTo %v", sheet["turns"], sheet["myTurn"], sheet["passTo"])
	}

	maud.send("endTurn", map[string]any{"to": lanternEdwinInGame}, "back")
	if name, v := maud.answer("back"); name != "error" || !strings.Contains(v["message"].(string), "has acted this round") {
		t.Fatalf("Maud passed back to Edwin, who had acted: %s %v", name, v)
	}
	maud.send("rollInitiative", nil, "init")
	if name, v := maud.answer("init"); name != "error" || !strings.Contains(v["message"].(string), "no initiative") {
		t.Fatalf("an initiative roll in a game that passes turns: %s %v", name, v)
	}
	maud.send("endTurn", map[string]any{"to": lanternWightInGame}, "to-wight")
	if _, g := maud.answer("to-wight"); g["combatantId"] != lanternWightInGame {
		t.Fatalf("Maud passed to the Wight: %v", g)
	}

	status, body := e2e.HostCall(t, srv, "POST", "/host/api/game/pass", `{"to":"`+lanternEdwinInGame+`"}`)
	var answer struct {
		Game struct {
			Round       int
			CombatantID string
			Acted       []string
		}
	}
	json.Unmarshal(body, &answer)
	if status != 200 || answer.Game.Round != 2 || answer.Game.CombatantID != lanternEdwinInGame || len(answer.Game.Acted) != 0 {
		t.Fatalf("the game master passed the Wight's turn: %d %s", status, body)
	}
	edwin.waitFor(`"gameUpdated"`, `"round":2`, `"combatantId":"`+lanternEdwinInGame+`"`)
	if status, body := e2e.HostCall(t, srv, "POST", "/host/api/game/pass", `{"to":"nobody"}`); status != 404 {
		t.Fatalf("a pass to no one: %d %s", status, body)
	}
}
