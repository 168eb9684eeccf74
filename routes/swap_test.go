package routes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/systems"
)

// TestSystemSwapRefreshesEverything: after a hot reload to another system
// the collections, listings, system document and OpenAPI description are
// those of the new system (no cache keeps the old one).
func TestSystemSwapRefreshesEverything(t *testing.T) {
	mini, err := systems.Load(os.DirFS("testdata/minisys"), systems.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer mini.Close()
	e := newEnv(t, envOptions{seed: func(tx core.Tx) error {
		w := &core.Entity{ID: "w1", Kind: "widget", System: "minisys", Name: "Sprocket", Data: core.Object{"color": "red"}}
		w.Normalize(w.Created)
		return tx.PutEntity(w)
	}})
	// Warm every cache with dnd5e.
	for _, p := range []string{"/api/system", "/api/monsters", "/api/openapi.json"} {
		if r := e.do(t, "GET", p, ""); r.status != 200 {
			t.Fatalf("%s: %d", p, r.status)
		}
	}
	wantError(t, e.do(t, "GET", "/api/widgets", ""), 404, "unknown collection 'widgets'")

	e.holder.Swap(mini)
	if doc := e.do(t, "GET", "/api/system", "").json(t); doc["id"] != "minisys" {
		t.Fatalf("system document after swap: %v", doc["id"])
	}
	wantError(t, e.do(t, "GET", "/api/monsters", ""), 404, "unknown collection 'monsters'")
	rows := e.do(t, "GET", "/api/widgets", "").array(t)
	if len(rows) != 1 || rows[0]["color"] != "red" {
		t.Fatalf("widgets = %v", rows)
	}
	if v := e.do(t, "GET", "/api/widgets/w1?schema=view", "").json(t); v["label"] != "Widget Sprocket" {
		t.Fatalf("view = %v", v)
	}
	if api := string(e.do(t, "GET", "/api/openapi.json", "").body); !strings.Contains(api, `"/api/widgets"`) || strings.Contains(api, `"/api/monsters"`) {
		t.Fatal("OpenAPI still describes the old system")
	}
	if r := e.do(t, "GET", "/widget.w1", ""); r.status != 200 || !strings.Contains(string(r.body), "Widget Sprocket") {
		t.Fatalf("reference page: %d %s", r.status, r.body)
	}
}

// TestSystemAssetsFromDiskDoNotFollowLinks: a system loaded from a folder
// serves its assets/ files but no symbolic link inside it.
func TestSystemAssetsFromDiskDoNotFollowLinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/minisys")); err != nil {
		t.Fatal(err)
	}
	secretDir := t.TempDir()
	writeFile(t, filepath.Join(secretDir, "secret.txt"), "TOP SECRET")
	writeFile(t, filepath.Join(dir, "assets", "style.css"), "h1{color:red}")
	if err := os.Symlink(filepath.Join(secretDir, "secret.txt"), filepath.Join(dir, "assets", "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secretDir, filepath.Join(dir, "assets", "linkdir")); err != nil {
		t.Fatal(err)
	}
	sys, err := systems.LoadDir(dir, systems.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	e := newEnv(t, envOptions{})
	e.holder.Swap(sys)
	if r := e.do(t, "GET", "/systems/minisys/style.css", ""); r.status != 200 || string(r.body) != "h1{color:red}" {
		t.Fatalf("style.css: %d %s", r.status, r.body)
	}
	for _, p := range []string{"/systems/minisys/link.txt", "/systems/minisys/linkdir/secret.txt"} {
		if r := e.do(t, "GET", p, ""); r.status == 200 || strings.Contains(string(r.body), "TOP SECRET") {
			t.Fatalf("%s: %d %s", p, r.status, r.body)
		}
	}
}
