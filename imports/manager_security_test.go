package imports

import (
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// panickyCollections stands for a bug anywhere in installing: it panics
// when asked about the "traps" collection.
type panickyCollections struct{ testCollections }

func (p panickyCollections) KindForCollection(label string) (string, bool) {
	if label == "traps" {
		panic("bug while reading traps.json")
	}
	return p.testCollections.KindForCollection(label)
}

// A panic while an accepted offer installs runs on a background goroutine,
// where nothing would recover it and the whole server would stop. It must
// fail the offer instead, leaving nothing half-installed.
func TestAcceptedOfferPanicFailsTheOfferNotTheServer(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, false)
	srv.put("/trap.module", makeZip(t,
		zipEntry{name: "module.json", body: `{"name":"Traps"}`},
		zipEntry{name: "traps.json", body: `[{"name":"Pit"}]`},
	))
	srv.put("/manifest.json", manifestJSON(t, map[string]any{"download": srv.URL + "/trap.module"}))
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&syncWriter{w: &logged}, nil))
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: panickyCollections{}, Client: http.DefaultClient, Log: log})
	t.Cleanup(m.Close)
	for _, src := range []Source{{URL: srv.URL + "/trap.module"}, {Manifest: srv.URL + "/manifest.json"}} {
		o, err := m.Offer(src, "test")
		if err != nil {
			t.Fatal(err)
		}
		checked(t, m, o.ID)
		if _, err := m.Accept(o.ID, ""); err != nil {
			t.Fatal(err)
		}
		done := settle(t, m, o.ID)
		if done.Status != StatusFailed || !strings.Contains(done.Error, "internal error") {
			t.Errorf("%+v: offer %s %q", src, done.Status, done.Error)
		}
	}
	if mods, _, ents, _ := env.counts(t); mods+ents != 0 {
		t.Errorf("installed %d modules %d entities", mods, ents)
	}
	if entries, _ := os.ReadDir(filepath.Join(env.dataDir, ".staging")); len(entries) != 0 {
		t.Errorf("staging not cleaned: %v", entries)
	}
	m.Close()
	if !strings.Contains(logged.String(), "bug while reading traps.json") {
		t.Errorf("the panic is not logged: %s", logged.String())
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
