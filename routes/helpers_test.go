package routes

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/guard"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/store/sqlite"
	"github.com/vttapp/companion/systems"
)

// Fixture ids: the campaign testkit.SeedFixture stores.
const (
	campaignID   = testkit.CampaignID
	goblinID     = testkit.GoblinID
	shifterID    = testkit.ShifterID
	fireballID   = testkit.FireballID
	heroID       = testkit.HeroID
	heroCombatID = testkit.HeroCombatID
	mapID        = testkit.MapID
	tokenA       = testkit.TokenA
	tokenB       = testkit.TokenB
)

// testEnv is a public handler over a real SQLite store and the dnd5e system.
type testEnv struct {
	srv     *httptest.Server
	svc     *engine.Service
	store   *sqlite.Store
	events  *testkit.EventLog
	dataDir string
	logs    *testkit.LogBuffer
	holder  *systems.Holder
}

type envOptions struct {
	noCampaign   bool
	maxBodyBytes int64
	bodyTimes    guard.BodyTimes
	seed         func(tx core.Tx) error
}

func newEnv(t testing.TB, opt envOptions) *testEnv {
	t.Helper()
	g := testkit.NewGame(t, testkit.GameOptions{NoCampaign: opt.noCampaign, Seed: opt.seed})
	live := hub.New(g.Service, g.Bus, g.Log, hub.Options{})
	cfg := Config{
		Service: g.Service, Hub: live, Systems: g.Holder, DataDir: g.DataDir, MaxBodyBytes: opt.maxBodyBytes, Log: g.Log,
		BodyTimes: opt.bodyTimes,
	}
	srv := httptest.NewServer(NewPublicHandler(cfg))
	t.Cleanup(func() { live.Close(); srv.Close() })
	return &testEnv{srv: srv, svc: g.Service, store: g.Store, events: g.Events, dataDir: g.DataDir, logs: g.Logs, holder: g.Holder}
}

// reply is a read HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) json(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.body)
	}
	return v
}

func (r reply) array(t testing.TB) []map[string]any {
	t.Helper()
	var v []map[string]any
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("body is not a JSON array of objects: %v\n%.300s", err, r.body)
	}
	return v
}

// do sends a request without transparent gzip; headers are pairs.
func (e *testEnv) do(t testing.TB, method, path, body string, headers ...string) reply {
	t.Helper()
	return doWith(t, noGzipClient, e.srv.URL, method, path, body, headers...)
}

var noGzipClient = &http.Client{Transport: &http.Transport{DisableCompression: true},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// doWith sends one request with client to base+path; headers are pairs.
func doWith(t testing.TB, client *http.Client, base, method, path, body string, headers ...string) reply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: data}
}

func wantError(t testing.TB, r reply, status int, message string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("error body is not JSON: %s", r.body)
	}
	if len(body) != 1 {
		t.Fatalf("error body must have exactly one key: %s", r.body)
	}
	got, _ := body["message"].(string)
	if !strings.Contains(got, message) {
		t.Fatalf("message %q does not contain %q", got, message)
	}
	if strings.Contains(got, "json:") || strings.Contains(got, "core.") || strings.Contains(got, "*") {
		t.Fatalf("message leaks Go internals: %q", got)
	}
}
