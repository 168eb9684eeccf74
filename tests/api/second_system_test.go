package api

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/vttapp/companion/tests/e2e"
)

// The second system's demo ids (examples/lanternlight/sample).
const (
	lanternMaud = "1a47e000-0000-4000-8000-000000000001"
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
}
