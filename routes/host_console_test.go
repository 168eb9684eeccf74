package routes

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/routes/hostapi"
	"github.com/vttapp/companion/store/sqlite"
	"github.com/vttapp/companion/systems"
	"github.com/vttapp/companion/wire"
)

const consoleHallID = "a0000000-0000-4000-8000-000000000002"

// consoleEnv is the public and host handlers sharing one service, hub and
// system status, over a real SQLite store seeded with testkit.SeedFixture plus a
// second map and a rolled initiative for the hero.
type consoleEnv struct {
	public, host *httptest.Server
	svc          *engine.Service
	store        *sqlite.Store
	events       *testkit.EventLog
	status       *systems.ReloadStatus
	dataDir      string
	liveHub      *hub.Hub
}

func newConsoleEnv(t testing.TB) *consoleEnv {
	t.Helper()
	g := testkit.NewGame(t, testkit.GameOptions{Seed: func(tx core.Tx) error {
		hall := &core.Map{ID: consoleHallID, Name: "Great <Hall>", Owner: campaignID}
		hall.Normalize()
		if err := tx.PutMap(hall); err != nil {
			return err
		}
		hero, err := tx.Combatant(heroCombatID)
		if err != nil {
			return err
		}
		hero.Initiative = []core.Initiative{{ID: "i-hero", Value: 14.0}}
		return tx.PutCombatant(hero)
	}})
	live := hub.New(g.Service, g.Bus, nil, hub.Options{})
	status := &systems.ReloadStatus{}
	cfg := Config{Service: g.Service, Hub: live, Systems: g.Holder, SystemStatus: status, DataDir: t.TempDir()}
	env := &consoleEnv{svc: g.Service, store: g.Store, events: g.Events, status: status, dataDir: cfg.DataDir, liveHub: live,
		public: httptest.NewServer(NewPublicHandler(cfg)), host: httptest.NewServer(NewHostHandler(cfg))}
	t.Cleanup(func() { live.Close(); env.public.Close(); env.host.Close() })
	return env
}

// call sends a request to the host console; headers are pairs.
func (e *consoleEnv) call(t *testing.T, method, path, body string, headers ...string) reply {
	t.Helper()
	req, err := http.NewRequest(method, e.host.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := noGzipClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: data}
}

func (e *consoleEnv) decode(t *testing.T, r reply, status int, v any) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("body: %v\n%s", err, r.body)
	}
}

func TestHostConsoleSystemAndLastReload(t *testing.T) {
	e := newConsoleEnv(t)
	var sys wire.HostSystem
	e.decode(t, e.call(t, "GET", "/host/api/system", ""), 200, &sys)
	if sys.ID != "dnd5e" || sys.Name == "" || sys.Version == "" {
		t.Fatalf("system = %+v", sys)
	}
	if sys.Diagonal != "equal" { // D&D 5e's config.measurement.diagonal, for the GM map's ruler
		t.Errorf("diagonal = %q, want equal", sys.Diagonal)
	}
	collections := map[string]string{}
	for _, k := range sys.Kinds {
		collections[k.Kind] = k.Collection
	}
	for kind, col := range map[string]string{"monster": "monsters", "spell": "spells", "item": "items", "character": "characters"} {
		if collections[kind] != col {
			t.Fatalf("kind %s has collection %q, want %q (kinds %+v)", kind, collections[kind], col, sys.Kinds)
		}
	}
	if sys.LastReload != nil || sys.Watching != "" {
		t.Fatalf("before any reload: watching %q, last %+v", sys.Watching, sys.LastReload)
	}

	e.status.Watching("/systems/dnd5e")
	e.status.Failed(errors.New("lib/monster.lua:12: unexpected symbol near 'end'"))
	e.decode(t, e.call(t, "GET", "/host/api/system", ""), 200, &sys)
	if sys.Watching != "/systems/dnd5e" || sys.LastReload == nil || sys.LastReload.OK ||
		sys.LastReload.Error != "lib/monster.lua:12: unexpected symbol near 'end'" || time.Since(sys.LastReload.Time) > time.Minute {
		t.Fatalf("after a failed reload: %+v %+v", sys, sys.LastReload)
	}

	e.status.Reloaded("1.2.3", 42*time.Millisecond)
	sys = wire.HostSystem{}
	e.decode(t, e.call(t, "GET", "/host/api/system", ""), 200, &sys)
	if r := sys.LastReload; r == nil || !r.OK || r.Error != "" || r.Version != "1.2.3" || r.LatencyMs != 42 {
		t.Fatalf("after a good reload: %+v", r)
	}
}

func TestHostConsoleCampaignAndShowMap(t *testing.T) {
	e := newConsoleEnv(t)
	var view core.HostCampaign
	e.decode(t, e.call(t, "GET", "/host/api/campaign", ""), 200, &view)
	if view.Campaign.Name != "Demo" || len(view.Maps) != 2 || view.Screen.MapID != mapID {
		t.Fatalf("campaign view = %s, %d maps, screen %q", view.Campaign.Name, len(view.Maps), view.Screen.MapID)
	}
	for _, m := range view.Maps {
		if m.OnScreen != (m.ID == mapID) {
			t.Fatalf("map %s onScreen = %v", m.Name, m.OnScreen)
		}
	}
	if len(view.TurnOrder) != 1 || view.TurnOrder[0].CombatantID != heroCombatID || len(view.Game.Combatants) != 1 {
		t.Fatalf("turn order %+v, combatants %d", view.TurnOrder, len(view.Game.Combatants))
	}

	e.events.Take()
	var screen core.Screen
	e.decode(t, e.call(t, "POST", "/host/api/screen", `{"mapId": "`+consoleHallID+`"}`), 200, &screen)
	if screen.MapID != consoleHallID {
		t.Fatalf("screen = %+v", screen)
	}
	if got := e.events.Take(); got != "screenUpdated,mapLoaded" {
		t.Fatalf("events = %q, want screenUpdated,mapLoaded", got)
	}
	// Players see the new map in GET /api.
	resp, err := noGzipClient.Get(e.public.URL + "/api")
	if err != nil {
		t.Fatal(err)
	}
	var snap core.Snapshot
	json.NewDecoder(resp.Body).Decode(&snap)
	resp.Body.Close()
	if snap.Map == nil || snap.Map.Name != "Great <Hall>" {
		t.Fatalf("GET /api map after showing the hall = %+v", snap.Map)
	}

	for body, message := range map[string]string{
		``:                    `expected {"mapId": "<map id>"}`,
		`{}`:                  `expected {"mapId": "<map id>"}`,
		`{"mapID": "x"}`:      `expected {"mapId": "<map id>"}`,
		`{"mapId": 3}`:        `expected {"mapId": "<map id>"}`,
		`{"mapId": "nope"}`:   "no map with id 'nope'",
		`{"mapId": "x"} tail`: `expected {"mapId": "<map id>"}`,
	} {
		r := e.call(t, "POST", "/host/api/screen", body)
		status := http.StatusBadRequest
		if strings.Contains(message, "no map") {
			status = http.StatusNotFound
		}
		wantError(t, r, status, message)
	}
	if got := e.events.Take(); got != "" {
		t.Fatalf("events after refused screen changes: %q", got)
	}
	e.decode(t, e.call(t, "GET", "/host/api/campaign", ""), 200, &view)
	if view.Screen.MapID != consoleHallID {
		t.Fatalf("the screen moved after refusals: %q", view.Screen.MapID)
	}
}

func TestHostConsoleCombatControls(t *testing.T) {
	e := newConsoleEnv(t)
	e.events.Take()
	var gc wire.GameControl
	e.decode(t, e.call(t, "POST", "/host/api/game/start", ""), 200, &gc)
	if !gc.Game.Started || gc.Game.Round != 1 || gc.Game.Turn != 1 || gc.Game.CombatantID != heroCombatID ||
		len(gc.TurnOrder) != 1 || gc.TurnOrder[0].InitiativeID != "i-hero" {
		t.Fatalf("start = %+v, order %+v", gc.Game, gc.TurnOrder)
	}
	// One combatant: every next turn is a new round.
	e.decode(t, e.call(t, "POST", "/host/api/game/next", ""), 200, &gc)
	if gc.Game.Round != 2 || gc.Game.Turn != 1 {
		t.Fatalf("next = round %d turn %d", gc.Game.Round, gc.Game.Turn)
	}
	e.decode(t, e.call(t, "POST", "/host/api/game/previous", ""), 200, &gc)
	if gc.Game.Round != 1 {
		t.Fatalf("previous = round %d", gc.Game.Round)
	}
	wantError(t, e.call(t, "POST", "/host/api/game/previous", ""), http.StatusConflict, "already at the first turn of the first round")
	wantError(t, e.call(t, "POST", "/host/api/game/start", ""), http.StatusConflict, "combat has already started")
	e.decode(t, e.call(t, "POST", "/host/api/game/end", ""), 200, &gc)
	if gc.Game.Started {
		t.Fatal("end: still started")
	}
	if got := e.events.Take(); got != "gameUpdated,gameUpdated,gameUpdated,gameUpdated" {
		t.Fatalf("events = %q, want four gameUpdated", got)
	}
	wantError(t, e.call(t, "POST", "/host/api/game/next", ""), http.StatusConflict, "combat has not started")
	wantError(t, e.call(t, "POST", "/host/api/game/shuffle", ""), http.StatusBadRequest, "unknown combat action 'shuffle'")
	if r := e.call(t, "GET", "/host/api/game/start", ""); r.status < 400 {
		t.Fatalf("GET on a game control: %d", r.status)
	}
	// Players see the game in GET /api.
	resp, err := noGzipClient.Get(e.public.URL + "/api")
	if err != nil {
		t.Fatal(err)
	}
	var snap core.Snapshot
	json.NewDecoder(resp.Body).Decode(&snap)
	resp.Body.Close()
	if snap.Game == nil || snap.Game.Started {
		t.Fatalf("GET /api game after end = %+v", snap.Game)
	}
}

func TestHostConsoleRefusesOtherSites(t *testing.T) {
	e := newConsoleEnv(t)
	// DNS rebinding: a foreign name that resolves to loopback.
	wantError(t, e.call(t, "GET", "/host/api/settings", "", "Host", "evil.example:8080"), http.StatusForbidden, "answers only to a loopback address")
	wantError(t, e.call(t, "GET", "/host/", "", "Host", "evil.example"), http.StatusForbidden, "loopback")
	// A cross-site form or fetch.
	wantError(t, e.call(t, "POST", "/host/api/game/start", "", "Origin", "http://evil.example"), http.StatusForbidden, "another site")
	wantError(t, e.call(t, "PATCH", "/host/api/settings", `{"paused": true}`, "Origin", "null"), http.StatusForbidden, "another site")
	if got := e.events.Take(); strings.Contains(got, "gameUpdated") || strings.Contains(got, "systemPaused") {
		t.Fatalf("a refused request changed the game: %q", got)
	}
	// The console's own page, by any loopback name, is served.
	hostPort := strings.TrimPrefix(e.host.URL, "http://")
	_, port, _ := strings.Cut(hostPort, ":")
	for _, host := range []string{hostPort, "localhost:" + port, "[::1]:" + port, "LOCALHOST"} {
		if r := e.call(t, "GET", "/host/api/settings", "", "Host", host); r.status != 200 {
			t.Fatalf("Host %s: %d %s", host, r.status, r.body)
		}
	}
	if r := e.call(t, "POST", "/host/api/game/start", "", "Origin", e.host.URL); r.status != 200 {
		t.Fatalf("same-origin POST: %d %s", r.status, r.body)
	}
	// Reads carry no risk: a foreign Origin on a GET is answered.
	if r := e.call(t, "GET", "/host/api/campaign", "", "Origin", "http://evil.example"); r.status != 200 {
		t.Fatalf("GET with a foreign Origin: %d", r.status)
	}
}

func TestHostConsoleListsClientsWithViewports(t *testing.T) {
	e := newConsoleEnv(t)
	url := "ws" + strings.TrimPrefix(e.public.URL, "http") + "/"
	conn, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() { // drain broadcasts
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				return
			}
		}
	}()
	send := func(name, data string) {
		if err := conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"`+name+`","data":`+data+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	send("clientUpdated", `{"name":"Table display","runMode":"table"}`)
	send("mapViewportUpdated", `{"x":120,"y":80,"zoom":1.5}`)
	deadline := time.Now().Add(5 * time.Second)
	for {
		var clients []core.Client
		e.decode(t, e.call(t, "GET", "/host/api/clients", ""), 200, &clients)
		if len(clients) == 1 && clients[0].Name == "Table display" && clients[0].MapZoom == 1.5 && clients[0].MapCenterX == 120 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("clients = %+v, want the table display with its viewport", clients)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHostConsoleDocListsEveryRoute keeps docs/host-console.md complete:
// every route of the host API is in its table.
func TestHostConsoleDocListsEveryRoute(t *testing.T) {
	doc, err := os.ReadFile("../docs/host-console.md")
	if err != nil {
		t.Fatal(err)
	}
	e := newConsoleEnv(t)
	r := chi.NewRouter()
	cfg := Config{Service: e.svc, Hub: e.liveHub}
	hostapi.Mount(r, cfg)
	routes := 0
	err = chi.Walk(r, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes++
		if method == http.MethodHead || !strings.HasPrefix(route, "/host/api/") {
			return nil // the table pages are listed by their paths' shapes, in one row
		}
		if want := "`" + method + " " + route + "`"; !strings.Contains(string(doc), want) &&
			!strings.Contains(string(doc), "`"+method+" "+strings.Replace(route, "{action}", "start", 1)+"`") {
			t.Errorf("docs/host-console.md does not list %s: add a row for it to the API table", want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if routes < 20 {
		t.Fatalf("walked only %d routes", routes)
	}
}
