package party

import (
	"encoding/json"
	"fmt"
	"image/color"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// TestPartialVisionFollowsTheTurn: a plain map in daylight, a wall down
// its middle, Brannoc's token west of it and Quill's east, both seeing.
// With the screen's shared vision "partial", a player who plays neither
// sees both rooms out of combat; in combat only the room of the party
// token whose turn it is, and nothing on a foe's turn; "always" shows
// both whatever the turn.
func TestPartialVisionFollowsTheTurn(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	call := func(method, path, body string, want int) []byte {
		t.Helper()
		r := host.Do(method, path, body)
		if r.Status != want {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		return r.Body
	}
	mapID, _, _ := e2e.ShownPictureMap(t, srv, "Two rooms", plainPNG(t, 700, color.RGBA{R: 200, G: 200, B: 200, A: 255}), 70)
	call("POST", "/host/api/maps/"+mapID+"/walls", `{"data": [350, 0, 350, 700]}`, 201)
	call("PATCH", "/host/api/maps/"+mapID, `{"lineOfSight": true, "losDaylight": 1}`, 200)
	place := func(char string, x float64) string {
		var tok struct{ ID string }
		json.Unmarshal(call("POST", "/host/api/maps/"+mapID+"/tokens", fmt.Sprintf(`{"entityId": %q, "x": %g, "y": 350}`, char, x), 201), &tok)
		call("PATCH", "/host/api/tokens/"+tok.ID, `{"role": "friendly", "player": true, "vision": {"id": "v-`+tok.ID+`", "enabled": true}}`, 200)
		// The character's combatant of the demo fight now stands for this token.
		call("POST", "/host/api/combatants", fmt.Sprintf(`{"tokenId": %q}`, tok.ID), 201)
		return tok.ID
	}
	place(e2e.DemoBrannocChar, 175)
	place(e2e.DemoQuillChar, 525)
	call("PUT", "/host/api/screen/vision", `{"sharedVision": "partial"}`, 200)

	p := e2e.OpenPlayer(t, srv, "Onlooker", e2e.DesktopSize, "")
	sees := func(what string, west, east bool) {
		t.Helper()
		p.WaitFor(what, fmt.Sprintf(`window.companionDebug.isVisibleAt(175, 200) === %t && window.companionDebug.isVisibleAt(525, 200) === %t`, west, east), 15*time.Second)
	}
	var game struct {
		Game struct{ CombatantID string } `json:"game"`
	}
	acting := func() string {
		json.Unmarshal(call("GET", "/host/api/campaign", "", 200), &game)
		return game.Game.CombatantID
	}
	if acting() == "" {
		call("POST", "/host/api/game/start", "", 200)
	}
	// The demo fight's order: Ilsa (her token is on the demo map), the
	// hound, Quill, the knight, Brannoc.
	turns := []struct {
		what       string
		west, east bool
	}{
		{"Ilsa's turn, off this map: no one's sight here", false, false},
		{"the hound's turn: no one's sight", false, false},
		{"Quill's turn: the east room alone", false, true},
		{"the knight's turn: no one's sight", false, false},
		{"Brannoc's turn: the west room alone", true, false},
	}
	for i, turn := range turns {
		if i > 0 {
			call("POST", "/host/api/game/next", "", 200)
		}
		sees(turn.what, turn.west, turn.east)
	}
	call("PUT", "/host/api/screen/vision", `{"sharedVision": "always"}`, 200)
	sees(`"always" in combat: both rooms`, true, true)
	call("PUT", "/host/api/screen/vision", `{"sharedVision": "partial"}`, 200)
	sees(`"partial" again on Brannoc's turn`, true, false)
	call("POST", "/host/api/game/end", "", 200)
	sees("out of combat: the party's sight, both rooms", true, true)
}
