package imports

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/store/sqlite"
)

// testCollections is a loaded system with three collections.
type testCollections struct{}

func (testCollections) SystemID() string { return "dnd5e" }
func (testCollections) KindForCollection(label string) (string, bool) {
	kind, ok := map[string]string{"monsters": "monster", "spells": "spell", "characters": "character"}[label]
	return kind, ok
}

func (testCollections) CollectionForKind(kind string) (string, bool) {
	label, ok := map[string]string{"monster": "monsters", "spell": "spells", "character": "characters"}[kind]
	return label, ok
}

// testEnv is a service over a real SQLite store in a temporary data folder.
type testEnv struct {
	store   core.Store
	svc     *engine.Service
	dataDir string
	in      *Installer
	bus     *core.Bus
	events  []core.Event
}

func newTestEnv(t testing.TB) *testEnv {
	t.Helper()
	dir := t.TempDir()
	store, err := sqlite.Open(filepath.Join(dir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	env := &testEnv{store: store, dataDir: dir, bus: core.NewBus()}
	env.bus.Subscribe(func(ev []core.Event) { env.events = append(env.events, ev...) })
	env.svc = engine.NewService(engine.ServiceConfig{Store: store, Events: env.bus})
	env.in = NewInstaller(env.svc, dir, testCollections{})
	return env
}

// view runs fn in a read transaction and fails the test on error.
func (e *testEnv) view(t testing.TB, fn func(tx core.Tx) error) {
	t.Helper()
	if err := e.store.View(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// counts returns the numbers of modules, campaigns, entities and maps.
func (e *testEnv) counts(t *testing.T) (modules, campaigns, entities, maps int) {
	t.Helper()
	e.view(t, func(tx core.Tx) error {
		ms, _ := tx.Modules()
		cs, _ := tx.Campaigns()
		es, _ := tx.Entities(core.EntityQuery{})
		mp, _ := tx.Maps("")
		modules, campaigns, entities, maps = len(ms), len(cs), len(es), len(mp)
		return nil
	})
	return
}

// dataFiles lists the files under the data folder other than the database.
func (e *testEnv) dataFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(e.dataDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(e.dataDir, p)
		if filepath.Dir(rel) == "." {
			return nil // companion.db and its WAL files
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	return files
}

func mustExist(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("expected %s to exist: %v", path, err)
	}
}

func wantKind(t *testing.T, err error, kind core.ErrorKind, contains string) {
	t.Helper()
	if err == nil {
		t.Fatalf("expected a %s error containing %q, got none", kind, contains)
	}
	if core.KindOf(err) != kind {
		t.Fatalf("expected a %s error, got %s: %v", kind, core.KindOf(err), err)
	}
	if contains != "" && !containsFold(err.Error(), contains) {
		t.Fatalf("error %q does not contain %q", err.Error(), contains)
	}
}
