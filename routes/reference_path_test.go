package routes

import (
	"strings"
	"testing"
)

// The API hands out references as /<kind>/<slug> (the real web client
// opens them so): they render the page of /<kind>.<slug>.
func TestReferencePagesAtKindSlash(t *testing.T) {
	e := newEnv(t, envOptions{})
	want := e.do(t, "GET", "/monster.goblin", "")
	for _, path := range []string{"/monster/goblin", "/monster/" + goblinID, "/monster/%67oblin"} {
		r := e.do(t, "GET", path, "")
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || string(r.body) != string(want.body) {
			t.Fatalf("%s: %d %q, want the page of /monster.goblin", path, r.status, r.header.Get("Content-Type"))
		}
	}
	for _, path := range []string{"/monster/dragon", "/spell/goblin", "/vehicle/cart"} {
		if r := e.do(t, "GET", path, ""); r.status != 404 || !strings.Contains(string(r.body), "<html") {
			t.Fatalf("%s: %d %s, want an HTML 404", path, r.status, r.body)
		}
	}
	for _, path := range []string{"/Monster/goblin", "/monster/gob.lin", "/monster/gob%20lin", "/%3Cb%3E/x"} {
		r := e.do(t, "GET", path, "")
		if r.status != 400 || strings.Contains(string(r.body), "<b>") || !strings.Contains(string(r.body), "/&lt;kind&gt;/&lt;slug-or-id&gt;") {
			t.Fatalf("%s: %d %s, want an HTML 400 naming the form", path, r.status, r.body)
		}
	}
	// The folders served under their own names keep their routes.
	if r := e.do(t, "GET", "/client/", ""); r.status != 200 || strings.Contains(string(r.body), "Invalid reference") {
		t.Fatalf("/client/: %d %.200s", r.status, r.body)
	}
	if r := e.do(t, "GET", "/api/monsters", ""); r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Fatalf("/api/monsters: %d %q", r.status, r.header.Get("Content-Type"))
	}
	for _, path := range []string{"/modules/none.png", "/campaigns/none.png", "/others/none.png", "/systems/none.png"} {
		if r := e.do(t, "GET", path, ""); strings.Contains(string(r.body), "reference") {
			t.Fatalf("%s answered as a reference: %d %s", path, r.status, r.body)
		}
	}
}
