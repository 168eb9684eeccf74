package hub

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
)

// TestAuditWSHandlerPanicIsAnErrorReply: a bug in one event handler must
// not take the server down (HTTP has recoverPanics; the WebSocket reader
// runs outside it). The sender gets an internal error on its requestId,
// the panic is logged, and the connection keeps working.
func TestAuditWSHandlerPanicIsAnErrorReply(t *testing.T) {
	const name = "auditPanic"
	clientEvents[name] = &clientEvent{player: func(context.Context, *conn, json.RawMessage) (any, error) { panic("handler bug") }}
	t.Cleanup(func() { delete(clientEvents, name) })
	e := newHubEnv(t, Options{})
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	read := func(want string) map[string]any {
		t.Helper()
		for {
			ws.SetReadDeadline(time.Now().Add(5 * time.Second))
			var env map[string]any
			if err := ws.ReadJSON(&env); err != nil {
				t.Fatalf("waiting for %s: %v", want, err)
			}
			if env["responseId"] == want {
				return env
			}
		}
	}
	ws.WriteJSON(map[string]any{"name": name, "requestId": "p-1", "data": map[string]any{}})
	env := read("p-1")
	data, _ := env["data"].(map[string]any)
	if env["name"] != "error" || data["kind"] != "internal" || data["message"] != "internal error" {
		t.Fatalf("reply to a panicking handler: %v", env)
	}
	if !strings.Contains(e.logs.String(), "handler bug") {
		t.Fatalf("the panic is not logged:\n%s", e.logs.String())
	}
	ws.WriteJSON(map[string]any{"name": "updateToken", "requestId": "p-2", "data": map[string]any{"id": tokenA, "name": "still here"}})
	if env := read("p-2"); env["name"] != "updateToken" {
		t.Fatalf("after the panic: %v", env)
	}
}

// TestAuditWSHandlerTableIsContract62: the hub acts on exactly the client
// events of contract 6.2, parses the four it names as ignored, and adds
// only the seat events docs/api.md documents.
func TestAuditWSHandlerTableIsContract62(t *testing.T) {
	want := strings.Fields(`clientUpdated mapViewportUpdated tokenMoved updateDoor pointerUpdated updateToken updateEntity
		updateCombatant createMessage getAttribute setAttribute trackedObjectCreated trackedObjectUpdated
		trackedObjectDeleted trackedObjectsUpdated`)
	ignored := strings.Fields("createEntity createCombatant deleteEntity deleteCombatant")
	extensions := strings.Fields(`takeSeat leaveSeat setRole getCharacter updateCharacter changeHitPoints rollAction
		rollInitiative endTurn ping addMapObject updateMapObject deleteMapObject moveMapObject measure`)
	want = append(want, extensions...)
	if len(clientEvents) != len(want)+len(ignored) {
		t.Fatalf("%d rows, contract 6.2 names %d events and %d ignored ones, and %d are documented extensions",
			len(clientEvents), len(want)-len(extensions), len(ignored), len(extensions))
	}
	for _, name := range want {
		if ev := clientEvents[name]; ev == nil || ev.player == nil {
			t.Errorf("no handler for %s", name)
		}
	}
	for _, name := range ignored {
		if ev := clientEvents[name]; ev == nil || ev.player != nil || ev.host != nil {
			t.Errorf("%s must be parsed and ignored", name)
		}
	}
}

// TestAuditNonUTF8FrameIsRefused: a WebSocket text frame is UTF-8 (RFC
// 6455) and JSON text too (RFC 8259 8.1); encoding/json would quietly store
// U+FFFD for the bad bytes. A frame that is not gets an error reply on its
// requestId and nothing is written.
func TestAuditNonUTF8FrameIsRefused(t *testing.T) {
	e := newHubEnv(t, Options{})
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.WriteMessage(websocket.TextMessage, []byte("{\"name\":\"createMessage\",\"requestId\":\"u1\",\"data\":{\"text\":\"bad \xff\xfe\"}}"))
	for {
		ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		var env map[string]any
		if err := ws.ReadJSON(&env); err != nil {
			t.Fatal(err)
		}
		if env["responseId"] != "u1" {
			continue
		}
		if data, _ := env["data"].(map[string]any); env["name"] != "error" || !strings.Contains(data["message"].(string), "not UTF-8") {
			t.Fatalf("non-UTF-8 frame answered %v", env)
		}
		break
	}
	if ev := e.events.Take(); strings.Contains(ev, "messageCreated") {
		t.Fatalf("a non-UTF-8 message was stored: %s", ev)
	}
}

// TestEveryHandledEventIsDescribed: every handler answers a row of
// core.EventTable that clients may send (so the served description and
// the web client's types know the request and its reply), and every such
// row has a handler. The check itself is checked: a handler without a row
// and a row without its handler are both reported.
func TestEveryHandledEventIsDescribed(t *testing.T) {
	if problems := handlerProblems(); len(problems) > 0 {
		t.Fatalf("the hub's handlers and core.EventTable disagree:\n%s", strings.Join(problems, "\n"))
	}
	handlers["undescribedEvent"] = eventHandlers{player: onLeaveSeat}
	removed := handlers[core.RequestEndTurn]
	delete(handlers, core.RequestEndTurn)
	problems := strings.Join(handlerProblems(), "\n")
	delete(handlers, "undescribedEvent")
	handlers[core.RequestEndTurn] = removed
	if !strings.Contains(problems, "undescribedEvent: handled, but") || !strings.Contains(problems, "endTurn: described as a request") {
		t.Fatalf("a handler without a row and a row without a handler are not both reported:\n%s", problems)
	}
}

// TestPingAnswersAfterWhatCameBefore: a ping is answered, even without a
// requestId, and only after the frames sent before it were handled and
// what they changed was sent: the marker tests and tools rely on to show
// that something did not happen.
func TestPingAnswersAfterWhatCameBefore(t *testing.T) {
	e := newHubEnv(t, Options{})
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.WriteJSON(map[string]any{"name": "updateToken", "data": map[string]any{"id": tokenA, "name": "Before the ping"}})
	ws.WriteJSON(map[string]any{"name": core.RequestPing})
	var before []string
	for {
		ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		var env map[string]any
		if err := ws.ReadJSON(&env); err != nil {
			t.Fatalf("no answer to the ping (got %v): %v", before, err)
		}
		if env["name"] != core.RequestPing {
			data, _ := json.Marshal(env["data"])
			before = append(before, env["name"].(string)+" "+string(data))
			continue
		}
		if data, _ := env["data"].(map[string]any); data["ok"] != true || env["responseId"] != nil {
			t.Fatalf("the ping's answer: %v", env)
		}
		break
	}
	seen := false
	for _, m := range before {
		seen = seen || strings.HasPrefix(m, core.EventTokenUpdated+" ") && strings.Contains(m, "Before the ping") && strings.Contains(m, tokenA)
	}
	if !seen {
		t.Fatalf("the ping was answered before the change sent ahead of it reached the client:\n%s", strings.Join(before, "\n"))
	}
}
