package api

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// TestServeSeedsAndStopsCleanly is issue 2's acceptance: a fresh data folder
// gets the demo campaign, GET / and GET /api answer, and SIGINT stops the
// process with exit code 0.
func TestServeSeedsAndStopsCleanly(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{})
	out := s.Output()
	for _, want := range []string{"Companion ", "Players can open:", s.URL + "/", "Host console (this device only): " + s.HostURL + "/host/", "Data folder: " + s.DataDir} {
		if !strings.Contains(out, want) {
			t.Errorf("banner lacks %q:\n%s", want, out)
		}
	}
	if code, _ := get(t, s.URL+"/"); code != http.StatusOK {
		t.Errorf("GET / = %d", code)
	}
	code, body := get(t, s.URL+"/api")
	if code != http.StatusOK {
		t.Fatalf("GET /api = %d: %s", code, body)
	}
	var snap struct {
		Version string `json:"version"`
		Build   int    `json:"build"`
		Game    struct {
			Combatants []map[string]any `json:"combatants"`
		} `json:"game"`
		Map *struct {
			ID     string           `json:"id"`
			Tokens []map[string]any `json:"tokens"`
		} `json:"map"`
		Messages []any `json:"messages"`
	}
	if err := json.Unmarshal([]byte(body), &snap); err != nil {
		t.Fatalf("GET /api: %v", err)
	}
	if snap.Version == "" || snap.Build == 0 || len(snap.Game.Combatants) == 0 || snap.Map == nil || len(snap.Map.Tokens) == 0 {
		t.Fatalf("seeded snapshot incomplete: %s", body)
	}

	s.Stop(t)
	exited, code2 := s.Exited()
	if !exited || code2 != 0 {
		t.Fatalf("after SIGINT: exited=%v code=%d\n%s", exited, code2, s.Output())
	}
	if !strings.Contains(s.Output(), "shutting down") {
		t.Errorf("no shutdown log line:\n%s", s.Output())
	}

	// A restart on the same data folder keeps the data and seeds nothing again.
	again := e2e.StartServer(t, e2e.ServerOptions{DataDir: s.DataDir})
	_, body2 := get(t, again.URL+"/api")
	var snap2 struct {
		Game struct {
			Combatants []map[string]any `json:"combatants"`
		} `json:"game"`
	}
	json.Unmarshal([]byte(body2), &snap2)
	if len(snap2.Game.Combatants) != len(snap.Game.Combatants) {
		t.Fatalf("restart changed the campaign: %d combatants, had %d", len(snap2.Game.Combatants), len(snap.Game.Combatants))
	}
	if strings.Contains(again.Output(), "seeded demo content") {
		t.Fatalf("restart seeded again:\n%s", again.Output())
	}
}

// TestServeEmptyHasNoCampaign: --empty seeds nothing, so GET /api is 404
// with a {"message": ...} body.
func TestServeEmptyHasNoCampaign(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--empty"}})
	code, body := get(t, s.URL+"/api")
	if code != http.StatusNotFound {
		t.Fatalf("GET /api with --empty = %d: %s", code, body)
	}
	var e map[string]any
	if err := json.Unmarshal([]byte(body), &e); err != nil || len(e) != 1 || e["message"] == "" || e["message"] == nil {
		t.Fatalf("want a one-key {\"message\": ...} body, got %s", body)
	}
}

// TestServeRefusesPublicHostConsole: the host console must stay on loopback.
func TestServeRefusesPublicHostConsole(t *testing.T) {
	bin := e2e.CompanionBinary(t)
	out, code := e2e.RunBinary(t, bin, "serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--host-addr", "0.0.0.0:0")
	if code != 2 || !strings.Contains(out, "loopback") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestVersionCommand(t *testing.T) {
	out, code := e2e.RunBinary(t, e2e.CompanionBinary(t), "version")
	if code != 0 || !strings.HasPrefix(out, "companion ") || !strings.Contains(out, "build") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

func get(t testing.TB, url string) (int, string) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
