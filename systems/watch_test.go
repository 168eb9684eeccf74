package systems

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// reloadFeed is a core.Publisher that hands each reload event to a
// channel: what the watcher tells clients when a version goes live.
type reloadFeed chan core.Event

func (f reloadFeed) Publish(events ...core.Event) {
	for _, e := range events {
		f <- e
	}
}

// startWatch loads dir and watches it; the channel receives a reload event
// each time an edit goes live.
func startWatch(t *testing.T, dir string) (*Holder, reloadFeed) {
	t.Helper()
	sys, err := LoadDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := NewHolder(sys)
	feed := make(reloadFeed, 16)
	w, err := NewWatcher(dir, h, WatchOptions{
		Debounce:  20 * time.Millisecond,
		Publisher: feed,
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; h.Current().Close() })
	return h, feed
}

// newReloader loads dir into a holder and a watcher that is never run:
// the test reloads by calling Reload.
func newReloader(t *testing.T, dir string, opts WatchOptions) (*Holder, *Watcher) {
	t.Helper()
	sys, err := LoadDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := NewHolder(sys)
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	w, err := NewWatcher(dir, h, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); h.Current().Close() })
	return h, w
}

func next(t *testing.T, feed reloadFeed) core.Event {
	t.Helper()
	select {
	case e := <-feed:
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no reload within 5s")
		return core.Event{}
	}
}

func heroSummary(t *testing.T, s *System) string {
	t.Helper()
	v, err := s.ViewValue(context.Background(), &heroEntity)
	if err != nil {
		t.Fatal(err)
	}
	return v["summary"].(string)
}

var heroEntity = heroFixture()

func heroFixture() (e core.Entity) {
	e.ID, e.Kind, e.Name, e.Slug = "h1", "hero", "Ayla", "ayla"
	e.Data = map[string]any{"level": 3.0, "hp": 24.0}
	return e
}

func edit(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An edit goes live after the debounce; editor temp files alone never
// reload.
func TestWatchReloadsAnEdit(t *testing.T) {
	dir := copyDir(t, "testdata/tinyrpg")
	h, feed := startWatch(t, dir)
	first := h.Current()
	if got := heroSummary(t, first); got != "Ayla, 3rd level" {
		t.Fatalf("before: %q", got)
	}

	// An edit of a required module is live after the debounce.
	edit(t, filepath.Join(dir, "lib", "format.lua"), `" level"`, `" circle"`)
	if e := next(t, feed); e.Name != core.EventReload {
		t.Fatalf("published %s, want reload", e.Name)
	}
	if h.Current() == first {
		t.Fatal("the new version was not swapped in")
	}
	if got := heroSummary(t, h.Current()); got != "Ayla, 3rd circle" {
		t.Fatalf("after edit: %q", got)
	}

	// Editor temp files do not trigger reloads; an edit after them does,
	// once.
	for _, name := range []string{".system.lua.swp", "system.lua~", ".#system.lua", "4913"} {
		os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644)
	}
	select {
	case e := <-feed:
		t.Fatalf("editor temp files reloaded the system: %+v", e)
	case <-time.After(150 * time.Millisecond): // several debounce windows
	}
	edit(t, filepath.Join(dir, "lib", "format.lua"), `" circle"`, `" rank"`)
	next(t, feed)
	select {
	case extra := <-feed:
		t.Fatalf("unexpected extra reload: %+v", extra)
	case <-time.After(150 * time.Millisecond):
	}
	if got := heroSummary(t, h.Current()); got != "Ayla, 3rd rank" {
		t.Fatalf("after the second edit: %q", got)
	}
}

// A version that does not load leaves the previous one serving; the error
// names file:line; fixing the file reloads.
func TestReloadKeepsTheOldVersionOnError(t *testing.T) {
	dir := copyDir(t, "testdata/tinyrpg")
	h, w := newReloader(t, dir, WatchOptions{})
	edit(t, filepath.Join(dir, "lib", "format.lua"), `" level"`, `" circle"`)
	r := w.Reload()
	if !r.OK || heroSummary(t, h.Current()) != "Ayla, 3rd circle" {
		t.Fatalf("a good edit: %+v", r)
	}
	t.Logf("reload latency (compile, validate, swap): %.2f ms", r.LatencyMs)

	live := h.Current()
	edit(t, filepath.Join(dir, "system.lua"), "local fmt = require", "local fmt = = require")
	r = w.Reload()
	if r.OK || !strings.Contains(r.Error, "system.lua:2: syntax error") {
		t.Fatalf("want a located syntax error, got %+v", r)
	}
	if h.Current() != live || heroSummary(t, h.Current()) != "Ayla, 3rd circle" {
		t.Fatal("a failed reload must keep the previous version serving")
	}
	edit(t, filepath.Join(dir, "system.lua"), "local fmt = = require", "local fmt = require")
	if r := w.Reload(); !r.OK || h.Current() == live {
		t.Fatalf("the fixed system does not reload: %+v", r)
	}
}

func TestWatchNewSubfolder(t *testing.T) {
	dir := copyDir(t, "testdata/tinyrpg")
	h, feed := startWatch(t, dir)
	sub := filepath.Join(dir, "templates", "extra")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	next(t, feed) // the new folder itself
	// A file in the new folder is seen (the folder was added to the watch).
	os.WriteFile(filepath.Join(sub, "note.html"), []byte("<p>note</p>"), 0o644)
	edit(t, filepath.Join(dir, "templates", "hero.html"), "<p>{{ view.summary }}</p>", `<p>{{ view.summary }}</p>{% include "extra/note.html" %}`)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		next(t, feed)
		page, err := h.Current().RenderPage(context.Background(), &heroEntity)
		if err == nil && strings.Contains(string(page), "<p>note</p>") {
			return
		}
	}
	t.Fatal("the include from the new folder never went live")
}

func TestIgnoredNames(t *testing.T) {
	for name, want := range map[string]bool{
		"a/.system.lua.swp": true, "x.swx": true, "system.lua~": true, ".#system.lua": true, "4913": true, ".hidden": true,
		"system.lua": false, "templates/monster.html": false, "theme/theme.css": false,
	} {
		if ignored(name) != want {
			t.Errorf("ignored(%q) = %v", name, !want)
		}
	}
}
