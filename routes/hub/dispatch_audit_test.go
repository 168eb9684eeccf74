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
	handlers[name] = func(context.Context, *conn, json.RawMessage) (any, error) { panic("handler bug") }
	t.Cleanup(func() { delete(handlers, name) })
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
// events of contract 6.2 and parses the four it names as ignored.
func TestAuditWSHandlerTableIsContract62(t *testing.T) {
	want := strings.Fields(`clientUpdated mapViewportUpdated tokenMoved updateDoor pointerUpdated updateToken updateEntity
		updateCombatant createMessage getAttribute setAttribute trackedObjectCreated trackedObjectUpdated
		trackedObjectDeleted trackedObjectsUpdated`)
	if len(handlers) != len(want) {
		t.Fatalf("%d handlers, contract 6.2 has %d events", len(handlers), len(want))
	}
	for _, name := range want {
		if handlers[name] == nil {
			t.Errorf("no handler for %s", name)
		}
	}
	ignored := strings.Fields("createEntity createCombatant deleteEntity deleteCombatant")
	if len(ignoredRequests) != len(ignored) {
		t.Fatalf("ignored names %v", ignoredRequests)
	}
	for _, name := range ignored {
		if !ignoredRequests[name] || handlers[name] != nil {
			t.Errorf("%s must be parsed and ignored", name)
		}
	}
}

// TestAuditForPlayersHidesHiddenMarkers: a map broadcast by any path
// (host console, importer) reaches players without hidden markers, tiles,
// area effects or measurements, as GET /api does.
func TestAuditForPlayersHidesHiddenMarkers(t *testing.T) {
	m := &core.Map{ID: "m", Name: "Cave",
		Markers:      []core.Object{{"id": "k1", "name": "SECRET-NOTE"}, {"id": "k2", "name": "Door", "hidden": false}},
		Tiles:        []core.Object{{"id": "t1", "hidden": true, "reference": "SECRET-TILE"}},
		Measurements: []core.Object{{"id": "x1", "hidden": true, "color": "SECRET-RULER"}}}
	b, _ := json.Marshal(forPlayers(m))
	if strings.Contains(string(b), "SECRET") || !strings.Contains(string(b), `"k2"`) {
		t.Fatalf("map as players see it: %s", b)
	}
	if len(m.Markers) != 2 || len(m.Tiles) != 1 {
		t.Fatal("forPlayers changed the stored map")
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
