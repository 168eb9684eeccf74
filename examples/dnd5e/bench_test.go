package dnd5e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// BenchmarkMonsterViews formats the view of every SRD monster (334) per
// iteration, four ways in the same run, and reports the ratios the issue
// sets targets for:
//
//	cold/go      Lua view, cache bypassed (revision 0), vs formatMonsterGo + JSON   (target ≤ 12)
//	cached/copy  Lua view served from the cache vs copying the cached bytes        (target ≤ 1.2)
//
// ns/op covers the four passes; the per-pass figures are reported per list.
func BenchmarkMonsterViews(b *testing.B) {
	s := loadSystem(b)
	ctx := context.Background()
	cold := srdEntities(b, srdFiles[0])
	cached := make([]*core.Entity, len(cold))
	stored := make([][]byte, len(cold))
	for i, e := range cold {
		c := *e
		c.Revision = 1 // cacheable
		cached[i] = &c
		v, err := s.View(ctx, &c) // warm the cache
		if err != nil {
			b.Fatal(err)
		}
		stored[i] = v
	}

	// The four passes are interleaved within each iteration so that load
	// from other processes weighs on all of them alike.
	timed := func(total *time.Duration, pass func()) {
		start := time.Now()
		pass()
		*total += time.Since(start)
	}
	var coldTime, goTime, cachedTime, copyTime time.Duration
	var sink int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		timed(&coldTime, func() {
			for _, e := range cold {
				if _, err := s.View(ctx, e); err != nil {
					b.Fatal(err)
				}
			}
		})
		timed(&goTime, func() {
			for _, e := range cold {
				if _, err := json.Marshal(formatMonsterGo(e)); err != nil {
					b.Fatal(err)
				}
			}
		})
		timed(&cachedTime, func() {
			for _, e := range cached {
				v, err := s.View(ctx, e)
				if err != nil {
					b.Fatal(err)
				}
				sink += len(v)
			}
		})
		timed(&copyTime, func() {
			for _, v := range stored {
				c := append([]byte(nil), v...)
				sink += len(c)
			}
		})
	}
	b.StopTimer()
	_ = sink

	n := float64(b.N)
	b.ReportMetric(float64(coldTime.Nanoseconds())/n, "cold-ns/list")
	b.ReportMetric(float64(goTime.Nanoseconds())/n, "go-ns/list")
	b.ReportMetric(float64(cachedTime.Nanoseconds())/n, "cached-ns/list")
	b.ReportMetric(float64(copyTime.Nanoseconds())/n, "copy-ns/list")
	b.ReportMetric(float64(coldTime)/float64(goTime), "cold/go")
	b.ReportMetric(float64(cachedTime)/float64(copyTime), "cached/copy")
}
