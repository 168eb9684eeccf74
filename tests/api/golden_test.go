package api

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/cputime"
	"github.com/vttapp/companion/scripting"
	"github.com/vttapp/companion/systems"
)

// exampleSystems lists the folders under examples/ that hold a system.json.
// Finding none fails the test: the repository ships dnd5e, so an empty list
// means a moved folder or a broken glob, and every test over the examples
// would otherwise pass having checked nothing.
func exampleSystems(t testing.TB) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join("..", "..", "examples", "*", "system.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(matches) == 0 {
		t.Fatal("no example system (examples/*/system.json) found")
	}
	var dirs []string
	for _, m := range matches {
		dirs = append(dirs, filepath.Dir(m))
	}
	return dirs
}

// TestExampleSystemsGolden runs `companion system test` for every example
// system: each golden case must render exactly as stored.
func TestExampleSystemsGolden(t *testing.T) {
	dirs := exampleSystems(t)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cases, _ := filepath.Glob(filepath.Join(dir, "tests", "*.txtar"))
			if len(cases) == 0 {
				t.Fatalf("%s has no tests/*.txtar golden cases: every example system ships its own", dir)
			}
			var out bytes.Buffer
			failed, err := systems.RunGolden(dir, false, &out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if failed > 0 {
				t.Fatalf("%d golden cases differ (run `companion system test %s -update` after checking the diff):\n%s", failed, dir, out.String())
			}
		})
	}
}

// TestExampleSystemsLoadTime reports how long a full load of each example
// system takes: the edit-to-live latency of hot reload without the
// debounce window (the target for dnd5e is under 150 ms).
func TestExampleSystemsLoadTime(t *testing.T) {
	dirs := exampleSystems(t)
	for _, dir := range dirs {
		start := time.Now()
		sys, err := systems.LoadDir(dir, systems.Options{CallTimeout: 10 * time.Second})
		elapsed := time.Since(start)
		if err != nil {
			t.Errorf("%s does not load:\n%v", dir, err)
			continue
		}
		sys.Close()
		t.Logf("%s: loaded in %v (edit-to-live latency excluding the debounce window)", filepath.Base(dir), elapsed)
	}
}

// BenchmarkExampleSystemLoad measures a reload of each example system.
func BenchmarkExampleSystemLoad(b *testing.B) {
	for _, dir := range exampleSystems(b) {
		b.Run(filepath.Base(dir), func(b *testing.B) {
			for b.Loop() {
				sys, err := systems.LoadDir(dir, systems.Options{CallTimeout: 10 * time.Second})
				if err != nil {
					b.Fatal(err)
				}
				sys.Close()
			}
		})
	}
}

// goldenEntity reads the entity.json section of a golden case file.
func goldenEntity(t testing.TB, file string) *core.Entity {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "-- entity.json --\n")
	if !ok {
		t.Fatalf("%s has no entity.json section", file)
	}
	if i := strings.Index(rest, "\n-- "); i >= 0 {
		rest = rest[:i]
	}
	var e core.Entity
	if err := json.Unmarshal([]byte(rest), &e); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return &e
}

// BenchmarkExamplePooledVsFreshState compares a view call on the pool of
// an example system with the same call in a state created for it (the
// system's whole entry script run again), interleaved, in CPU time. Target:
// ratio <= 0.03.
func BenchmarkExamplePooledVsFreshState(b *testing.B) {
	for _, dir := range exampleSystems(b) {
		cases, _ := filepath.Glob(filepath.Join(dir, "tests", "*.txtar"))
		if len(cases) == 0 {
			continue
		}
		b.Run(filepath.Base(dir), func(b *testing.B) {
			e := goldenEntity(b, cases[0])
			m, err := scripting.PlainJSON(e)
			if err != nil {
				b.Fatal(err)
			}
			var manifest struct{ Entry string }
			data, _ := os.ReadFile(filepath.Join(dir, "system.json"))
			json.Unmarshal(data, &manifest)
			if manifest.Entry == "" {
				manifest.Entry = "system.lua"
			}
			prog, err := scripting.Compile(os.DirFS(dir), manifest.Entry)
			if err != nil {
				b.Fatal(err)
			}
			rt, err := scripting.Start(prog, scripting.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer rt.Close()
			ctx := context.Background()
			var pooled, fresh time.Duration
			runs := 0
			b.ResetTimer()
			for runs < b.N {
				t0 := cputime.Now()
				for i := 0; i < 10; i++ {
					if _, err := rt.CallTable(ctx, e.Kind, "view", m); err != nil {
						b.Fatal(err)
					}
				}
				pooled += cputime.Now() - t0
				t0 = cputime.Now()
				for i := 0; i < 10; i++ {
					if _, err := rt.CallFresh(ctx, e.Kind, "view", m); err != nil {
						b.Fatal(err)
					}
				}
				fresh += cputime.Now() - t0
				runs += 10
			}
			b.ReportMetric(float64(pooled.Nanoseconds())/float64(runs), "pooled-cpu-ns/call")
			b.ReportMetric(float64(fresh.Nanoseconds())/float64(runs), "new-state-cpu-ns/call")
			b.ReportMetric(float64(pooled)/float64(fresh), "ratio")
		})
	}
}

// reloadFeed is a core.Publisher that hands each event the watcher
// publishes (reload, when a version goes live) to a channel.
type reloadFeed chan core.Event

func (f reloadFeed) Publish(events ...core.Event) {
	for _, e := range events {
		f <- e
	}
}

// TestExampleSystemsHotReload edits a copy of each example system while it
// is watched and measures edit-to-live latency (the reload itself, without
// the debounce window, and the whole wait including it).
func TestExampleSystemsHotReload(t *testing.T) {
	dirs := exampleSystems(t)
	for _, src := range dirs {
		t.Run(filepath.Base(src), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			sys, err := systems.LoadDir(dir, systems.Options{CallTimeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			h := systems.NewHolder(sys)
			status := &systems.ReloadStatus{}
			reloaded := make(reloadFeed, 4)
			w, err := systems.NewWatcher(dir, h, systems.WatchOptions{Status: status, Publisher: reloaded})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { w.Run(ctx); close(done) }()
			defer func() { cancel(); <-done; h.Current().Close() }()

			css := filepath.Join(dir, "theme", "theme.css")
			old, _ := os.ReadFile(css)
			edited := time.Now()
			if err := os.WriteFile(css, append(old, []byte("\n/* edited */\n")...), 0o644); err != nil {
				t.Fatal(err)
			}
			select {
			case <-reloaded:
				_, last := status.Last()
				t.Logf("%s: reload %.1f ms after the debounce window; %v from the edit, debounce (%v) included",
					filepath.Base(src), last.LatencyMs, time.Since(edited), systems.DefaultDebounce)
			case <-time.After(10 * time.Second):
				_, last := status.Last()
				t.Fatalf("no reload within 10s (last outcome %+v)", last)
			}
			if h.Current() == sys {
				t.Fatal("the new version was not swapped in")
			}
		})
	}
}
