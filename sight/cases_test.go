package sight_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vttapp/companion/sight"
)

// closedRoom is the 100 x 100 room of polygon_test.go with its gap shut.
var closedRoom = append(append([][4]float64{}, room...), [4]float64{100, 40, 100, 60})

var wideBox = [4]float64{-500, -500, 500, 500}

// polyline cuts the segment from (x1, y1) to (x2, y2) into n, as drawing
// tools export a wall.
func polyline(x1, y1, x2, y2 float64, n int) [][4]float64 {
	out := make([][4]float64, n)
	for i := range out {
		a, b := float64(i)/float64(n), float64(i+1)/float64(n)
		out[i] = [4]float64{x1 + a*(x2-x1), y1 + a*(y2-y1), x1 + b*(x2-x1), y1 + b*(y2-y1)}
	}
	return out
}

func wantRoomArea(t *testing.T, label string, p []float64) {
	t.Helper()
	checkShape(t, label, p)
	if a := polygonArea(p); math.Abs(a-10000) > 1 {
		t.Fatalf("%s: the closed room shows %.1f square units, want 10000", label, a)
	}
}

func TestVisionPolygonEdgeCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	same := func(label string, x, y float64, segs [][4]float64, box [4]float64) []float64 {
		t.Helper()
		checkAgainstRays(t, label, x, y, segs, box, 2000, rng)
		return sight.VisionPolygon(x, y, segs, box)
	}

	t.Run("walls drawn as polylines, touching at their ends", func(t *testing.T) {
		var segs [][4]float64
		for _, s := range closedRoom {
			segs = append(segs, polyline(s[0], s[1], s[2], s[3], 17)...)
		}
		wantRoomArea(t, "polylines", same("polylines", 31, 62, segs, wideBox))
	})
	t.Run("duplicate and overlapping collinear walls", func(t *testing.T) {
		segs := append(slices.Clone(closedRoom), closedRoom...)
		segs = append(segs, [4]float64{0, 0, 60, 0}, [4]float64{40, 0, 100, 0}, [4]float64{100, 100, 100, 20})
		wantRoomArea(t, "overlaps", same("overlaps", 50, 50, segs, wideBox))
	})
	t.Run("walls of no length block nothing", func(t *testing.T) {
		segs := append(slices.Clone(closedRoom), [4]float64{70, 50, 70, 50}, [4]float64{0, 0, 0, 0})
		wantRoomArea(t, "zero length", same("zero length", 50, 50, segs, wideBox))
	})
	t.Run("a wall pointing at the viewer is seen edge-on", func(t *testing.T) {
		segs := append(slices.Clone(closedRoom), [4]float64{60, 50, 90, 50}, [4]float64{50, 10, 50, 40})
		wantRoomArea(t, "edge-on", same("edge-on", 50, 50, segs, wideBox))
	})
	t.Run("crossing walls", func(t *testing.T) {
		segs := append(slices.Clone(closedRoom), [4]float64{10, 10, 90, 90}, [4]float64{10, 90, 90, 10})
		p := same("crossing", 50, 20, segs, wideBox)
		// The viewer is in the wedge below the crossing: it cannot see the
		// wedge above it.
		if polygonContains(p, 50, 80) {
			t.Fatal("sight passes through the crossing of two walls")
		}
		for _, v := range [][2]float64{{20, 50}, {50, 55}, {80, 50}, {5, 95}} {
			same("crossing", v[0], v[1], segs, wideBox)
		}
	})
	t.Run("a viewer on a wall sees nothing", func(t *testing.T) {
		for _, v := range [][2]float64{{100, 50}, {0, 0}, {30, 100}, {100, 40}} {
			p := same("on a wall", v[0], v[1], closedRoom, wideBox)
			if !slices.Equal(p, []float64{v[0], v[1]}) {
				t.Fatalf("a viewer on the wall at %v sees %v, want only its own position", v, p)
			}
		}
	})
	t.Run("a viewer outside the box stops at its near side", func(t *testing.T) {
		box := [4]float64{0, 0, 100, 100}
		for _, v := range [][2]float64{{-40, 50}, {150, 150}, {50, -1}} {
			p := same("outside", v[0], v[1], [][4]float64{{20, 20, 80, 20}}, box)
			if len(p) == 0 {
				t.Fatalf("a viewer outside the box at %v sees nothing, want its near side", v)
			}
			for i := 0; i < len(p); i += 2 {
				if px, py := p[i], p[i+1]; px != 0 && px != 100 && py != 0 && py != 100 {
					t.Fatalf("a viewer outside the box at %v sees %v,%v: not on the box's edge", v, px, py)
				}
			}
		}
	})
	t.Run("degenerate boxes", func(t *testing.T) {
		for _, box := range [][4]float64{
			{0, 0, 0, 100},   // no width
			{50, 50, 50, 50}, // a point
			{100, 100, 0, 0}, // corners swapped
			{0, 0, 100, math.NaN()},
			{math.Inf(-1), 0, 100, 100},
		} {
			p := sight.VisionPolygon(25, 50, room, box)
			checkShape(t, "degenerate box", p)
			if finiteBox(box) {
				same("degenerate box", 25, 50, room, box)
			}
		}
	})
	t.Run("input that is not a number", func(t *testing.T) {
		for _, v := range [][2]float64{{math.NaN(), 1}, {1, math.Inf(1)}} {
			if p := sight.VisionPolygon(v[0], v[1], closedRoom, wideBox); p == nil || len(p) != 0 {
				t.Fatalf("a viewer at %v sees %v, want an empty polygon", v, p)
			}
		}
		segs := append(slices.Clone(closedRoom), [4]float64{math.NaN(), 0, 1, 1}, [4]float64{0, math.Inf(1), 5, 5})
		wantRoomArea(t, "NaN walls", sight.VisionPolygon(50, 50, segs, wideBox))
	})
}

func finiteBox(b [4]float64) bool {
	for _, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// FuzzVisionPolygon: any walls, viewer and box, on a small integer grid
// where walls touch, overlap, repeat and pass through the viewer often:
// no panic, the output form holds, and the polygon covers what the ray
// caster's does.
func FuzzVisionPolygon(f *testing.F) {
	f.Add([]byte{5, 5, 0, 0, 10, 10, 0, 0, 10, 0, 10, 0, 10, 10})
	f.Add([]byte{0, 0, 246, 246, 10, 10, 246, 246, 10, 246, 10, 246, 246, 246})
	f.Add([]byte{3, 4, 250, 250, 12, 12, 1, 1, 9, 9, 1, 9, 9, 1, 3, 4, 3, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 6 || len(data) > 6+4*64 {
			return
		}
		c := func(b byte) float64 { return float64(int8(b)) }
		x, y := c(data[0]), c(data[1])
		box := [4]float64{c(data[2]), c(data[3]), c(data[4]), c(data[5])}
		var segs [][4]float64
		for d := data[6:]; len(d) >= 4; d = d[4:] {
			segs = append(segs, [4]float64{c(d[0]), c(d[1]), c(d[2]), c(d[3])})
		}
		checkAgainstRays(t, "fuzz", x, y, segs, box, 400, rand.New(rand.NewPCG(1, 2)))
	})
}
