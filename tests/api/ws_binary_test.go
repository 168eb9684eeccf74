package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/tests/e2e"
)

// TestWSRealBinary drives the WebSocket of the real companion process: the
// hub is wired, --remote-interaction=false starts with it off, the host
// console reports and changes it, and a foreign Origin is refused.
func TestWSRealBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	s := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--remote-interaction=false"}})
	var settings core.Settings
	if status := e2e.HttpJSON(t, "GET", s.HostURL+"/host/api/settings", "", &settings); status != http.StatusOK || settings.RemoteInteraction {
		t.Fatalf("GET /host/api/settings: %d %+v, want remote interaction off", status, settings)
	}

	wsURL := "ws" + strings.TrimPrefix(s.URL, "http") + "/"
	conn, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatalf("dial: %v\n%s", err, s.Output())
	}
	defer conn.Close()
	read := func() e2e.WsMsg {
		t.Helper()
		conn.SetReadDeadline(time.Now().Add(e2e.WsWait))
		var m e2e.WsMsg
		if err := conn.ReadJSON(&m); err != nil {
			t.Fatalf("read: %v", err)
		}
		return m
	}
	var app struct {
		Version string `json:"version"`
		Build   int    `json:"build"`
	}
	m := read()
	if m.Name != core.EventApp {
		t.Fatalf("first message %s", m.Name)
	}
	json.Unmarshal(m.Data, &app)
	if app.Version == "" || app.Build == 0 {
		t.Fatalf("app %s", m.Data)
	}
	if m := read(); m.Name != core.EventClientConnected {
		t.Fatalf("second message %s", m.Name)
	}

	send := func(name string, data any, id string) {
		t.Helper()
		if err := conn.WriteJSON(map[string]any{"name": name, "data": data, "requestId": id}); err != nil {
			t.Fatal(err)
		}
	}
	send(core.EventPointerUpdated, map[string]any{"x": 1, "y": 2}, "p-1")
	if m := read(); m.Name != "error" || string(m.ResponseID) != `"p-1"` {
		t.Fatalf("pointer with remote interaction off answered %s %s", m.Name, m.ResponseID)
	}
	send(core.EventClientUpdated, map[string]any{"name": "Ellie", "color": "#ff8800"}, "c-1")
	if m := read(); m.Name != core.EventClientUpdated {
		t.Fatalf("clientUpdated answered %s", m.Name)
	}
	var clients []core.Client
	e2e.HttpJSON(t, "GET", s.URL+"/api/clients", "", &clients)
	if len(clients) != 1 || clients[0].Name != "Ellie" || clients[0].Address != "" {
		t.Fatalf("GET /api/clients = %+v (players see no address)", clients)
	}
	e2e.HttpJSON(t, "GET", s.HostURL+"/host/api/clients", "", &clients)
	if len(clients) != 1 || clients[0].Address != "127.0.0.1" {
		t.Fatalf("GET /host/api/clients = %+v (the game master sees the address)", clients)
	}

	e2e.HttpJSON(t, "PATCH", s.HostURL+"/host/api/settings", `{"remoteInteraction": true}`, &settings)
	for {
		if m := read(); m.Name == core.EventInteractionUpdated {
			break
		}
	}
	send(core.EventPointerUpdated, map[string]any{"x": 1, "y": 2}, "p-2")
	if m := read(); m.Name != core.EventPointerUpdated {
		t.Fatalf("pointer with remote interaction on: %s %s", m.Name, m.Data)
	}

	h := http.Header{}
	h.Set("Origin", "https://evil.example")
	if _, resp, err := websocket.DefaultDialer.Dial(wsURL, h); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("foreign Origin: %v, want 403", err)
	}
}

// TestWSFloodLimitFlags: --max-clients and --client-rate reach the hub of
// the real process: a second client past a cap of one is refused 503, and
// a client past its request rate gets "rate limited" replies.
func TestWSFloodLimitFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	s := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--max-clients", "1", "--client-rate", "1"}})
	wsURL := "ws" + strings.TrimPrefix(s.URL, "http") + "/"
	conn, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatalf("dial: %v\n%s", err, s.Output())
	}
	defer conn.Close()
	second, resp, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err == nil {
		second.Close()
		t.Fatal("a second client connected past --max-clients 1")
	}
	if resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("second client: %v %v, want 503", resp, err)
	}
	// A burst of 2 (twice the rate) passes, the rest of a quick burst of 6
	// is refused.
	for i := 0; i < 6; i++ {
		if err := conn.WriteJSON(map[string]any{"name": core.RequestCreateMessage, "data": map[string]any{"text": "hello"}, "requestId": fmt.Sprint("r", i)}); err != nil {
			t.Fatal(err)
		}
	}
	limited := 0
	deadline := time.Now().Add(e2e.WsWait)
	for answered := 0; answered < 6 && time.Now().Before(deadline); {
		conn.SetReadDeadline(deadline)
		var m e2e.WsMsg
		if err := conn.ReadJSON(&m); err != nil {
			t.Fatalf("read: %v (%d answered)", err, answered)
		}
		if len(m.ResponseID) == 0 {
			continue // a broadcast, not an answer
		}
		answered++
		if m.Name == "error" && strings.Contains(string(m.Data), `"rate limited"`) {
			limited++
		}
	}
	// 4 when the six arrive within a second; fewer if the machine is so
	// slow that tokens refill meanwhile, but never none (the default
	// burst of 100 would let all six through).
	if limited == 0 || limited > 4 {
		t.Fatalf("%d of 6 quick requests were rate limited, want 4", limited)
	}
}
