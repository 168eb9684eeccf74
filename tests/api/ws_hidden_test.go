package api

import (
	"context"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/tests/e2e"
)

// TestWSHiddenTokenReachesPlayersAsAStub: hiding a token tells players only
// that it is hidden; its name and place stay with the game master.
func TestWSHiddenTokenReachesPlayersAsAStub(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	// Hiding is the game master's (the host console): a player's
	// updateToken keeps the stored hidden.
	a.Send(core.RequestUpdateToken, map[string]any{"id": e2e.WsTokenID, "hidden": true}, "h-0")
	a.WaitFor(core.EventTokenUpdated)
	if tok := e.Token(t); tok.Hidden {
		t.Fatalf("a player hid the token: %+v", tok)
	}
	if _, err := e.Svc.PatchToken(context.Background(), e2e.WsTokenID, core.Object{"name": "Secret Assassin", "hidden": true, "x": 77}); err != nil {
		t.Fatal(err)
	}
	msg := a.WaitFor(core.EventTokenUpdated)
	var got map[string]any
	msg.Decode(t, &got)
	if got["id"] != e2e.WsTokenID || got["hidden"] != true || got["size"] != "" || len(got) != 3 {
		t.Fatalf("hidden token broadcast as %v, want only id, hidden and the empty size", got)
	}
	if tok := e.Token(t); tok.Name != "Secret Assassin" || !tok.Hidden || tok.X != 77 {
		t.Fatalf("the stored token lost the change: %+v", tok)
	}
	// For players the hidden token does not exist: they cannot reveal it.
	a.Send(core.RequestUpdateToken, map[string]any{"id": e2e.WsTokenID, "hidden": false}, "h-1")
	if msg := a.WaitFor("error"); !strings.Contains(string(msg.Data), "no token with id") {
		t.Fatalf("updateToken of a hidden token answered %s", msg.Data)
	}
	if tok := e.Token(t); !tok.Hidden {
		t.Fatalf("a player revealed the token: %+v", tok)
	}
	if _, err := e.Svc.PatchToken(context.Background(), e2e.WsTokenID, core.Object{"hidden": false}); err != nil {
		t.Fatal(err)
	}
	msg = a.WaitFor(core.EventTokenUpdated)
	var shown core.Token
	msg.Decode(t, &shown)
	if shown.Hidden || !strings.Contains(shown.Name, "Secret Assassin") {
		t.Fatalf("revealed token broadcast as %+v", shown)
	}
}
