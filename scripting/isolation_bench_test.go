package scripting

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/cputime"
	"github.com/vttapp/companion/internal/shareddata"
)

// BenchmarkSandboxCost measures what the sandbox's protections cost on real
// views, as the server calls them (CallJSON): a runtime with isolation
// (frozen shared tables, per-call globals) and the memory watchdog against
// the same program without either, interleaved in batches in the same run
// (process CPU time). ratio = protected / unprotected.
//
//   - dnd5e-monsters: the dnd5e monster view of every SRD monster;
//   - tinyrpg-creature: the small view of the guide's example system.
func BenchmarkSandboxCost(b *testing.B) {
	b.Run("dnd5e-monsters", func(b *testing.B) {
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
		benchSandboxCost(b, "../examples/dnd5e", "monster", monsters)
	})
	b.Run("tinyrpg-creature", func(b *testing.B) {
		goblin := map[string]any{"id": "e1", "kind": "creature", "name": "Goblin", "slug": "goblin", "data": map[string]any{
			"level": int64(2), "type": "humanoid", "hp": int64(7), "hit_dice": "2d6", "speed": map[string]any{"walk": int64(30), "swim": int64(10)},
			"str": int64(8), "dex": int64(14), "cr": 0.25, "xp": int64(1800), "spells": []any{"fire-bolt"}}}
		batch := make([]any, 50)
		for i := range batch {
			batch[i] = goblin
		}
		benchSandboxCost(b, "../systems/testdata/tinyrpg", "creature", batch)
	})
}

func benchSandboxCost(b *testing.B, dir, kind string, entities []any) {
	prog, err := Compile(os.DirFS(dir), "system.lua")
	if err != nil {
		b.Fatal(err)
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
		t0 := cputime.Now()
		for _, e := range entities {
			if _, _, err := rt.CallJSON(ctx, kind, "view", e, nil, false); err != nil {
				b.Fatal(err)
			}
		}
		return cputime.Now() - t0
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
	calls := float64(b.N * len(entities))
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
