package core_test

import (
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// The sweep against the ray caster it replaced, on the same inputs in the
// same run: ns/op is the sweep's, x-rays the ray caster's time over it.
// Targets on the project machine: under 0.2 ms for the Blue Tower's 441
// walls, under 2 ms for the 5,000-segment dungeon.

type visionCase struct {
	segs    [][4]float64
	box     [4]float64
	viewers [][2]float64
}

// rayBaselines keeps the ray caster's time per case: the benchmark
// function runs several times while b.N settles, and the ray caster takes
// long enough that measuring it once is plenty.
var rayBaselines = map[string]float64{}

func benchVision(b *testing.B, name string, c visionCase) {
	b.Helper()
	baseline, ok := rayBaselines[name]
	if !ok {
		start := time.Now()
		for _, v := range c.viewers {
			visionPolygonRays(v[0], v[1], c.segs, c.box)
		}
		baseline = float64(time.Since(start)) / float64(len(c.viewers))
		rayBaselines[name] = baseline
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		v := c.viewers[i%len(c.viewers)]
		core.VisionPolygon(v[0], v[1], c.segs, c.box)
	}
	sweep := float64(time.Since(start)) / float64(b.N)
	b.ReportMetric(baseline/sweep, "x-rays")
	b.ReportMetric(baseline/1e6, "rays-ms/op")
}

func BenchmarkVisionBlueTower(b *testing.B) {
	segs, box := blueTowerWhole(b)
	inner := [4]float64{box[0] + 1000, box[1] + 1000, box[2] - 1000, box[3] - 1000}
	benchVision(b, "blue tower", visionCase{segs, box, viewerGrid(inner, 4)})
}

func BenchmarkVisionDungeon5000(b *testing.B) {
	d := newGeneratedDungeon(1)
	var viewers [][2]float64
	for i := 0; i < len(d.viewers); i += 60 {
		viewers = append(viewers, d.viewers[i])
	}
	benchVision(b, "dungeon", visionCase{d.segments, d.box, viewers})
}

// BenchmarkVisionWithinDungeon5000 is a 600 px reach (12 cells: a 60 ft
// light) in the dungeon, against the whole polygon: x-whole is how many
// times cheaper it is.
func BenchmarkVisionWithinDungeon5000(b *testing.B) {
	d := newGeneratedDungeon(1)
	var viewers [][2]float64
	for i := 0; i < len(d.viewers); i += 60 {
		viewers = append(viewers, d.viewers[i])
	}
	const reps = 20
	start := time.Now()
	for i := 0; i < reps*len(viewers); i++ {
		v := viewers[i%len(viewers)]
		core.VisionPolygon(v[0], v[1], d.segments, d.box)
	}
	whole := float64(time.Since(start)) / float64(reps*len(viewers))
	b.ReportAllocs()
	b.ResetTimer()
	start = time.Now()
	for i := 0; i < b.N; i++ {
		v := viewers[i%len(viewers)]
		core.VisionPolygonWithin(v[0], v[1], 600, d.segments, d.box)
	}
	b.ReportMetric(whole/(float64(time.Since(start))/float64(b.N)), "x-whole")
}
