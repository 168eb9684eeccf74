package routes

// Audit of the cross-cutting rules of contract sections 1, 2.3, 4.9, 7 and
// 9 over every /api route: content type, CORS headers, HEAD, one-key error
// bodies, ISO 8601 dates, the snapshot's exact keys.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
)

// apiCall is one request of the audit.
type apiCall struct{ method, path, body string }

// everyAPIAnswer covers each /api route with a success and its failures.
func everyAPIAnswer() []apiCall {
	return []apiCall{
		{"GET", "/api", ""}, {"GET", "/api/system", ""}, {"GET", "/api/clients", ""}, {"GET", "/api/openapi.json", ""},
		{"GET", "/api/monsters", ""}, {"GET", "/api/monsters?schema=basic", ""}, {"GET", "/api/monsters?schema=bad", ""},
		{"GET", "/api/monstres", ""}, {"GET", "/api/monsters/" + goblinID, ""}, {"GET", "/api/monsters/" + goblinID + "?schema=view&references=true", ""},
		{"GET", "/api/monsters/nope", ""}, {"GET", "/api/spells/" + goblinID, ""},
		{"PUT", "/api/monsters/" + goblinID, `{"id":"` + goblinID + `","name":"Goblin"}`}, {"PUT", "/api/monsters/a", `{"id":"b","name":"x"}`},
		{"PATCH", "/api/monsters/" + goblinID, `{"notes":"n"}`}, {"PATCH", "/api/monsters/" + goblinID, `{`},
		{"GET", "/api/combatants/" + heroCombatID, ""}, {"PATCH", "/api/combatants/" + heroCombatID, `{"hidden":false}`},
		{"PUT", "/api/combatants/a", `{"id":"b"}`}, {"GET", "/api/combatants/nope", ""},
		{"GET", "/api/tokens/" + tokenA, ""}, {"PATCH", "/api/tokens/" + tokenA, `{"x":1}`}, {"PUT", "/api/tokens/" + tokenA, `[]`},
		{"POST", "/api/messages", `{"text":"hi"}`}, {"POST", "/api/messages", `{"text":3}`},
		{"DELETE", "/api/monsters/" + goblinID, ""}, {"POST", "/api/monsters", `{}`}, {"GET", "/api/messages", ""},
		{"GET", "/api/a/b/c", ""}, {"PATCH", "/api/monsters/" + goblinID, `{"notes":"` + strings.Repeat("x", 2048) + `"}`},
	}
}

// TestAuditEveryAPIAnswerIsJSON: contract 1, everything under /api is
// application/json; every failure is {"message": text} and nothing else.
func TestAuditEveryAPIAnswerIsJSON(t *testing.T) {
	e := newEnv(t, envOptions{maxBodyBytes: 1024})
	for _, c := range everyAPIAnswer() {
		r := e.do(t, c.method, c.path, c.body)
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s %s: %d Content-Type %q", c.method, c.path, r.status, ct)
		}
		if !json.Valid(r.body) {
			t.Errorf("%s %s: body is not JSON: %.100s", c.method, c.path, r.body)
		}
		if r.status >= 400 {
			wantError(t, r, r.status, "")
		}
	}
}

// TestAuditCORSHeaders: preflight on any path allows GET and OPTIONS only,
// and every GET or HEAD answer (errors and 304 included) may be read from
// any origin; write answers may not.
func TestAuditCORSHeaders(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, path := range []string{"/api", "/api/system", "/api/monsters", "/api/monsters/" + goblinID, "/api/combatants/" + heroCombatID,
		"/api/tokens/" + tokenA, "/api/messages", "/api/import", "/", "/client/", "/monster.goblin", "/no/such/path"} {
		for _, ask := range []string{"PUT", "PATCH", "POST", "DELETE", "GET"} {
			pre := e.do(t, "OPTIONS", path, "", "Origin", "http://elsewhere.example", "Access-Control-Request-Method", ask)
			if pre.status != 204 || pre.header.Get("Access-Control-Allow-Methods") != "GET, OPTIONS" ||
				pre.header.Get("Access-Control-Allow-Origin") != "*" || len(pre.body) != 0 {
				t.Fatalf("preflight %s for %s: %d %v", path, ask, pre.status, pre.header)
			}
		}
	}
	first := e.do(t, "GET", "/api/monsters", "")
	for _, c := range []struct {
		method, path string
		headers      []string
	}{
		{"GET", "/api", nil}, {"HEAD", "/api", nil}, {"GET", "/api/monsters/nope", nil}, {"GET", "/api/monstres", nil},
		{"GET", "/api/monsters", []string{"If-None-Match", first.header.Get("ETag")}}, {"HEAD", "/api/system", nil},
		{"GET", "/api/messages", nil}, {"GET", "/api/clients", nil},
	} {
		r := e.do(t, c.method, c.path, "", append([]string{"Origin", "http://elsewhere.example"}, c.headers...)...)
		if r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("%s %s (%d) lacks Access-Control-Allow-Origin: *", c.method, c.path, r.status)
		}
	}
	for _, c := range []apiCall{{"PUT", "/api/tokens/" + tokenA, `{"name":"A"}`}, {"POST", "/api/messages", `{"text":"x"}`}} {
		if r := e.do(t, c.method, c.path, c.body, "Origin", "http://elsewhere.example"); r.header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("%s %s allows a foreign origin to read the answer", c.method, c.path)
		}
	}
}

// TestAuditHEADMatchesGET: HEAD answers as GET would, headers and status,
// without a body.
func TestAuditHEADMatchesGET(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, path := range []string{"/api", "/api/system", "/api/clients", "/api/monsters", "/api/monsters/" + goblinID,
		"/api/combatants/" + heroCombatID, "/api/tokens/" + tokenA, "/api/monsters/nope", "/api/openapi.json"} {
		get := e.do(t, "GET", path, "")
		head := e.do(t, "HEAD", path, "")
		if head.status != get.status || len(head.body) != 0 || head.header.Get("Content-Type") != get.header.Get("Content-Type") {
			t.Fatalf("HEAD %s: %d %q %d bytes; GET: %d %q", path, head.status, head.header.Get("Content-Type"), len(head.body), get.status, get.header.Get("Content-Type"))
		}
		if cl := head.header.Get("Content-Length"); cl != "" && cl != fmt.Sprint(len(get.body)) {
			t.Fatalf("HEAD %s: Content-Length %s, GET body %d bytes", path, cl, len(get.body))
		}
	}
}

// TestAuditSnapshotKeys: contract 2.3, exactly these keys and in this
// order; map only while one is on the player screen (and not deleted).
func TestAuditSnapshotKeys(t *testing.T) {
	e := newEnv(t, envOptions{})
	keys := func() string {
		r := e.do(t, "GET", "/api", "")
		dec := json.NewDecoder(strings.NewReader(string(r.body)))
		var names []string
		dec.Token() // {
		depth := 0
		for dec.More() || depth > 0 {
			tok, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			switch tok {
			case json.Delim('{'), json.Delim('['):
				depth++
				continue
			case json.Delim('}'), json.Delim(']'):
				depth--
				continue
			}
			if depth == 0 {
				names = append(names, tok.(string))
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
		}
		return strings.Join(names, ",")
	}
	const withMap = "version,build,game,map,screen,messages,trackedObjects,paused"
	const withoutMap = "version,build,game,screen,messages,trackedObjects,paused"
	if got := keys(); got != withMap {
		t.Fatalf("snapshot keys %s, want %s", got, withMap)
	}
	snap := e.do(t, "GET", "/api", "").json(t)
	if _, ok := snap["messages"].([]any); !ok {
		t.Fatalf("messages must be an array even when empty: %v", snap["messages"])
	}
	if _, ok := snap["trackedObjects"].([]any); !ok {
		t.Fatalf("trackedObjects must be an array even when empty: %v", snap["trackedObjects"])
	}
	if _, ok := snap["paused"].(bool); !ok {
		t.Fatalf("paused must be a boolean: %v", snap["paused"])
	}
	if _, ok := snap["build"].(float64); !ok {
		t.Fatalf("build must be a number: %v", snap["build"])
	}
	// The map on the screen deleted: no map key, not a null.
	if err := e.svc.ChangeContent(context.Background(), func(tx core.Tx) (core.Object, error) { return nil, tx.DeleteMap(mapID) }); err != nil {
		t.Fatal(err)
	}
	if got := keys(); got != withoutMap {
		t.Fatalf("snapshot keys with the screen's map deleted: %s", got)
	}
	// No map on the screen at all.
	err := e.svc.ChangeContent(context.Background(), func(tx core.Tx) (core.Object, error) {
		return nil, tx.PutScreen(campaignID, &core.Screen{})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(); got != withoutMap {
		t.Fatalf("snapshot keys without a map: %s", got)
	}
}

// TestAuditDatesAreISO8601: contract 1, dates are ISO 8601 (RFC 3339, UTC).
func TestAuditDatesAreISO8601(t *testing.T) {
	e := newEnv(t, envOptions{})
	msg := e.do(t, "POST", "/api/messages", `{"text":"hello"}`).json(t)
	ent := e.do(t, "PATCH", "/api/monsters/"+goblinID, `{"notes":"n"}`).json(t)
	for what, v := range map[string]any{"message created": msg["created"], "entity created": ent["created"], "entity modified": ent["modified"]} {
		s, ok := v.(string)
		if !ok {
			t.Fatalf("%s is not a string: %v", what, v)
		}
		ts, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || !strings.HasSuffix(s, "Z") || ts.IsZero() {
			t.Fatalf("%s %q is not an ISO 8601 UTC time: %v", what, s, err)
		}
	}
	// A date sent in another form is refused with the form expected.
	wantError(t, e.do(t, "PUT", "/api/monsters/"+goblinID, `{"id":"`+goblinID+`","name":"G","created":"yesterday"}`), 400, "ISO 8601")
	wantError(t, e.do(t, "PATCH", "/api/monsters/"+goblinID, `{"modified":"2026-13-01"}`), 400, "ISO 8601")
}

// TestAuditNothingCreatedOverHTTP: contract 4.9, PUT and PATCH on an id
// that does not exist are 404 and create nothing; there is no POST to a
// collection and no DELETE.
func TestAuditNothingCreatedOverHTTP(t *testing.T) {
	e := newEnv(t, envOptions{})
	const fresh = "f0000000-0000-4000-8000-000000000099"
	wantError(t, e.do(t, "PUT", "/api/monsters/"+fresh, `{"id":"`+fresh+`","name":"New"}`), 404, "no monster with id '"+fresh+"'")
	wantError(t, e.do(t, "PATCH", "/api/monsters/"+fresh, `{"name":"New"}`), 404, "no monster with id '"+fresh+"'")
	wantError(t, e.do(t, "PUT", "/api/combatants/"+fresh, `{"id":"`+fresh+`","name":"New"}`), 404, "no combatant with id '"+fresh+"'")
	wantError(t, e.do(t, "PATCH", "/api/combatants/"+fresh, `{"name":"New"}`), 404, "no combatant with id '"+fresh+"'")
	wantError(t, e.do(t, "PUT", "/api/tokens/"+fresh, `{"name":"New"}`), 404, "no token with id '"+fresh+"'")
	wantError(t, e.do(t, "PATCH", "/api/tokens/"+fresh, `{"name":"New"}`), 404, "no token with id '"+fresh+"'")
	wantError(t, e.do(t, "POST", "/api/monsters", `{"name":"New"}`), 405, "method POST is not allowed")
	wantError(t, e.do(t, "POST", "/api/combatants/"+fresh, `{"name":"New"}`), 405, "method POST is not allowed")
	if ev := e.events.Take(); ev != "" {
		t.Fatalf("refused writes published %s", ev)
	}
	for _, path := range []string{"/api/monsters/" + fresh, "/api/combatants/" + fresh, "/api/tokens/" + fresh} {
		if r := e.do(t, "GET", path, ""); r.status != 404 {
			t.Fatalf("%s was created: %d", path, r.status)
		}
	}
}

// TestAuditPreflightAllowsRequestedHeadersForGET: a cross-origin GET that
// carries a non-simple header (If-None-Match for the listings' ETags, a
// JSON Content-Type set by a fetch wrapper) is preflighted; the preflight
// allows the headers asked for, while the methods stay GET and OPTIONS so
// a cross-origin PUT or PATCH is still refused.
func TestAuditPreflightAllowsRequestedHeadersForGET(t *testing.T) {
	e := newEnv(t, envOptions{})
	pre := e.do(t, "OPTIONS", "/api/monsters", "", "Origin", "http://elsewhere.example",
		"Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "if-none-match, content-type")
	if got := pre.header.Get("Access-Control-Allow-Headers"); got != "if-none-match, content-type" {
		t.Fatalf("Access-Control-Allow-Headers = %q", got)
	}
	if got := pre.header.Get("Access-Control-Allow-Methods"); got != "GET, OPTIONS" {
		t.Fatalf("Access-Control-Allow-Methods = %q", got)
	}
	if got := e.do(t, "OPTIONS", "/api", "", "Origin", "http://x.example", "Access-Control-Request-Method", "GET").header.Get("Access-Control-Allow-Headers"); got != "" {
		t.Fatalf("headers allowed that were not asked for: %q", got)
	}
	// The ETag of a listing is readable by the cross-origin page.
	if got := e.do(t, "GET", "/api/monsters", "", "Origin", "http://elsewhere.example").header.Get("Access-Control-Expose-Headers"); !strings.Contains(got, "ETag") {
		t.Fatalf("Access-Control-Expose-Headers = %q", got)
	}
}

// TestAuditRemoteInteractionDoesNotGateHTTP: contract 4.4 and 5, a token
// PATCH or PUT ignores the remote-interaction setting (only the three
// WebSocket events are gated).
func TestAuditRemoteInteractionDoesNotGateHTTP(t *testing.T) {
	e := newEnv(t, envOptions{})
	off := false
	if _, err := e.svc.UpdateSettings(context.Background(), engine.SettingsPatch{RemoteInteraction: &off}); err != nil {
		t.Fatal(err)
	}
	e.events.Take()
	if r := e.do(t, "PATCH", "/api/tokens/"+tokenA, `{"x":321}`); r.status != 200 || r.json(t)["x"] != 321.0 {
		t.Fatalf("PATCH token with remote interaction off: %d %s", r.status, r.body)
	}
	if r := e.do(t, "PUT", "/api/tokens/"+tokenA, `{"name":"A","x":7}`); r.status != 200 {
		t.Fatalf("PUT token with remote interaction off: %d %s", r.status, r.body)
	}
	if ev := e.events.Take(); ev != "tokenUpdated,tokenUpdated" {
		t.Fatalf("events = %s", ev)
	}
}

// TestAuditVaryOnce: a gzip answer names Accept-Encoding in Vary once,
// whether the middleware or a cached body set it.
func TestAuditVaryOnce(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, path := range []string{"/api/monsters", "/api/system", "/api/openapi.json"} {
		r := e.do(t, "GET", path, "", "Accept-Encoding", "gzip")
		if got := r.header.Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
			t.Fatalf("GET %s with gzip: Vary %q", path, got)
		}
	}
}

// TestOptionsAllowListsWhatThePathServes: an OPTIONS answer's Allow header
// describes the resource (a token takes PUT and PATCH), while
// Access-Control-Allow-Methods stays GET, OPTIONS for other origins.
func TestOptionsAllowListsWhatThePathServes(t *testing.T) {
	e := newEnv(t, envOptions{})
	for path, want := range map[string]string{
		"/api/tokens/t1":     "GET, HEAD, PUT, PATCH, OPTIONS",
		"/api/messages":      "POST, OPTIONS",
		"/api":               "GET, HEAD, OPTIONS",
		"/api/monsters":      "GET, HEAD, OPTIONS",
		"/api/monsters/x":    "GET, HEAD, PUT, PATCH, OPTIONS",
		"/api/messages/nope": "OPTIONS",
	} {
		r := e.do(t, "OPTIONS", path, "", "Origin", "http://elsewhere.example", "Access-Control-Request-Method", "PUT")
		if got := r.header.Get("Allow"); got != want {
			t.Errorf("OPTIONS %s: Allow = %q, want %q", path, got, want)
		}
		if got := r.header.Get("Access-Control-Allow-Methods"); got != "GET, OPTIONS" {
			t.Errorf("OPTIONS %s: Access-Control-Allow-Methods = %q", path, got)
		}
	}
}
