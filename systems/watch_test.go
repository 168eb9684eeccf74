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

type reloadNews struct {
	sys     *System
	latency time.Duration
	err     error
}

// startWatch loads dir, watches it and reports reloads and errors on a channel.
func startWatch(t *testing.T, dir string) (*Holder, chan reloadNews) {
	t.Helper()
	sys, err := LoadDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := NewHolder(sys)
	news := make(chan reloadNews, 16)
	w, err := NewWatcher(dir, h, WatchOptions{
		Debounce: 20 * time.Millisecond,
		OnReload: func(s *System, latency time.Duration) { news <- reloadNews{sys: s, latency: latency} },
		OnError:  func(err error) { news <- reloadNews{err: err} },
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; h.Current().Close() })
	return h, news
}

func next(t *testing.T, news chan reloadNews) reloadNews {
	t.Helper()
	select {
	case n := <-news:
		return n
	case <-time.After(5 * time.Second):
		t.Fatal("no reload within 5s")
		return reloadNews{}
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

func TestWatchReloadsAndKeepsOldOnError(t *testing.T) {
	dir := copyDir(t, "testdata/tinyrpg")
	h, news := startWatch(t, dir)
	first := h.Current()
	if got := heroSummary(t, first); got != "Ayla, 3rd level" {
		t.Fatalf("before: %q", got)
	}

	// An edit of a required module is live after the debounce.
	edit(t, filepath.Join(dir, "lib", "format.lua"), `" level"`, `" circle"`)
	n := next(t, news)
	if n.err != nil {
		t.Fatalf("reload failed: %v", n.err)
	}
	if h.Current() != n.sys || h.Current() == first {
		t.Fatal("the new version was not swapped in")
	}
	if got := heroSummary(t, h.Current()); got != "Ayla, 3rd circle" {
		t.Fatalf("after edit: %q", got)
	}
	t.Logf("edit-to-live latency (excluding the debounce window): %v", n.latency)

	// A syntax error keeps the previous version and names file:line.
	live := h.Current()
	edit(t, filepath.Join(dir, "system.lua"), "local fmt = require", "local fmt = = require")
	n = next(t, news)
	if n.err == nil || !strings.Contains(n.err.Error(), "system.lua:2: syntax error") {
		t.Fatalf("want a located syntax error, got %v", n.err)
	}
	if h.Current() != live || heroSummary(t, h.Current()) != "Ayla, 3rd circle" {
		t.Fatal("a failed reload must keep the previous version serving")
	}

	// Editor temp files do not trigger reloads; fixing the file does.
	for _, name := range []string{".system.lua.swp", "system.lua~", ".#system.lua", "4913"} {
		os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644)
	}
	edit(t, filepath.Join(dir, "system.lua"), "local fmt = = require", "local fmt = require")
	n = next(t, news)
	if n.err != nil {
		t.Fatalf("fixed system does not reload: %v", n.err)
	}
	select {
	case extra := <-news:
		t.Fatalf("unexpected extra reload (temp files must be ignored): %+v", extra)
	case <-time.After(150 * time.Millisecond):
	}
}

func TestWatchNewSubfolder(t *testing.T) {
	dir := copyDir(t, "testdata/tinyrpg")
	h, news := startWatch(t, dir)
	sub := filepath.Join(dir, "templates", "extra")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	next(t, news) // the new folder itself
	// A file in the new folder is seen (the folder was added to the watch).
	os.WriteFile(filepath.Join(sub, "note.html"), []byte("<p>note</p>"), 0o644)
	edit(t, filepath.Join(dir, "templates", "hero.html"), "<p>{{ view.summary }}</p>", `<p>{{ view.summary }}</p>{% include "extra/note.html" %}`)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		n := next(t, news)
		if n.err != nil {
			t.Fatal(n.err)
		}
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
