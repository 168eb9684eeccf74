package tests

import (
	"context"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
)

// TestWSHiddenTokenReachesPlayersAsAStub: hiding a token tells players only
// that it is hidden; its name and place stay with the game master.
func TestWSHiddenTokenReachesPlayersAsAStub(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, _ := e.connect(t)
	// Hiding is the game master's (the host console): a player's
	// updateToken keeps the stored hidden.
	a.send(core.RequestUpdateToken, map[string]any{"id": wsTokenID, "hidden": true}, "h-0")
	a.waitFor(core.EventTokenUpdated)
	if tok := e.token(t); tok.Hidden {
		t.Fatalf("a player hid the token: %+v", tok)
	}
	if _, err := e.svc.PatchToken(context.Background(), wsTokenID, core.Object{"name": "Secret Assassin", "hidden": true, "x": 77}); err != nil {
		t.Fatal(err)
	}
	msg := a.waitFor(core.EventTokenUpdated)
	var got map[string]any
	msg.decode(t, &got)
	if got["id"] != wsTokenID || got["hidden"] != true || got["size"] != "" || len(got) != 3 {
		t.Fatalf("hidden token broadcast as %v, want only id, hidden and the empty size", got)
	}
	if tok := e.token(t); tok.Name != "Secret Assassin" || !tok.Hidden || tok.X != 77 {
		t.Fatalf("the stored token lost the change: %+v", tok)
	}
	// For players the hidden token does not exist: they cannot reveal it.
	a.send(core.RequestUpdateToken, map[string]any{"id": wsTokenID, "hidden": false}, "h-1")
	if msg := a.waitFor("error"); !strings.Contains(string(msg.Data), "no token with id") {
		t.Fatalf("updateToken of a hidden token answered %s", msg.Data)
	}
	if tok := e.token(t); !tok.Hidden {
		t.Fatalf("a player revealed the token: %+v", tok)
	}
	if _, err := e.svc.PatchToken(context.Background(), wsTokenID, core.Object{"hidden": false}); err != nil {
		t.Fatal(err)
	}
	msg = a.waitFor(core.EventTokenUpdated)
	var shown core.Token
	msg.decode(t, &shown)
	if shown.Hidden || !strings.Contains(shown.Name, "Secret Assassin") {
		t.Fatalf("revealed token broadcast as %+v", shown)
	}
}
