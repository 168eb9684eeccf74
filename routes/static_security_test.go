package routes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// Hostile paths against the data folders (contract 4.7: static routes
// never leave their folder). companion.db sits in the data folder itself,
// one level above every served folder.
func TestStaticPathsNeverReachTheDatabase(t *testing.T) {
	e := newEnv(t, envOptions{})
	writeFile(t, filepath.Join(e.dataDir, "modules", "m1", "ok.png"), "ok")
	db, err := os.ReadFile(filepath.Join(e.dataDir, "companion.db"))
	if err != nil || len(db) < 16 {
		t.Fatalf("no database to protect: %v", err)
	}
	marker := "SQLite format 3"
	for _, path := range []string{
		"/modules/..%2f..%2fcompanion.db",
		"/modules/..%2fcompanion.db",
		"/modules/m1/..%2f..%2fcompanion.db",
		"/modules/..%5ccompanion.db",
		"/modules/%2e%2e%5ccompanion.db",
		"/modules/%252e%252e%252fcompanion.db", // double encoding: a literal name, not a path
		"/modules/%25%32%65%25%32%65/companion.db",
		"/modules/..%c0%afcompanion.db", // overlong UTF-8 slash
		"/modules/..%e0%80%afcompanion.db",
		"/modules/m1/ok.png%00../../companion.db",
		"/modules/m1%00/../../companion.db",
		"/modules/.%2e/companion.db",
		"/campaigns/..;/companion.db",
		"/others/..%2F..%2Fcompanion.db",
		"/systems/..%2fcompanion.db",
		"/systems/dnd5e/..%2f..%2f..%2fcompanion.db",
		"/client/..%2f..%2fcompanion.db",
		"/client/%2e%2e/%2e%2e/companion.db",
		"/companion.db",
		"/./companion.db",
		"/modules/./../companion.db",
	} {
		status, out := rawGet(t, e, path)
		if strings.Contains(out, marker) {
			t.Errorf("%s leaked the database", path)
		}
		if status == 200 {
			t.Errorf("%s answered 200", path)
		}
		if status >= 500 {
			t.Errorf("%s answered %d", path, status)
		}
	}
}

func TestStaticVeryLongPathsAreRefusedQuietly(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, path := range []string{
		"/modules/" + strings.Repeat("a", 300) + ".png",                  // longer than a file name may be
		"/modules/" + strings.Repeat("a/", 3000) + "x.png",               // deeper than any folder
		"/modules/" + strings.Repeat("%2e%2e%2f", 2000) + "companion.db", // many escapes
	} {
		r := e.do(t, "GET", path, "")
		if r.status != 404 && r.status != 400 && r.status != 414 && r.status != 431 {
			t.Errorf("%.40s...: %d", path, r.status)
		}
	}
}

// A symbolic link inside the data folder that points outside it (placed by
// hand or by another program) is never followed, for a file or a folder.
func TestStaticSymlinksOutOfTheDataFolderAreNotFollowed(t *testing.T) {
	e := newEnv(t, envOptions{})
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.png"), "TOP SECRET")
	os.MkdirAll(filepath.Join(e.dataDir, "campaigns", "c1"), 0o755)
	os.MkdirAll(filepath.Join(e.dataDir, "systems"), 0o755)
	for _, link := range [][2]string{
		{filepath.Join(outside, "secret.png"), filepath.Join(e.dataDir, "campaigns", "c1", "s.png")},
		{outside, filepath.Join(e.dataDir, "campaigns", "out")},
		{outside, filepath.Join(e.dataDir, "systems", "evil")},
		{filepath.Join(e.dataDir, "companion.db"), filepath.Join(e.dataDir, "campaigns", "c1", "db.png")},
	} {
		if err := os.Symlink(link[0], link[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range []string{"/campaigns/c1/s.png", "/campaigns/out/secret.png", "/systems/evil/secret.png", "/campaigns/c1/db.png"} {
		r := e.do(t, "GET", path, "")
		if r.status != 404 || strings.Contains(string(r.body), "TOP SECRET") || strings.Contains(string(r.body), "SQLite") {
			t.Errorf("%s: %d %.60q", path, r.status, r.body)
		}
	}
}

// Imported archives are hostile content: an HTML or SVG page among a
// module's files must not run script in the origin of the web client and
// the API. An HTML page is no media and is not served at all; the files of
// the data folders are served with a sandboxing CSP.
func TestStaticImportedPagesCannotRunScriptInTheAppOrigin(t *testing.T) {
	e := newEnv(t, envOptions{})
	writeFile(t, filepath.Join(e.dataDir, "modules", "m1", "evil.html"), `<script>fetch("/api")</script>`)
	writeFile(t, filepath.Join(e.dataDir, "campaigns", "c1", "evil.svg"), `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)
	writeFile(t, filepath.Join(e.dataDir, "others", "fog.png"), "png")
	if r := e.do(t, "GET", "/modules/m1/evil.html", ""); r.status != 404 || strings.Contains(string(r.body), "script") {
		t.Errorf("an HTML page of a module: %d %s", r.status, r.body)
	}
	for _, path := range []string{"/campaigns/c1/evil.svg", "/others/fog.png"} {
		r := e.do(t, "GET", path, "")
		if r.status != 200 {
			t.Fatalf("%s: %d", path, r.status)
		}
		csp := r.header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "sandbox") || !strings.Contains(csp, "script-src 'none'") {
			t.Errorf("%s: Content-Security-Policy %q", path, csp)
		}
		if r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: sniffing allowed", path)
		}
	}
	// PDF handouts keep the browser's viewer (no sandbox) but no script.
	writeFile(t, filepath.Join(e.dataDir, "modules", "m1", "handout.pdf"), "%PDF-1.4")
	r := e.do(t, "GET", "/modules/m1/handout.pdf", "")
	if csp := r.header.Get("Content-Security-Policy"); r.status != 200 || strings.Contains(csp, "sandbox") || !strings.Contains(csp, "script-src 'none'") {
		t.Errorf("pdf: %d %q", r.status, csp)
	}
}

// Reference pages (GET /{reference}): malformed references are 400,
// unknown ones 404, and nothing from the path or the stored content is
// echoed as markup.
func TestReferenceHostileNamesAreEscaped(t *testing.T) {
	e := newEnv(t, envOptions{seed: func(tx core.Tx) error {
		ent := &core.Entity{ID: "7E57E000-0000-4000-8000-00000000BAD1", Kind: "monster", System: "dnd5e",
			Name: `<script>alert("name")</script>`, Slug: "hostile",
			Data: core.Object{"size": `<img src=x onerror=alert(1)>`, "type": `"><script>alert(2)</script>`}}
		ent.Normalize(ent.Created)
		return tx.PutEntity(ent)
	}})
	for path, status := range map[string]int{
		"/monster.%2e%2e": 400,
		"/monster..":      400,
		"/monster.%3Cscript%3Ealert(1)%3C%2Fscript%3E": 400,
		"/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E.x":  400,
		"/monster.goblin%00":                           400,
		"/monster.goblin%0d%0aSet-Cookie:x=1":          400,
		"/monster.%E2%80%AEnilbog":                     400,
		"/zzz.goblin":                                  404,
		"/monster.nobody":                              404,
	} {
		r := e.do(t, "GET", path, "")
		if r.status != status {
			t.Errorf("%s: %d, want %d", path, r.status, status)
		}
		body := string(r.body)
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img src=x") {
			t.Errorf("%s: markup echoed: %s", path, body)
		}
		if r.header.Get("Set-Cookie") != "" {
			t.Errorf("%s: header injected", path)
		}
	}
	r := e.do(t, "GET", "/monster.hostile", "")
	if r.status != 200 {
		t.Fatalf("hostile entity page: %d %s", r.status, r.body)
	}
	for _, raw := range []string{`<script>alert("name")</script>`, `<img src=x onerror=alert(1)>`, `"><script>alert(2)</script>`} {
		if strings.Contains(string(r.body), raw) {
			t.Errorf("the page holds %s unescaped", raw)
		}
	}
}
