package systems

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// publishLog records what the watcher publishes.
type publishLog struct {
	mu     sync.Mutex
	events []core.Event
}

func (p *publishLog) Publish(events ...core.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events = append(p.events, events...)
}

func (p *publishLog) take() []core.Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.events
	p.events = nil
	return out
}

// The watcher owns the reload's outcome: it records the folder and each
// result in its ReloadStatus, returns it, and publishes reload itself,
// once per version swapped in and never for a failed one.
func TestWatchRecordsAndPublishesItsOutcome(t *testing.T) {
	dir := copyDir(t, "testdata/tinyrpg")
	status := &ReloadStatus{}
	published := &publishLog{}
	h, w := newReloader(t, dir, WatchOptions{Status: status, Publisher: published})
	if watching, last := status.Last(); watching != dir || last != nil {
		t.Fatalf("before any reload: watching %q, last %+v", watching, last)
	}

	edit(t, filepath.Join(dir, "lib", "format.lua"), `" level"`, `" circle"`)
	r := w.Reload()
	if !r.OK {
		t.Fatalf("reload failed: %+v", r)
	}
	_, last := status.Last()
	if last == nil || *last != r || last.Version != h.Current().Version() || last.Error != "" || time.Since(last.Time) > time.Minute {
		t.Fatalf("after a good reload the status is %+v, the reload returned %+v", last, r)
	}
	events := published.take()
	if len(events) != 1 || events[0].Name != core.EventReload {
		t.Fatalf("a good reload published %+v, want one %s", events, core.EventReload)
	}
	data, _ := events[0].Data.(map[string]any)
	if data["system"] != h.Current().ID() || data["version"] != h.Current().Version() {
		t.Fatalf("reload payload %+v, want the new system's id and version", events[0].Data)
	}

	edit(t, filepath.Join(dir, "system.lua"), "local fmt = require", "local fmt = = require")
	if r := w.Reload(); r.OK {
		t.Fatal("a broken edit reloaded")
	}
	_, last = status.Last()
	if last == nil || last.OK || !strings.Contains(last.Error, "system.lua:2: syntax error") {
		t.Fatalf("after a failed reload the status is %+v", last)
	}
	if events := published.take(); len(events) != 0 {
		t.Fatalf("a failed reload published %+v", events)
	}
}
