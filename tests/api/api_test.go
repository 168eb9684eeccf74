package api

// The black-box suite of the HTTP API (contract sections 4.1-4.5, 4.7, 4.9,
// 7, 8, 9): it starts the real binary with the sample content of the
// shipped D&D 5e system and checks every rule with a real HTTP client.

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/tests/e2e"
)

func TestAPIBlackBox(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--max-body", "65536"}})
	c := e2e.NewAPIClient(t, srv.URL)

	var monsters, spells, characters []e2e.ApiEntity
	c.Get("/api/monsters?schema=model", &monsters)
	c.Get("/api/spells?schema=model", &spells)
	c.Get("/api/characters?schema=model", &characters)
	if len(monsters) == 0 || len(spells) == 0 || len(characters) == 0 {
		t.Fatalf("sample content missing: %d monsters, %d spells, %d characters", len(monsters), len(spells), len(characters))
	}
	monster := monsters[0]

	t.Run("GET /api", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		snap := c.Get("/api", nil).Object(t)
		for _, key := range []string{"version", "build", "game", "screen", "messages", "trackedObjects", "paused"} {
			if _, ok := snap[key]; !ok {
				t.Fatalf("snapshot lacks %s", key)
			}
		}
		if v, _ := snap["version"].(string); v == "" {
			t.Fatal("version is empty")
		}
		if _, ok := snap["build"].(float64); !ok {
			t.Fatalf("build is not a number: %v", snap["build"])
		}
	})

	t.Run("GET /api/system with ETag", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		r := c.Get("/api/system", nil)
		doc := r.Object(t)
		defs, _ := doc["definitions"].(map[string]any)
		if doc["id"] != "dnd5e" || defs["entities"] == nil || defs["types"] == nil {
			t.Fatalf("system document: %.300s", r.Body)
		}
		etag := r.Header.Get("ETag")
		if etag == "" {
			t.Fatal("no ETag")
		}
		if nm := c.Do("GET", "/api/system", "", "If-None-Match", etag); nm.Status != 304 || len(nm.Body) != 0 {
			t.Fatalf("If-None-Match: %d", nm.Status)
		}
		gz := c.Do("GET", "/api/system", "", "Accept-Encoding", "gzip")
		if gz.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("not gzipped: %v", gz.Header)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz.Body))
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := io.ReadAll(zr)
		if !bytes.Equal(plain, r.Body) {
			t.Fatal("gzip body differs")
		}
	})

	t.Run("GET /api/clients", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		var clients []map[string]any
		c.Get("/api/clients", &clients)
		if clients == nil {
			t.Fatal("clients must be an array")
		}
	})

	t.Run("unknown collection", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		e2e.WantAPIError(t, c.Do("GET", "/api/monstres", ""), 404, "unknown collection 'monstres'")
		e2e.WantAPIError(t, c.Do("GET", "/api/monstres/"+monster.ID, ""), 404, "unknown collection 'monstres'")
		e2e.WantAPIError(t, c.Do("PATCH", "/api/monstres/"+monster.ID, "{}"), 404, "unknown collection 'monstres'")
	})

	t.Run("collection schemas", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		var list, basic, view []map[string]any
		def := c.Get("/api/monsters", &list)
		if r := c.Get("/api/monsters?schema=list", nil); !bytes.Equal(r.Body, def.Body) {
			t.Fatal("the default schema is not list")
		}
		c.Get("/api/monsters?schema=basic", &basic)
		c.Get("/api/monsters?schema=view", &view)
		if len(list) != len(monsters) || len(basic) != len(monsters) || len(view) != len(monsters) {
			t.Fatalf("counts: list %d basic %d view %d model %d", len(list), len(basic), len(view), len(monsters))
		}
		for i := range list {
			for _, key := range []string{"id", "kind", "name", "slug"} {
				if list[i][key] == nil || basic[i][key] == nil {
					t.Fatalf("row %d lacks %s", i, key)
				}
			}
			if list[i]["type"] == nil || list[i]["size"] == nil {
				t.Fatalf("list row lacks the filter keys: %v", list[i])
			}
			if basic[i]["type"] != nil || basic[i]["size"] != nil {
				t.Fatalf("basic row carries filter keys: %v", basic[i])
			}
			if view[i]["id"] != monsters[i].ID || len(view[i]) <= 4 {
				t.Fatalf("view row: %v", view[i])
			}
		}
		e2e.WantAPIError(t, c.Do("GET", "/api/monsters?schema=everything", ""), 400, "schema")
		etag := def.Header.Get("ETag")
		if etag == "" {
			t.Fatal("listing without ETag")
		}
		if nm := c.Do("GET", "/api/monsters", "", "If-None-Match", etag); nm.Status != 304 {
			t.Fatalf("listing If-None-Match: %d", nm.Status)
		}
	})

	t.Run("single entity reads", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		var got e2e.ApiEntity
		c.Get("/api/monsters/"+monster.ID, &got)
		if got.ID != monster.ID || got.Data == nil {
			t.Fatalf("model: %+v", got)
		}
		view := c.Get("/api/monsters/"+monster.ID+"?schema=view", nil).Object(t)
		if view["id"] != monster.ID {
			t.Fatalf("view: %v", view)
		}
		e2e.WantAPIError(t, c.Do("GET", "/api/monsters/"+monster.ID+"?schema=basic", ""), 400, "schema")
		e2e.WantAPIError(t, c.Do("GET", "/api/monsters/no-such-id", ""), 404, "no-such-id")
		e2e.WantAPIError(t, c.Do("GET", "/api/spells/"+monster.ID, ""), 404, monster.ID)
		linked := 0
		for _, m := range monsters {
			r := c.Get("/api/monsters/"+m.ID+"?references=true", nil).Object(t)
			refs, ok := r["references"].([]any)
			if !ok {
				t.Fatalf("references=true without a references array: %v", r["references"])
			}
			for _, ref := range refs {
				if id, _ := ref.(map[string]any)["id"].(string); id == "" {
					t.Fatalf("unresolved reference entry: %v", ref)
				}
			}
			linked += len(refs)
		}
		if linked == 0 {
			t.Fatal("no sample monster resolves any reference")
		}
	})

	t.Run("PUT and PATCH entities", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		e2e.WantAPIError(t, c.Do("PUT", "/api/monsters/a", `{"id":"b","name":"x"}`), 400, "body id 'b' does not match path id 'a'")
		raw := c.Get("/api/monsters/"+monster.ID, nil).Object(t)
		raw["name"] = "Renamed Monster"
		body, _ := json.Marshal(raw)
		put := c.Do("PUT", "/api/monsters/"+monster.ID, string(body))
		if put.Status != 200 || put.Object(t)["name"] != "Renamed Monster" {
			t.Fatalf("PUT: %d %.300s", put.Status, put.Body)
		}
		patch := c.Do("PATCH", "/api/monsters/"+monster.ID, `{"notes":"patched","data":{"alignment":null}}`)
		if patch.Status != 200 {
			t.Fatalf("PATCH: %d %s", patch.Status, patch.Body)
		}
		var after e2e.ApiEntity
		c.Get("/api/monsters/"+monster.ID, &after)
		if after.Name != "Renamed Monster" || after.Data["alignment"] != nil || after.Data["hit_points"] == nil {
			t.Fatalf("after PATCH: %+v", after)
		}
		var list []map[string]any
		c.Get("/api/monsters", &list)
		found := false
		for _, row := range list {
			found = found || row["name"] == "Renamed Monster"
		}
		if !found {
			t.Fatal("listing does not show the write")
		}
	})

	t.Run("bad bodies", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		p := "/api/monsters/" + monster.ID
		e2e.WantAPIError(t, c.Do("PATCH", p, `{"name":`), 400, "malformed JSON")
		e2e.WantAPIError(t, c.Do("PUT", p, `[]`), 400, "expected an object")
		e2e.WantAPIError(t, c.Do("PATCH", p, `{"name":7}`), 400, "field 'name' must be a string")
		e2e.WantAPIError(t, c.Do("PATCH", p, ``), 400, "empty body")
		huge := `{"notes":"` + strings.Repeat("x", 70000) + `"}`
		e2e.WantAPIError(t, c.Do("PATCH", p, huge), 413, "larger than the limit of 65536 bytes")
	})

	t.Run("shared combatants", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		var snap struct {
			Game struct {
				Combatants []struct {
					ID       string         `json:"id"`
					EntityID string         `json:"entityId"`
					Data     map[string]any `json:"data"`
				} `json:"combatants"`
			} `json:"game"`
		}
		c.Get("/api", &snap)
		var combatantID, heroID string
		for _, cb := range snap.Game.Combatants {
			for _, ch := range characters {
				if cb.EntityID == ch.ID {
					combatantID, heroID = cb.ID, ch.ID
				}
			}
		}
		if combatantID == "" {
			t.Fatal("no combatant linked to a character in the sample campaign")
		}
		e2e.WantAPIError(t, c.Do("GET", "/api/combatants/nope", ""), 404, "nope")
		e2e.WantAPIError(t, c.Do("PUT", "/api/combatants/a", `{"id":"b"}`), 400, "body id 'b' does not match path id 'a'")
		// Entity -> combatant.
		if r := c.Do("PATCH", "/api/characters/"+heroID, `{"data":{"hit_points":17}}`); r.Status != 200 {
			t.Fatalf("PATCH character: %d %s", r.Status, r.Body)
		}
		cb := c.Get("/api/combatants/"+combatantID, nil).Object(t)
		if cb["data"].(map[string]any)["hit_points"] != 17.0 {
			t.Fatalf("combatant not updated: %v", cb["data"])
		}
		// Combatant -> entity.
		cb["data"].(map[string]any)["hit_points"] = 5
		body, _ := json.Marshal(cb)
		if r := c.Do("PUT", "/api/combatants/"+combatantID, string(body)); r.Status != 200 {
			t.Fatalf("PUT combatant: %d %s", r.Status, r.Body)
		}
		var hero e2e.ApiEntity
		c.Get("/api/characters/"+heroID, &hero)
		if hero.Data["hit_points"] != 5.0 {
			t.Fatalf("range not pushed back: %v", hero.Data["hit_points"])
		}
		// Hiding is the game master's: a public PATCH keeps the stored hidden.
		if r := c.Do("PATCH", "/api/combatants/"+combatantID, `{"hidden":true}`); r.Status != 200 || r.Object(t)["hidden"] != false {
			t.Fatalf("PATCH combatant: %d %s", r.Status, r.Body)
		}
	})

	t.Run("tokens", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		var snap struct {
			Map struct {
				Tokens []map[string]any `json:"tokens"`
			} `json:"map"`
		}
		c.Get("/api", &snap)
		if len(snap.Map.Tokens) < 2 {
			t.Fatalf("sample map has %d visible tokens", len(snap.Map.Tokens))
		}
		a, b := snap.Map.Tokens[0], snap.Map.Tokens[1]
		aID, bID := a["id"].(string), b["id"].(string)
		e2e.WantAPIError(t, c.Do("GET", "/api/tokens/nope", ""), 404, "nope")
		b["name"] = "Moved by PUT"
		body, _ := json.Marshal(b)
		r := c.Do("PUT", "/api/tokens/"+aID, string(body)) // the body's id wins
		if r.Status != 200 || r.Object(t)["id"] != bID {
			t.Fatalf("PUT token: %d %s", r.Status, r.Body)
		}
		if got := c.Get("/api/tokens/"+bID, nil).Object(t); got["name"] != "Moved by PUT" {
			t.Fatalf("token B: %v", got["name"])
		}
		if got := c.Get("/api/tokens/"+aID, nil).Object(t); got["name"] == "Moved by PUT" {
			t.Fatal("token A was overwritten")
		}
		if r := c.Do("PATCH", "/api/tokens/"+aID, `{"x":123}`); r.Status != 200 || r.Object(t)["x"] != 123.0 {
			t.Fatalf("PATCH token: %d %s", r.Status, r.Body)
		}
	})

	t.Run("messages", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		r := c.Do("POST", "/api/messages", `{"text":"/roll 1d20+5"}`)
		if r.Status != 200 {
			t.Fatalf("POST: %d %s", r.Status, r.Body)
		}
		m := r.Object(t)
		if m["campaign"] == "" || m["campaign"] == nil || m["id"] == nil {
			t.Fatalf("stored message: %v", m)
		}
		if rolls, _ := m["rolls"].([]any); len(rolls) != 1 {
			t.Fatalf("rolls: %v", m["rolls"])
		}
		e2e.WantAPIError(t, c.Do("POST", "/api/messages", `{"text":`), 400, "malformed JSON")
		e2e.WantAPIError(t, c.Do("POST", "/api/messages", `{"text":1}`), 400, "'text'")
		e2e.WantAPIError(t, c.Do("POST", "/api/messages", `{}`), 400, "'text' is required")
		for i := 1; i <= 35; i++ {
			if r := c.Do("POST", "/api/messages", fmt.Sprintf(`{"text":"line %d"}`, i)); r.Status != 200 {
				t.Fatalf("POST %d: %d", i, r.Status)
			}
		}
		var snap struct {
			Messages []struct {
				Text string `json:"text"`
			} `json:"messages"`
		}
		c.Get("/api", &snap)
		if len(snap.Messages) != 30 || snap.Messages[0].Text != "line 6" || snap.Messages[29].Text != "line 35" {
			t.Fatalf("recent messages: %d, first %+v", len(snap.Messages), snap.Messages[0])
		}
	})

	t.Run("CORS", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		pre := c.Do("OPTIONS", "/api/monsters/"+monster.ID, "", "Origin", "http://other.example", "Access-Control-Request-Method", "PATCH")
		if pre.Status >= 300 || pre.Header.Get("Access-Control-Allow-Methods") != "GET, OPTIONS" {
			t.Fatalf("preflight: %d %v", pre.Status, pre.Header)
		}
		if g := c.Do("GET", "/api", "", "Origin", "http://other.example"); g.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("GET: %v", g.Header)
		}
	})

	t.Run("no DELETE", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		for _, p := range []string{"/api/monsters/" + monster.ID, "/api/combatants/x", "/api/tokens/x", "/api/monsters"} {
			r := c.Do("DELETE", p, "")
			e2e.WantAPIError(t, r, 405, "DELETE")
			if allow := r.Header.Get("Allow"); !strings.Contains(allow, "GET") || strings.Contains(allow, "DELETE") {
				t.Fatalf("%s Allow: %q", p, allow)
			}
		}
		c.Get("/api/monsters/"+monster.ID, nil)
	})

	t.Run("static folders", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		dir := filepath.Join(srv.DataDir, "others")
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, "handout.pdf"), []byte("0123456789"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(srv.DataDir, "secret.png"), []byte("SECRET-DATA"), 0o644)
		os.Symlink(filepath.Join(srv.DataDir, "secret.png"), filepath.Join(dir, "link.png"))
		r := c.Get("/others/handout.pdf", nil)
		if r.Header.Get("Content-Type") != "application/pdf" || r.Header.Get("ETag") == "" {
			t.Fatalf("headers: %v", r.Header)
		}
		if nm := c.Do("GET", "/others/handout.pdf", "", "If-None-Match", r.Header.Get("ETag")); nm.Status != 304 {
			t.Fatalf("If-None-Match: %d", nm.Status)
		}
		if rg := c.Do("GET", "/others/handout.pdf", "", "Range", "bytes=2-4"); rg.Status != 206 || string(rg.Body) != "234" {
			t.Fatalf("Range: %d %q", rg.Status, rg.Body)
		}
		if l := c.Do("GET", "/others/", ""); l.Status != 404 || strings.Contains(string(l.Body), "handout") {
			t.Fatalf("listing: %d %s", l.Status, l.Body)
		}
		for _, p := range []string{"/others/../secret.png", "/others/%2e%2e/secret.png", "/others/..%2fsecret.png",
			"/others/..\\secret.png", "/others/%5c..%5csecret.png", "/others/link.png", "/modules/../../secret.png",
			"/systems/dnd5e/../../secret.png", "/campaigns/%2e%2e/%2e%2e/secret.png"} {
			status, out := e2e.RawRequest(t, srv.URL, p)
			if status == 200 || strings.Contains(out, "SECRET-DATA") {
				t.Fatalf("%s: %d %s", p, status, out)
			}
		}
		asset := c.Get("/systems/dnd5e/monster.svg", nil)
		if asset.Header.Get("Content-Type") != "image/svg+xml" {
			t.Fatalf("system asset: %v", asset.Header)
		}
	})

	t.Run("pages", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		for _, p := range []string{"/", "/index.html"} {
			r := c.Get(p, nil)
			if !strings.Contains(string(r.Body), "/client/") || !strings.Contains(string(r.Body), "data:image/png;base64,") {
				t.Fatalf("%s: %.300s", p, r.Body)
			}
		}
		if r := c.Get("/icon.png", nil); r.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("icon: %v", r.Header)
		}
		if r := c.Get("/client/", nil); !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("client: %v", r.Header)
		}
	})

	t.Run("reference pages", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		var spell e2e.ApiEntity = spells[0]
		for _, p := range []string{"/spell." + spell.Slug, "/spell." + spell.ID} {
			r := c.Get(p, nil)
			if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(r.Body), spell.Name) {
				t.Fatalf("%s: %.300s", p, r.Body)
			}
		}
		if r := c.Do("GET", "/not-a-reference", ""); r.Status != 400 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("malformed: %d %v", r.Status, r.Header)
		}
		if r := c.Do("GET", "/spell.no-such-spell", ""); r.Status != 404 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("unknown: %d %v", r.Status, r.Header)
		}
	})

	t.Run("OpenAPI", func(t *testing.T) {
		c := e2e.NewAPIClient(t, srv.URL)
		r := c.Get("/api/openapi.json", nil)
		doc, err := openapi3.NewLoader().LoadFromData(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		if err := doc.Validate(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/api/monsters", "/api/monsters/{id}", "/api/spells", "/api/items", "/api/characters/{id}"} {
			if doc.Paths.Find(p) == nil {
				t.Fatalf("missing %s", p)
			}
		}
	})

	t.Run("WebSocket on any path", func(t *testing.T) {
		ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/api/monsters", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		ws.SetReadDeadline(time.Now().Add(10 * time.Second))
		var env struct {
			Name string `json:"name"`
		}
		if err := ws.ReadJSON(&env); err != nil || env.Name != "app" {
			t.Fatalf("first event %q %v", env.Name, err)
		}
	})
}

// TestAPIWithoutPrimaryCampaign: GET /api answers 404 {"message"} when the
// loaded system has no primary campaign (an empty data folder).
func TestAPIWithoutPrimaryCampaign(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--empty"}})
	c := e2e.NewAPIClient(t, srv.URL)
	e2e.WantAPIError(t, c.Do("GET", "/api", ""), 404, "no primary campaign")
	e2e.WantAPIError(t, c.Do("POST", "/api/messages", `{"text":"hello"}`), 404, "no primary campaign")
}
