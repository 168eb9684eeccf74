package routes

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestUnknownCollectionIs404(t *testing.T) {
	e := newEnv(t, envOptions{})
	wantError(t, e.do(t, "GET", "/api/monstres", ""), 404, "unknown collection 'monstres'")
	wantError(t, e.do(t, "GET", "/api/monstres/"+goblinID, ""), 404, "unknown collection 'monstres'")
	wantError(t, e.do(t, "PUT", "/api/monstres/"+goblinID, `{"id":"`+goblinID+`","name":"x"}`), 404, "unknown collection 'monstres'")
	wantError(t, e.do(t, "PATCH", "/api/monstres/"+goblinID, `{}`), 404, "unknown collection 'monstres'")
}

func TestCollectionSchemas(t *testing.T) {
	e := newEnv(t, envOptions{})
	list := e.do(t, "GET", "/api/monsters", "")
	if list.status != 200 || !strings.HasPrefix(list.header.Get("Content-Type"), "application/json") {
		t.Fatalf("list: %d %s", list.status, list.header.Get("Content-Type"))
	}
	rows := list.array(t)
	if len(rows) != 2 || rows[0]["name"] != "Goblin" || rows[1]["name"] != "Shifter" {
		t.Fatalf("list rows = %v", rows)
	}
	// rule 1: list rows carry the filter keys; rule 2: basic rows do not.
	if rows[0]["type"] != "humanoid" || rows[0]["size"] != "Small" || rows[0]["challenge_rating"] != 0.25 {
		t.Fatalf("list row lacks filter keys: %v", rows[0])
	}
	if def := e.do(t, "GET", "/api/monsters?schema=list", ""); string(def.body) != string(list.body) {
		t.Fatal("schema=list differs from the default")
	}
	basic := e.do(t, "GET", "/api/monsters?schema=basic", "").array(t)
	if _, has := basic[0]["type"]; has || basic[0]["slug"] != "goblin" || basic[0]["id"] != goblinID {
		t.Fatalf("basic row = %v", basic[0])
	}
	// rule 3: model is the stored entity.
	model := e.do(t, "GET", "/api/monsters?schema=model", "").array(t)
	if data, ok := model[0]["data"].(map[string]any); !ok || data["hit_points"] != 7.0 {
		t.Fatalf("model row = %v", model[0])
	}
	// rule 4: view is the rendering context computed by the system.
	view := e.do(t, "GET", "/api/monsters?schema=view", "").array(t)
	if view[0]["id"] != goblinID || len(view[0]) <= 4 {
		t.Fatalf("view row = %v", view[0])
	}
	// rule 5: any other schema is 400.
	wantError(t, e.do(t, "GET", "/api/monsters?schema=full", ""), 400, "schema must be list, basic, model or view, not 'full'")
	if spells := e.do(t, "GET", "/api/spells", "").array(t); len(spells) != 1 || spells[0]["name"] != "Fireball" {
		t.Fatalf("spells = %v", spells)
	}
}

func TestCollectionListingETag(t *testing.T) {
	e := newEnv(t, envOptions{})
	first := e.do(t, "GET", "/api/monsters", "")
	etag := first.header.Get("ETag")
	if etag == "" {
		t.Fatal("listing has no ETag")
	}
	again := e.do(t, "GET", "/api/monsters", "", "If-None-Match", etag)
	if again.status != http.StatusNotModified || len(again.body) != 0 {
		t.Fatalf("matching If-None-Match: %d %q", again.status, again.body)
	}
	if other := e.do(t, "GET", "/api/monsters?schema=basic", "", "If-None-Match", etag); other.status != 200 {
		t.Fatalf("another schema answered %d to the list ETag", other.status)
	}
	// A write makes the cached listing stale: new body, new ETag.
	if r := e.do(t, "PATCH", "/api/monsters/"+goblinID, `{"name":"Goblin Boss"}`); r.status != 200 {
		t.Fatalf("patch: %d %s", r.status, r.body)
	}
	after := e.do(t, "GET", "/api/monsters", "", "If-None-Match", etag)
	if after.status != 200 || after.header.Get("ETag") == etag || !strings.Contains(string(after.body), "Goblin Boss") {
		t.Fatalf("after a write: %d etag %s body %.200s", after.status, after.header.Get("ETag"), after.body)
	}
}

func TestSingleEntityReads(t *testing.T) {
	e := newEnv(t, envOptions{})
	model := e.do(t, "GET", "/api/monsters/"+goblinID, "").json(t)
	if model["id"] != goblinID || model["kind"] != "monster" {
		t.Fatalf("model = %v", model)
	}
	if _, has := model["references"]; has {
		t.Fatal("references present without references=true")
	}
	view := e.do(t, "GET", "/api/monsters/"+goblinID+"?schema=view", "").json(t)
	if view["id"] != goblinID {
		t.Fatalf("view = %v", view)
	}
	wantError(t, e.do(t, "GET", "/api/monsters/"+goblinID+"?schema=list", ""), 400, "schema must be model or view")
	wantError(t, e.do(t, "GET", "/api/monsters/"+goblinID+"?references=maybe", ""), 400, "references must be true or false")
	// rule 7: unknown id, and an id of another kind, are 404.
	wantError(t, e.do(t, "GET", "/api/monsters/nope", ""), 404, "no monster with id 'nope'")
	wantError(t, e.do(t, "GET", "/api/spells/"+goblinID, ""), 404, "no spell with id '"+goblinID+"'")
}

func TestReferencesAreResolved(t *testing.T) {
	e := newEnv(t, envOptions{})
	got := e.do(t, "GET", "/api/monsters/"+shifterID+"?references=true", "").json(t)
	refs, ok := got["references"].([]any)
	if !ok || len(refs) != 1 {
		t.Fatalf("references = %v (want the goblin only; not-installed is skipped)", got["references"])
	}
	if ref := refs[0].(map[string]any); ref["id"] != goblinID || ref["data"] == nil {
		t.Fatalf("reference is not the goblin's model: %v", ref)
	}
	view := e.do(t, "GET", "/api/monsters/"+shifterID+"?schema=view&references=true", "").json(t)
	if refs := view["references"].([]any); len(refs) != 1 || refs[0].(map[string]any)["id"] != goblinID {
		t.Fatalf("view references = %v", view["references"])
	}
	none := e.do(t, "GET", "/api/monsters/"+goblinID+"?references=true", "").json(t)
	if refs, ok := none["references"].([]any); !ok || len(refs) != 0 {
		t.Fatalf("an entity without links must carry references: [], got %v", none["references"])
	}
}

func TestPutEntity(t *testing.T) {
	e := newEnv(t, envOptions{})
	// rule 8: the body id must equal the path id.
	wantError(t, e.do(t, "PUT", "/api/monsters/a", `{"id":"b","name":"Goblin"}`), 400, "body id 'b' does not match path id 'a'")
	if ev := e.events.Take(); ev != "" {
		t.Fatalf("refused PUT published %s", ev)
	}
	body := `{"id":"` + goblinID + `","name":"Goblin","data":{"hit_points":12,"type":"humanoid"}}`
	r := e.do(t, "PUT", "/api/monsters/"+goblinID, body)
	if r.status != 200 {
		t.Fatalf("PUT: %d %s", r.status, r.body)
	}
	out := r.json(t)
	if out["kind"] != "monster" || out["data"].(map[string]any)["hit_points"] != 12.0 {
		t.Fatalf("stored = %v", out)
	}
	if ev := e.events.Take(); ev != "entityUpdated" {
		t.Fatalf("events = %s", ev)
	}
	wantError(t, e.do(t, "PUT", "/api/spells/"+goblinID, `{"id":"`+goblinID+`","name":"x"}`), 404, "no spell with id")
}

func TestUniqueEntityWriteUpdatesCombatant(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.do(t, "PATCH", "/api/characters/"+heroID, `{"data":{"hit_points":11}}`)
	if r.status != 200 {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	if ev := e.events.Take(); ev != "entityUpdated,combatantUpdated" {
		t.Fatalf("events = %s", ev)
	}
	c := e.do(t, "GET", "/api/combatants/"+heroCombatID, "").json(t)
	if c["data"].(map[string]any)["hit_points"] != 11.0 {
		t.Fatalf("combatant not updated: %v", c)
	}
}

func TestPatchEntityMerges(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.do(t, "PATCH", "/api/monsters/"+goblinID, `{"descr":"sneaky","data":{"size":null,"hit_points":9}}`)
	if r.status != 200 {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	got := e.do(t, "GET", "/api/monsters/"+goblinID, "").json(t)
	data := got["data"].(map[string]any)
	if got["name"] != "Goblin" || got["descr"] != "sneaky" || data["hit_points"] != 9.0 || data["type"] != "humanoid" {
		t.Fatalf("merged = %v", got)
	}
	if _, has := data["size"]; has {
		t.Fatal("null did not remove data.size")
	}
}

func TestBadBodies(t *testing.T) {
	e := newEnv(t, envOptions{})
	path := "/api/monsters/" + goblinID
	for _, method := range []string{"PUT", "PATCH"} {
		wantError(t, e.do(t, method, path, `{"id": "x",`), 400, "malformed JSON")
		wantError(t, e.do(t, method, path, `[1,2]`), 400, "expected an object, got JSON array")
		wantError(t, e.do(t, method, path, `"text"`), 400, "expected an object, got JSON string")
		wantError(t, e.do(t, method, path, ``), 400, "empty body")
		wantError(t, e.do(t, method, path, `null`), 400, "expected a JSON object, got null")
		wantError(t, e.do(t, method, path, `{} {}`), 400, "malformed JSON")
	}
	wantError(t, e.do(t, "PUT", path, `{"id":"`+goblinID+`","name":42}`), 400, "field 'name' must be a string, not number")
	wantError(t, e.do(t, "PATCH", path, `{"name":42}`), 400, "field 'name' must be a string")
	wantError(t, e.do(t, "PUT", "/api/combatants/"+heroCombatID, `{"id":"`+heroCombatID+`","hidden":"yes"}`), 400, "field 'hidden' must be a boolean")
	wantError(t, e.do(t, "PATCH", "/api/tokens/"+tokenA, `{"x":"left"}`), 400, "field 'x' must be a number")
	if ev := e.events.Take(); ev != "" {
		t.Fatalf("bad bodies published %s", ev)
	}
}

func TestBodyLimit(t *testing.T) {
	e := newEnv(t, envOptions{maxBodyBytes: 512})
	big := `{"id":"` + goblinID + `","name":"Goblin","notes":"` + strings.Repeat("x", 600) + `"}`
	wantError(t, e.do(t, "PUT", "/api/monsters/"+goblinID, big), 413, "larger than the limit of 512 bytes")
	wantError(t, e.do(t, "POST", "/api/messages", `{"text":"`+strings.Repeat("y", 600)+`"}`), 413, "limit of 512 bytes")
	// A chunked body (no declared length) is cut off while reading.
	req, _ := http.NewRequest("PATCH", e.srv.URL+"/api/monsters/"+goblinID, strings.NewReader(big))
	req.ContentLength = -1
	resp, err := noGzipClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Fatalf("chunked oversized body: %d", resp.StatusCode)
	}
}

func TestCombatants(t *testing.T) {
	e := newEnv(t, envOptions{})
	c := e.do(t, "GET", "/api/combatants/"+heroCombatID, "")
	if c.status != 200 || c.json(t)["id"] != heroCombatID {
		t.Fatalf("GET combatant: %d %s", c.status, c.body)
	}
	wantError(t, e.do(t, "GET", "/api/combatants/nope", ""), 404, "no combatant with id 'nope'")
	wantError(t, e.do(t, "PUT", "/api/combatants/a", `{"id":"b"}`), 400, "body id 'b' does not match path id 'a'")
	r := e.do(t, "PUT", "/api/combatants/"+heroCombatID, `{"id":"`+heroCombatID+`","name":"Hero","entityId":"`+heroID+`","data":{"hit_points":3}}`)
	if r.status != 200 {
		t.Fatalf("PUT combatant: %d %s", r.status, r.body)
	}
	if ev := e.events.Take(); ev != "combatantUpdated,entityUpdated" {
		t.Fatalf("events = %s", ev)
	}
	hero := e.do(t, "GET", "/api/characters/"+heroID, "").json(t)
	if hero["data"].(map[string]any)["hit_points"] != 3.0 {
		t.Fatalf("range not pushed back: %v", hero["data"])
	}
	// Hiding is the game master's: a public PATCH keeps the stored hidden.
	if r := e.do(t, "PATCH", "/api/combatants/"+heroCombatID, `{"hidden":true,"label":"H"}`); r.status != 200 || r.json(t)["hidden"] != false || r.json(t)["label"] != "H" {
		t.Fatalf("PATCH combatant: %d %s", r.status, r.body)
	}
}

func TestTokens(t *testing.T) {
	e := newEnv(t, envOptions{})
	wantError(t, e.do(t, "GET", "/api/tokens/nope", ""), 404, "no token with id 'nope'")
	// The body wins: PUT on A with B's id writes B.
	r := e.do(t, "PUT", "/api/tokens/"+tokenA, `{"id":"`+tokenB+`","name":"B2","x":40,"y":50}`)
	if r.status != 200 || r.json(t)["id"] != tokenB {
		t.Fatalf("PUT token: %d %s", r.status, r.body)
	}
	if a := e.do(t, "GET", "/api/tokens/"+tokenA, "").json(t); a["name"] != "A" {
		t.Fatalf("token A changed: %v", a)
	}
	if b := e.do(t, "GET", "/api/tokens/"+tokenB, "").json(t); b["name"] != "B2" || b["x"] != 40.0 {
		t.Fatalf("token B not written: %v", b)
	}
	if ev := e.events.Take(); ev != "tokenUpdated" {
		t.Fatalf("events = %s", ev)
	}
	p := e.do(t, "PATCH", "/api/tokens/"+tokenA, `{"x":5}`)
	if p.status != 200 || p.json(t)["x"] != 5.0 || p.json(t)["name"] != "A" {
		t.Fatalf("PATCH token: %d %s", p.status, p.body)
	}
	wantError(t, e.do(t, "PATCH", "/api/tokens/"+tokenA, `{"id":"other"}`), 400, "body id 'other' does not match path id")
}

func TestNoDelete(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, path := range []string{"/api/monsters/" + goblinID, "/api/monsters", "/api/combatants/" + heroCombatID, "/api/tokens/" + tokenA, "/api", "/api/messages", "/monster.goblin"} {
		r := e.do(t, "DELETE", path, "")
		if r.status != 405 {
			t.Fatalf("DELETE %s: %d", path, r.status)
		}
		if allow := r.header.Get("Allow"); allow == "" || strings.Contains(allow, "DELETE") {
			t.Fatalf("DELETE %s: Allow %q", path, allow)
		}
		wantError(t, r, 405, "method DELETE is not allowed")
	}
	if allow := e.do(t, "DELETE", "/api/monsters/"+goblinID, "").header.Get("Allow"); allow != "GET, HEAD, PUT, PATCH, OPTIONS" {
		t.Fatalf("Allow = %q", allow)
	}
	if allow := e.do(t, "POST", "/api/monsters", "{}").header.Get("Allow"); allow != "GET, HEAD, OPTIONS" {
		t.Fatalf("Allow = %q", allow)
	}
	// The entity is still there.
	if r := e.do(t, "GET", "/api/monsters/"+goblinID, ""); r.status != 200 {
		t.Fatalf("entity gone: %d", r.status)
	}
}

// jsonEqual compares two JSON texts by value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
