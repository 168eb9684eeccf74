package tests

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
)

// TestWSRealBinary drives the WebSocket of the real companion process: the
// hub is wired, --remote-interaction=false starts with it off, the host
// console reports and changes it, and a foreign Origin is refused.
func TestWSRealBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	s := StartServer(t, ServerOptions{Args: []string{"--remote-interaction=false"}})
	var settings core.Settings
	if status := httpJSON(t, "GET", s.HostURL+"/host/api/settings", "", &settings); status != http.StatusOK || settings.RemoteInteraction {
		t.Fatalf("GET /host/api/settings: %d %+v, want remote interaction off", status, settings)
	}

	wsURL := "ws" + strings.TrimPrefix(s.URL, "http") + "/"
	conn, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatalf("dial: %v\n%s", err, s.Output())
	}
	defer conn.Close()
	read := func() wsMsg {
		t.Helper()
		conn.SetReadDeadline(time.Now().Add(wsWait))
		var m wsMsg
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
	httpJSON(t, "GET", s.URL+"/api/clients", "", &clients)
	if len(clients) != 1 || clients[0].Name != "Ellie" || clients[0].Address != "127.0.0.1" {
		t.Fatalf("GET /api/clients = %+v", clients)
	}

	httpJSON(t, "PATCH", s.HostURL+"/host/api/settings", `{"remoteInteraction": true}`, &settings)
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
