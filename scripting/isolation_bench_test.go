package scripting

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/shareddata"
)

// BenchmarkSandboxCost measures what the sandbox's protections cost on real
// views: the dnd5e monster view of every SRD monster (CallJSON, as the
// server calls it) on a runtime with isolation (frozen shared tables,
// per-call globals) and the memory watchdog, against the same runtime
// without either, interleaved in batches in the same run (process CPU
// time). ratio = protected / unprotected.
func BenchmarkSandboxCost(b *testing.B) {
	prog, err := Compile(os.DirFS("../examples/dnd5e"), "system.lua")
	if err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile(shareddata.Path(b, "srd5e/2014-en-5e-SRD-Monsters.json"))
	if err != nil {
		b.Fatal(err)
	}
	var records []map[string]any
	if err := json.Unmarshal(raw, &records); err != nil {
		b.Fatal(err)
	}
	var monsters []any
	for _, r := range records {
		// JSON numbers as the store gives them: integers stay integers.
		data, _ := DecodeJSON(mustJSON(b, r))
		monsters = append(monsters, map[string]any{"id": r["index"], "kind": "monster", "name": r["name"], "slug": r["index"], "data": data})
	}
	protected, err := Start(prog, Options{CallTimeout: 10 * time.Second, PoolSize: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer protected.Close()
	plain, err := Start(prog, Options{CallTimeout: 10 * time.Second, PoolSize: 1, MaxCallMemory: -1, noIsolation: true})
	if err != nil {
		b.Fatal(err)
	}
	defer plain.Close()
	ctx := context.Background()
	list := func(rt *Runtime) time.Duration {
		t0 := cpuTime()
		for _, m := range monsters {
			if _, _, err := rt.CallJSON(ctx, "monster", "view", m, nil, false); err != nil {
				b.Fatal(err)
			}
		}
		return cpuTime() - t0
	}
	list(protected)
	list(plain)
	var tProtected, tPlain time.Duration
	var ratios []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dPlain := list(plain)
		dProtected := list(protected)
		tPlain += dPlain
		tProtected += dProtected
		if dPlain > 0 {
			ratios = append(ratios, float64(dProtected)/float64(dPlain))
		}
	}
	calls := float64(b.N * len(monsters))
	b.ReportMetric(float64(tProtected.Nanoseconds())/calls, "protected-ns/view")
	b.ReportMetric(float64(tPlain.Nanoseconds())/calls, "plain-ns/view")
	b.ReportMetric(float64(tProtected)/float64(tPlain), "ratio")
	sort.Float64s(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "median-ratio")
}

func mustJSON(b *testing.B, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
