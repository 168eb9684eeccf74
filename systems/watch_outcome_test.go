package systems

import (
	"context"
	"io"
	"log/slog"
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
// result in its ReloadStatus and publishes reload itself, once per version
// swapped in and never for a failed one.
func TestWatchRecordsAndPublishesItsOutcome(t *testing.T) {
	dir := copyDir(t, "testdata/tinyrpg")
	sys, err := LoadDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := NewHolder(sys)
	status := &ReloadStatus{}
	published := &publishLog{}
	news := make(chan reloadNews, 16)
	w, err := NewWatcher(dir, h, WatchOptions{
		Debounce:  20 * time.Millisecond,
		Status:    status,
		Publisher: published,
		OnReload:  func(s *System, latency time.Duration) { news <- reloadNews{sys: s, latency: latency} },
		OnError:   func(err error) { news <- reloadNews{err: err} },
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if watching, last := status.Last(); watching != dir || last != nil {
		t.Fatalf("before any reload: watching %q, last %+v", watching, last)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; h.Current().Close() })

	edit(t, filepath.Join(dir, "lib", "format.lua"), `" level"`, `" circle"`)
	n := next(t, news)
	if n.err != nil {
		t.Fatalf("reload failed: %v", n.err)
	}
	_, last := status.Last()
	if last == nil || !last.OK || last.Version != n.sys.Version() || last.Error != "" || time.Since(last.Time) > time.Minute {
		t.Fatalf("after a good reload the status is %+v", last)
	}
	events := published.take()
	if len(events) != 1 || events[0].Name != core.EventReload {
		t.Fatalf("a good reload published %+v, want one %s", events, core.EventReload)
	}
	data, _ := events[0].Data.(map[string]any)
	if data["system"] != n.sys.ID() || data["version"] != n.sys.Version() {
		t.Fatalf("reload payload %+v, want the new system's id and version", events[0].Data)
	}

	edit(t, filepath.Join(dir, "system.lua"), "local fmt = require", "local fmt = = require")
	if n := next(t, news); n.err == nil {
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
