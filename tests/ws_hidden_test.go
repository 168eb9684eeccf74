package tests

import (
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes"
)

// TestWSHiddenTokenReachesPlayersAsAStub: hiding a token tells players only
// that it is hidden; its name and place stay with the game master.
func TestWSHiddenTokenReachesPlayersAsAStub(t *testing.T) {
	e := newWSEnv(t, routes.HubOptions{})
	a, _ := e.connect(t)
	a.send(core.RequestUpdateToken, map[string]any{"id": wsTokenID, "name": "Secret Assassin", "hidden": true, "x": 77}, "h-1")
	msg := a.waitFor(core.EventTokenUpdated)
	var got map[string]any
	msg.decode(t, &got)
	if got["id"] != wsTokenID || got["hidden"] != true || len(got) != 2 {
		t.Fatalf("hidden token broadcast as %v, want only id and hidden", got)
	}
	if tok := e.token(t); tok.Name != "Secret Assassin" || !tok.Hidden || tok.X != 77 {
		t.Fatalf("the stored token lost the change: %+v", tok)
	}
	a.send(core.RequestUpdateToken, map[string]any{"id": wsTokenID, "hidden": false}, "h-2")
	msg = a.waitFor(core.EventTokenUpdated)
	var shown core.Token
	msg.decode(t, &shown)
	if shown.Hidden || !strings.Contains(shown.Name, "Secret Assassin") {
		t.Fatalf("revealed token broadcast as %+v", shown)
	}
}
