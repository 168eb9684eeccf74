package imports

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/examples/dnd5e"
	"github.com/vttapp/companion/systems"
)

// systemCollections is the shipped D&D 5e system as the importer sees it,
// its import hook included.
type systemCollections struct{ s *systems.System }

func (c systemCollections) SystemID() string { return c.s.ID() }
func (c systemCollections) KindForCollection(label string) (string, bool) {
	k, ok := c.s.KindByCollection(label)
	if !ok {
		return "", false
	}
	return k.Name, true
}
func (c systemCollections) Compendium() CompendiumMapper { return c.s }

func loadDnd5e(tb testing.TB) *systems.System {
	tb.Helper()
	s, err := systems.Load(dnd5e.FS, systems.Options{CallTimeout: 10 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// bigCompendium writes a compendium of n entries made from the legacy
// readers' fixture: its monster, spell and item in turn, each renamed.
func bigCompendium(tb testing.TB, n int) []byte {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("legacyxml", "testdata", "compendium.xml"))
	if err != nil {
		tb.Fatal(err)
	}
	doc := string(raw)
	var entries []string
	for _, kind := range []string{"monster", "spell", "item"} {
		start := strings.Index(doc, "<"+kind)
		end := strings.Index(doc, "</"+kind+">") + len("</"+kind+">")
		entry := doc[start:end]
		// No ids: every copy gets its own.
		if i := strings.Index(entry, ` id="`); i >= 0 {
			j := strings.Index(entry[i+5:], `"`)
			entry = entry[:i] + entry[i+5+j+1:]
		}
		entries = append(entries, entry)
	}
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<compendium version=\"5\">\n")
	for i := 0; i < n; i++ {
		e := entries[i%len(entries)]
		e = strings.Replace(e, "</name>", fmt.Sprintf(" %d</name>", i), 1)
		b.WriteString(e)
		b.WriteString("\n")
	}
	b.WriteString("</compendium>\n")
	return []byte(b.String())
}

// jsonModuleOf writes the entities an import made as our own module
// archive (module.json and one collection file per kind).
func jsonModuleOf(tb testing.TB, s *systems.System, entities []*core.Entity) []byte {
	tb.Helper()
	byCollection := map[string][]*core.Entity{}
	for _, e := range entities {
		k, _ := s.Kind(e.Kind)
		byCollection[k.Collection] = append(byCollection[k.Collection], e)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("module.json")
	w.Write([]byte(`{"id":"bench-json","name":"Bench JSON","system":"dnd5e"}`))
	for label, list := range byCollection {
		w, _ := zw.Create(label + ".json")
		data, err := json.Marshal(list)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkCompendiumImport installs a compendium of 3,000 entries (a
// bare XML file, every entry mapped by D&D 5e's Lua import hook) and the
// same entities as our own JSON module archive, in the same run, and
// reports entries per second of each and the ratio of their times (the
// floor is the JSON import: reading and writing the same rows).
func BenchmarkCompendiumImport(b *testing.B) {
	const n = 3000
	sys := loadDnd5e(b)
	xmlDoc := bigCompendium(b, n)
	xmlPath := writeTemp(b, "bench.compendium.xml", xmlDoc)

	// One import first, to get the entities for the JSON archive.
	env := newBenchEnv(b, sys)
	res, err := env.in.InstallFile(context.Background(), xmlPath, "bench.compendium.xml", InstallOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var entities []*core.Entity
	env.view(b, func(tx core.Tx) error {
		entities, err = tx.Entities(core.EntityQuery{})
		return err
	})
	if len(entities) != n || res.Compendium.Entities != n {
		b.Fatalf("%d entities", len(entities))
	}
	jsonPath := writeTemp(b, "bench.module", jsonModuleOf(b, sys, entities))

	var xmlTime, jsonTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Alternate, each into a fresh data folder, so that both see the
		// same machine load.
		env := newBenchEnv(b, sys)
		start := time.Now()
		if _, err := env.in.InstallFile(context.Background(), jsonPath, "bench.module", InstallOptions{}); err != nil {
			b.Fatal(err)
		}
		jsonTime += time.Since(start)
		env = newBenchEnv(b, sys)
		start = time.Now()
		if _, err := env.in.InstallFile(context.Background(), xmlPath, "bench.compendium.xml", InstallOptions{}); err != nil {
			b.Fatal(err)
		}
		xmlTime += time.Since(start)
	}
	b.StopTimer()
	b.ReportMetric(float64(n*b.N)/xmlTime.Seconds(), "xml-entries/s")
	b.ReportMetric(float64(n*b.N)/jsonTime.Seconds(), "json-entries/s")
	b.ReportMetric(float64(xmlTime)/float64(jsonTime), "x-json")
}

// newBenchEnv is a test environment whose installer maps with sys.
func newBenchEnv(tb testing.TB, sys *systems.System) *testEnv {
	env := newTestEnv(tb)
	env.in = NewInstaller(env.svc, env.dataDir, systemCollections{sys})
	return env
}
