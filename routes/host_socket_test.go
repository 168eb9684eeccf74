package routes

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/internal/testkit"
)

// liveSocket is a test WebSocket client (testkit.Socket) with the waits
// these tests use.
type liveSocket struct{ *testkit.Socket }

// hostSocket opens the host console's socket as its page does.
func (e *consoleEnv) hostSocket(t testing.TB) *liveSocket {
	return &liveSocket{testkit.Dial(t, e.host.URL+"/host/ws", http.Header{"Origin": {e.host.URL}})}
}

func (e *consoleEnv) playerSocket(t testing.TB) *liveSocket {
	return &liveSocket{testkit.Dial(t, e.public.URL+"/", nil)}
}

func (s *liveSocket) send(name, data string) { s.Send(name, data) }

// waitFor returns the first envelope named name whose data contains every
// part, failing after two seconds.
func (s *liveSocket) waitFor(name string, parts ...string) testkit.Envelope {
	return s.WaitFor(2*time.Second, nil, name, parts...)
}

// never fails when an envelope named name whose data contains part
// arrives before the marker event (name marker) does.
func (s *liveSocket) never(name, part, marker string) {
	t := s.T()
	t.Helper()
	s.WaitFor(2*time.Second, func(env testkit.Envelope) {
		if env.Name == name && strings.Contains(string(env.Data), part) {
			t.Fatalf("players received %s with %s: %s", name, part, env.Data)
		}
	}, marker)
}

func TestHostSocketRefusesOtherSites(t *testing.T) {
	e := newConsoleEnv(t)
	upgrade := func(host, origin string) int {
		r, _ := http.NewRequest("GET", e.host.URL+"/host/ws", nil)
		if host != "" {
			r.Host = host
		}
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		r.Header.Set("Connection", "Upgrade")
		r.Header.Set("Upgrade", "websocket")
		r.Header.Set("Sec-WebSocket-Version", "13")
		r.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := upgrade("", "http://evil.example"); got != http.StatusForbidden {
		t.Fatalf("foreign Origin: status %d, want 403", got)
	}
	if got := upgrade("evil.example", ""); got != http.StatusForbidden {
		t.Fatalf("foreign Host (DNS rebinding): status %d, want 403", got)
	}
	// A tool on the device (no Origin) and the console's page are let in.
	(&liveSocket{testkit.Dial(t, e.host.URL+"/host/ws", nil)}).waitFor("app")
	e.hostSocket(t).waitFor("app")
}

func TestHostSocketSeesWhatPlayersDoNot(t *testing.T) {
	e := newConsoleEnv(t)
	ctx := context.Background()
	host, player := e.hostSocket(t), e.playerSocket(t)
	host.waitFor("app")
	player.waitFor("app")

	if _, err := e.svc.PatchToken(ctx, tokenA, core.Object{"hidden": true}); err != nil {
		t.Fatal(err)
	}
	host.waitFor("tokenUpdated", `"name":"A"`, `"hidden":true`)
	got := player.waitFor("tokenUpdated", tokenA)
	if strings.Contains(string(got.Data), `"name"`) || !strings.Contains(string(got.Data), `"hidden":true`) {
		t.Fatalf("players got %s, want only {id, hidden}", got.Data)
	}

	// The game master is not among the players' clients, and no one was
	// told the console connected.
	var clients []core.Client
	e.decode(t, e.call(t, "GET", "/host/api/clients", ""), 200, &clients)
	if len(clients) != 1 {
		t.Fatalf("clients = %+v, want the player alone", clients)
	}
}

func TestHostDragsAnyTokenWhateverTheInteraction(t *testing.T) {
	e := newConsoleEnv(t)
	ctx := context.Background()
	if _, err := e.svc.UpdateSettings(ctx, engine.SettingsPatch{Interaction: ptr(core.InteractionNone)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.PatchToken(ctx, tokenB, core.Object{"locked": true}); err != nil {
		t.Fatal(err)
	}
	host, player := e.hostSocket(t), e.playerSocket(t)
	player.waitFor("app")
	host.waitFor("app")
	host.send("tokenMoved", `{"id":"`+tokenB+`","x":140,"y":70,"state":"start"}`)
	player.waitFor("tokenMoved", tokenB, `"state":"start"`)
	host.send("tokenMoved", `{"id":"`+tokenB+`","x":210,"y":70,"state":"end"}`)
	player.waitFor("tokenMoved", tokenB, `"state":"end"`, `"x":210`)
	player.waitFor("tokenUpdated", tokenB, `"x":210`)
	tok, err := e.svc.Token(ctx, tokenB)
	if err != nil || tok.X != 210 {
		t.Fatalf("stored token %+v, %v: want x 210", tok, err)
	}

	// A hidden token's drag reaches the host alone.
	if _, err := e.svc.PatchToken(ctx, tokenA, core.Object{"hidden": true}); err != nil {
		t.Fatal(err)
	}
	host.send("tokenMoved", `{"id":"`+tokenA+`","x":350,"y":350,"state":"start"}`)
	host.waitFor("tokenMoved", tokenA, `"state":"start"`)
	host.send("tokenMoved", `{"id":"`+tokenA+`","x":420,"y":350,"state":"end"}`)
	host.waitFor("tokenUpdated", tokenA, `"x":420`)
	e.svc.Publish(core.Event{Name: core.EventSystemPaused, Data: false}) // a marker after the drag
	player.never("tokenMoved", tokenA, core.EventSystemPaused)
}

func ptr[T any](v T) *T { return &v }

func TestHostLeavingMidDragOfAHiddenTokenTellsPlayersNothing(t *testing.T) {
	e := newConsoleEnv(t)
	ctx := context.Background()
	if _, err := e.svc.PatchToken(ctx, tokenA, core.Object{"hidden": true}); err != nil {
		t.Fatal(err)
	}
	host, player := e.hostSocket(t), e.playerSocket(t)
	player.waitFor("app")
	host.waitFor("app")
	host.send("tokenMoved", `{"id":"`+tokenA+`","x":500,"y":500,"state":"start"}`)
	host.waitFor("tokenMoved", tokenA, `"state":"start"`)
	host.Conn.Close() // the drag is cancelled for the host alone
	deadline := time.Now().Add(2 * time.Second)
	for e.svc.Drags().Dragging(tokenA) != "" {
		if time.Now().After(deadline) {
			t.Fatal("the host's drag outlived its socket")
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.svc.Publish(core.Event{Name: core.EventSystemPaused, Data: false})
	player.never("tokenMoved", tokenA, core.EventSystemPaused)
}

func TestHostSocketOpensDoorsAndGetsWholeReplies(t *testing.T) {
	e := newConsoleEnv(t)
	e.sizeCave(t)
	if _, err := e.svc.UpdateSettings(context.Background(), engine.SettingsPatch{Interaction: ptr(core.InteractionNone)}); err != nil {
		t.Fatal(err)
	}
	host, player := e.hostSocket(t), e.playerSocket(t)
	host.waitFor("app")
	player.waitFor("app")
	host.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateDoor","data":{"mapId":"`+mapID+`","id":"`+consoleDoorID+`","state":"open"},"requestId":"d1"}`))
	player.waitFor("mapUpdated", `"door":"open"`)
	// A player asking the same is refused: interaction is off.
	player.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateDoor","data":{"mapId":"`+mapID+`","id":"`+consoleDoorID+`","state":"closed"},"requestId":"d2"}`))
	player.waitFor("error", "updateDoor")

	// The host's reply to hiding a token is the whole token.
	host.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateToken","data":{"id":"`+tokenA+`","hidden":true},"requestId":"t1"}`))
	host.waitFor("updateToken", `"name":"A"`, `"hidden":true`)
}
