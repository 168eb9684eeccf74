// Package tests holds whole-project tests: the golden cases of every
// example game system.
package tests

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vttapp/companion/systems"
)

// exampleSystems lists the folders under examples/ that hold a system.json.
func exampleSystems(t testing.TB) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join("..", "examples", "*", "system.json"))
	if err != nil {
		t.Fatal(err)
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
	if len(dirs) == 0 {
		t.Skip("no example system under examples/ yet")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cases, _ := filepath.Glob(filepath.Join(dir, "tests", "*.txtar"))
			if len(cases) == 0 {
				t.Skipf("%s has no tests/*.txtar golden cases", dir)
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
	if len(dirs) == 0 {
		t.Skip("no example system under examples/ yet")
	}
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "system.json")); err != nil {
			continue
		}
		start := time.Now()
		sys, err := systems.LoadDir(dir, systems.Options{})
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
				sys, err := systems.LoadDir(dir, systems.Options{})
				if err != nil {
					b.Fatal(err)
				}
				sys.Close()
			}
		})
	}
}
