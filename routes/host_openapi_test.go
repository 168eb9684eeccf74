package routes

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/wire"
)

// TestHostOpenAPICoversEveryHostRoute walks the host listener's router:
// every /host/api route has a row in wire.HostRoutes and every row a
// route, so an endpoint cannot be added or removed without its
// description following.
func TestHostOpenAPICoversEveryHostRoute(t *testing.T) {
	env := newConsoleEnv(t)
	s := newServer(Config{Service: env.svc, Hub: env.liveHub, Systems: nil, DataDir: env.dataDir})
	routed := map[string]bool{}
	err := chi.Walk(s.hostRouter(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if strings.HasPrefix(route, "/host/api/") {
			routed[method+" "+route] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	described := map[string]bool{}
	for _, r := range wire.HostRoutes {
		described[r.Method+" "+r.Path] = true
	}
	var missing, stale []string
	for k := range routed {
		if !described[k] {
			missing = append(missing, k)
		}
	}
	for k := range described {
		if !routed[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing) > 0 {
		t.Errorf("routed but not described in wire.HostRoutes: %v", missing)
	}
	if len(stale) > 0 {
		t.Errorf("described in wire.HostRoutes but not routed: %v", stale)
	}
	if len(routed) < 80 {
		t.Errorf("the walk found only %d host routes: is the router walked whole?", len(routed))
	}
}

// TestHostOpenAPIValidatesAndDescribesTheAnswers: the served document is
// valid OpenAPI 3.1, and what the host API answers matches it (each JSON
// answer of a sequence of console actions is validated against its
// operation's schema, every field declared).
func TestHostOpenAPIValidatesAndDescribesTheAnswers(t *testing.T) {
	env := newConsoleEnv(t)
	served := env.call(t, "GET", "/host/api/openapi.json", "")
	if served.status != 200 {
		t.Fatalf("GET /host/api/openapi.json: %d", served.status)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(served.body)
	if err != nil {
		t.Fatalf("kin-openapi cannot load the host document: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("invalid host OpenAPI document: %v", err)
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct{ method, path, body string }{
		{"GET", "/host/api/campaign", ""},
		{"GET", "/host/api/seats", ""},
		{"GET", "/host/api/join", ""},
		{"PATCH", "/host/api/join", `{"enabled": true}`},
		{"GET", "/host/api/clients", ""},
		{"GET", "/host/api/messages", ""},
		{"POST", "/host/api/messages", `{"text": "The door creaks"}`},
		{"POST", "/host/api/messages", `{"text": "1d20+2", "private": true}`},
		{"GET", "/host/api/tables", ""},
		{"GET", "/host/api/journal", ""},
		{"GET", "/host/api/library", ""},
		{"GET", "/host/api/settings", ""},
		{"POST", "/host/api/screen", `{"mapId": "` + consoleHallID + `"}`},
		{"POST", "/host/api/screen/fit", ""},
		{"POST", "/host/api/screen/frame", `{"id": "` + consoleHallID + `", "x": 10, "y": 20, "zoom": 1.5}`},
		{"PATCH", "/host/api/screen/overlay", `{"overlayHandoutText": "Intermission"}`},
		{"DELETE", "/host/api/screen/overlay", ""},
		{"PUT", "/host/api/screen/vision", `{"sharedVision": "never"}`},
		{"POST", "/host/api/maps/" + consoleHallID + "/tokens", `{"entityId": "` + goblinID + `", "x": 100, "y": 100}`},
		{"GET", "/host/api/maps/" + consoleHallID + "/grid", ""},
		{"POST", "/host/api/maps/" + consoleHallID + "/fog", `{"fogOfWar": true}`},
		{"POST", "/host/api/game/start", ""},
		{"POST", "/host/api/combatants/initiative", ""},
		{"POST", "/host/api/game/next", ""},
		{"POST", "/host/api/combatants/" + heroCombatID + "/effects", `{"name": "Blessed", "duration": 10}`},
		{"PUT", "/host/api/combatants/" + heroCombatID + "/initiative", `{"value": 17}`},
		{"POST", "/host/api/game/end", ""},
		{"GET", "/host/api/system", ""},
		{"GET", "/host/api/openapi.json", ""},
	}
	checked := 0
	for _, st := range steps {
		got := env.call(t, st.method, st.path, st.body)
		if got.status >= 300 {
			t.Errorf("%s %s: %d %s", st.method, st.path, got.status, got.body)
			continue
		}
		req, _ := http.NewRequest(st.method, "http://localhost"+st.path, strings.NewReader(st.body))
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Errorf("%s %s: not in the document: %v", st.method, st.path, err)
			continue
		}
		if !strings.HasPrefix(got.header.Get("Content-Type"), "application/json") {
			continue
		}
		input := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
			Status:                 got.status, Header: got.header, Body: io.NopCloser(bytes.NewReader(got.body)),
			Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
		}
		if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
			t.Errorf("%s %s: the answer contradicts the host description: %v\n%.600s", st.method, st.path, err, got.body)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d answers were checked", checked)
	}
}
