package scripting

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/cputime"
)

const benchView = `
    local d = e.data
    local abilities = {}
    for _, a in ipairs({ "str", "dex", "con" }) do
      table.insert(abilities, { name = string.upper(a), score = d[a], mod = companion.format.modifier(d[a]) })
    end
    return {
      level = companion.format.ordinal(d.level) .. " level",
      hp = d.hp .. " (" .. d.hit_dice .. ")",
      cr = companion.format.fraction(d.cr),
      abilities = abilities,
    }
`

var benchEntity = map[string]any{
	"id": "e1", "kind": "thing", "name": "Goblin", "slug": "goblin",
	"data": map[string]any{"level": int64(2), "hp": int64(7), "hit_dice": "2d6", "str": int64(8), "dex": int64(14), "con": int64(10), "cr": 0.25},
}

// BenchmarkPooledCallVsNewState compares a call on a pooled, prepared state
// with creating a state (sandbox, companion module, entry script) for each
// call, interleaved in the same run (CPU time). Target: ratio <= 0.03.
func BenchmarkPooledCallVsNewState(b *testing.B) {
	files := map[string]string{"system.lua": kindWith(benchView), "lib/extra.lua": "return {}"}
	rt := start(b, files, Options{})
	ctx := context.Background()
	var tPooled, tFresh time.Duration
	var ratios []float64 // per batch: a batch hit by a collection moves the mean, not the median
	runs := 0
	b.ResetTimer()
	for runs < b.N {
		t0 := cputime.Now()
		for i := 0; i < 20; i++ {
			if _, err := rt.CallTable(ctx, "thing", "view", benchEntity); err != nil {
				b.Fatal(err)
			}
		}
		dPooled := cputime.Now() - t0
		t0 = cputime.Now()
		for i := 0; i < 20; i++ {
			if _, err := rt.CallFresh(ctx, "thing", "view", benchEntity); err != nil {
				b.Fatal(err)
			}
		}
		dFresh := cputime.Now() - t0
		tPooled += dPooled
		tFresh += dFresh
		if dFresh > 0 {
			ratios = append(ratios, float64(dPooled)/float64(dFresh))
		}
		runs += 20
	}
	b.ReportMetric(float64(tPooled.Nanoseconds())/float64(runs), "pooled-ns/call")
	b.ReportMetric(float64(tFresh.Nanoseconds())/float64(runs), "new-state-ns/call")
	b.ReportMetric(float64(tPooled)/float64(tFresh), "ratio")
	sort.Float64s(ratios)
	if len(ratios) > 0 {
		b.ReportMetric(ratios[len(ratios)/2], "median-ratio")
	}
}
