package api

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// The binary's hot reload, end to end: the system watcher (systems owns
// it; cmd/companion only starts it) tells every WebSocket client reload
// when a good edit goes live, records the outcome for the host console,
// and on a broken edit records the file:line error and tells no one.
func TestServeHotReloadTellsClientsAndTheConsole(t *testing.T) {
	sys := e2e.DemoSystem(t, nil)
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}})
	player := testkit.Dial(t, srv.URL+"/", nil)
	player.WaitFor(10*time.Second, nil, "app")

	type reloadStatus struct {
		Watching   string `json:"watching"`
		LastReload *struct {
			OK      bool   `json:"ok"`
			Error   string `json:"error"`
			Version string `json:"version"`
		} `json:"lastReload"`
	}
	status := func() reloadStatus {
		t.Helper()
		var s reloadStatus
		code, body := testkit.Do(t, http.MethodGet, srv.HostURL+"/host/api/system", "", nil)
		if code != http.StatusOK || json.Unmarshal(body, &s) != nil {
			t.Fatalf("GET /host/api/system: %d %s", code, body)
		}
		return s
	}
	if s := status(); s.Watching != sys || s.LastReload != nil {
		t.Fatalf("before any edit: %+v", s)
	}

	entry := filepath.Join(sys, "system.lua")
	good, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, append(good, []byte("\n-- an edit\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	env := player.WaitFor(30*time.Second, nil, "reload", `"system":"dnd5e"`)
	if s := status(); s.LastReload == nil || !s.LastReload.OK || !strings.Contains(string(env.Data), s.LastReload.Version) {
		t.Fatalf("after a good edit: %+v, reload event %s", s.LastReload, env.Data)
	}

	if err := os.WriteFile(entry, append(good, []byte("\nlocal broken = (\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	s := status()
	for s.LastReload == nil || s.LastReload.OK {
		if time.Now().After(deadline) {
			t.Fatalf("no failed reload recorded within 30s: %+v\n%s", s.LastReload, srv.Output())
		}
		time.Sleep(50 * time.Millisecond)
		s = status()
	}
	if !strings.Contains(s.LastReload.Error, "system.lua:") {
		t.Fatalf("the failed reload's error does not name system.lua:line: %q", s.LastReload.Error)
	}
	// Nothing told the player of the broken edit: the next event it gets is
	// one made after it (a message), not a reload.
	if code, body := testkit.Do(t, http.MethodPost, srv.URL+"/api/messages", "application/json", strings.NewReader(`{"text":"after the broken edit"}`)); code >= 300 {
		t.Fatalf("POST /api/messages: %d %s", code, body)
	}
	player.WaitFor(10*time.Second, func(e testkit.Envelope) {
		if e.Name == "reload" {
			t.Fatalf("a broken edit sent reload: %s", e.Data)
		}
	}, "messageCreated", "after the broken edit")
}
