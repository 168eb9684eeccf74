package routes

import (
	"strings"
	"testing"
)

func TestParseReference(t *testing.T) {
	good := map[string][2]string{
		"monster.goblin":    {"monster", "goblin"},
		"magic_item.ring":   {"magic_item", "ring"},
		"spell." + goblinID: {"spell", goblinID},
		"monster.épée":      {"monster", "épée"},
	}
	for ref, want := range good {
		kind, slug, ok := parseReference(ref)
		if !ok || kind != want[0] || slug != want[1] {
			t.Fatalf("%s: %s %s %v", ref, kind, slug, ok)
		}
	}
	for _, ref := range []string{"goblin", "monster.", ".goblin", "Monster.goblin", "1monster.goblin", "monster.gob.lin", "monster.gob lin", "mon-ster.goblin", "monster.<b>"} {
		if _, _, ok := parseReference(ref); ok {
			t.Fatalf("%q parsed as a reference", ref)
		}
	}
}

func TestReferencePages(t *testing.T) {
	e := newEnv(t, envOptions{})
	// A percent-encoded reference means the same as the plain one.
	for _, path := range []string{"/monster.goblin", "/monster." + goblinID, "/monster.%67oblin", "/%6Donster.goblin"} {
		r := e.do(t, "GET", path, "")
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || !strings.Contains(string(r.body), "Goblin") {
			t.Fatalf("%s: %d %q %.200s", path, r.status, r.header.Get("Content-Type"), r.body)
		}
	}
	bad := e.do(t, "GET", "/goblin", "")
	if bad.status != 400 || !strings.HasPrefix(bad.header.Get("Content-Type"), "text/html") || !strings.Contains(string(bad.body), "&lt;kind&gt;.&lt;slug-or-id&gt;") {
		t.Fatalf("malformed: %d %s", bad.status, bad.body)
	}
	for _, path := range []string{"/monster.dragon", "/spell.goblin", "/vehicle.cart"} {
		r := e.do(t, "GET", path, "")
		if r.status != 404 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || !strings.Contains(string(r.body), "<html") {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
	}
	// Escaping: a hostile reference is not echoed as markup.
	r := e.do(t, "GET", "/%3Cscript%3E", "")
	if r.status != 400 || strings.Contains(string(r.body), "<script>") {
		t.Fatalf("hostile reference: %d %s", r.status, r.body)
	}
}
