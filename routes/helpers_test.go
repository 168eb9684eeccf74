package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/sqlite"
	"github.com/vttapp/companion/examples/dnd5e"
	"github.com/vttapp/companion/systems"
)

// Fixture ids.
const (
	campaignID   = "c0000000-0000-4000-8000-000000000001"
	goblinID     = "e0000000-0000-4000-8000-000000000001"
	shifterID    = "e0000000-0000-4000-8000-000000000002"
	fireballID   = "e0000000-0000-4000-8000-000000000003"
	heroID       = "e0000000-0000-4000-8000-000000000004"
	heroCombatID = "b0000000-0000-4000-8000-000000000001"
	mapID        = "a0000000-0000-4000-8000-000000000001"
	tokenA       = "d0000000-0000-4000-8000-00000000000a"
	tokenB       = "d0000000-0000-4000-8000-00000000000b"
)

var (
	loadOnce  sync.Once
	loadedSys *systems.System
	loadErr   error
)

// dnd5eSystem loads the shipped D&D 5e system once for all tests.
func dnd5eSystem(t testing.TB) *systems.System {
	t.Helper()
	// A generous Lua time limit: under -race on a loaded machine an
	// ordinary view can pass the production 250 ms; scripting tests that limit.
	loadOnce.Do(func() { loadedSys, loadErr = systems.Load(dnd5e.FS, systems.Options{CallTimeout: 10 * time.Second}) })
	if loadErr != nil {
		t.Fatalf("loading examples/dnd5e: %v", loadErr)
	}
	return loadedSys
}

// eventLog records what the service publishes.
type eventLog struct {
	mu    sync.Mutex
	names []string
}

func (l *eventLog) Publish(events ...core.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range events {
		l.names = append(l.names, e.Name)
	}
}

func (l *eventLog) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := strings.Join(l.names, ",")
	l.names = nil
	return out
}

// testEnv is a public handler over a real SQLite store and the dnd5e system.
type testEnv struct {
	srv     *httptest.Server
	svc     *core.Service
	store   *sqlite.Store
	events  *eventLog
	dataDir string
	logs    *lockedWriter
	holder  *systems.Holder
}

type envOptions struct {
	noCampaign   bool
	maxBodyBytes int64
	seed         func(tx core.Tx) error
}

func newEnv(t testing.TB, opt envOptions) *testEnv {
	t.Helper()
	dataDir := t.TempDir()
	store, err := sqlite.Open(filepath.Join(dataDir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	holder := systems.NewHolder(dnd5eSystem(t))
	events := &eventLog{}
	bus := core.NewBus()
	bus.Subscribe(func(evs []core.Event) { events.Publish(evs...) })
	svc := core.NewService(core.ServiceConfig{Store: store, Events: bus, Rules: holder, Roller: fixedRoller{}})
	if !opt.noCampaign {
		if err := store.Update(context.Background(), seedFixture); err != nil {
			t.Fatal(err)
		}
	}
	if opt.seed != nil {
		if err := store.Update(context.Background(), opt.seed); err != nil {
			t.Fatal(err)
		}
	}
	logs := &lockedWriter{w: &bytes.Buffer{}}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	hub := NewHub(svc, bus, log, HubOptions{})
	cfg := Config{
		Service: svc, Bus: bus, Hub: hub, Systems: holder, DataDir: dataDir, MaxBodyBytes: opt.maxBodyBytes, Log: log,
	}
	srv := httptest.NewServer(NewPublicHandler(cfg))
	t.Cleanup(func() { hub.Close(); srv.Close() })
	return &testEnv{srv: srv, svc: svc, store: store, events: events, dataDir: dataDir, logs: logs, holder: holder}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// String returns what was logged so far.
func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.(*bytes.Buffer).String()
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// fixedRoller rolls every "[[...]]" as 4, so answers are predictable.
type fixedRoller struct{}

func (fixedRoller) RollText(text string) (string, []json.RawMessage, error) {
	var rolls []json.RawMessage
	for i := 0; i < strings.Count(text, "[["); i++ {
		rolls = append(rolls, json.RawMessage(`{"total":4}`))
	}
	return text, rolls, nil
}

// Total rolls every initiative formula to 10.
func (fixedRoller) Total(string) (float64, error) { return 10, nil }

// seedFixture stores a primary dnd5e campaign, three monsters' worth of
// content (a shapechanger whose forms reference the goblin), a spell, a
// unique character with its shared combatant, and a map on the player
// screen with two tokens.
func seedFixture(tx core.Tx) error {
	c := &core.Campaign{ID: campaignID, System: "dnd5e", Name: "Demo", Primary: true}
	c.Normalize()
	if err := tx.PutCampaign(c); err != nil {
		return err
	}
	entities := []*core.Entity{
		{ID: goblinID, Kind: "monster", System: "dnd5e", Name: "Goblin", Slug: "goblin",
			Data: core.Object{"size": "Small", "type": "humanoid", "challenge_rating": 0.25, "hit_points": 7.0, "armor_class": []any{map[string]any{"type": "armor", "value": 15.0}}}},
		{ID: shifterID, Kind: "monster", System: "dnd5e", Name: "Shifter", Slug: "shifter",
			Data: core.Object{"size": "Medium", "type": "monstrosity", "challenge_rating": 2.0, "hit_points": 30.0,
				"forms": []any{map[string]any{"index": "goblin", "name": "Goblin"}, map[string]any{"index": "not-installed"}}}},
		{ID: fireballID, Kind: "spell", System: "dnd5e", Name: "Fireball", Slug: "fireball", Data: core.Object{"level": 3.0}},
		{ID: heroID, Kind: "character", System: "dnd5e", Name: "Hero", Slug: "hero", Owner: campaignID, Data: core.Object{"hit_points": 30.0}},
	}
	for _, e := range entities {
		e.Normalize(e.Created)
		if err := tx.PutEntity(e); err != nil {
			return err
		}
	}
	cb := &core.Combatant{ID: heroCombatID, Name: "Hero", Role: core.RoleFriendly, EntityID: heroID, Campaign: campaignID, Data: core.Object{"hit_points": 30.0}}
	cb.Normalize()
	if err := tx.PutCombatant(cb); err != nil {
		return err
	}
	m := &core.Map{ID: mapID, Name: "Cave", Owner: campaignID}
	m.Normalize()
	if err := tx.PutMap(m); err != nil {
		return err
	}
	for _, tk := range []*core.Token{{ID: tokenA, Name: "A", MapID: mapID}, {ID: tokenB, Name: "B", MapID: mapID}} {
		tk.Normalize()
		if err := tx.PutToken(tk); err != nil {
			return err
		}
	}
	return tx.PutScreen(campaignID, &core.Screen{MapID: mapID})
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
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := noGzipClient.Do(req)
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

var noGzipClient = &http.Client{Transport: &http.Transport{DisableCompression: true},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// wantError checks a status and the {"message": ...} body.
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
