package sight_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/vttapp/companion/sight"
)

// Polygons are compared as areas, not vertex lists: the sweep and the ray
// caster may place a vertex a hundredth apart, or list a collinear point
// one of them drops, and still cover the same ground.

// sameEdgeSlack is how far from an edge two polygons may disagree on
// whether a point is inside.
const sameEdgeSlack = 0.5

// polygonContains is the even-odd rule for a flat x,y polygon.
func polygonContains(p []float64, x, y float64) bool {
	in := false
	n := len(p) / 2
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		xi, yi, xj, yj := p[2*i], p[2*i+1], p[2*j], p[2*j+1]
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// edgeDistance is the distance from (x, y) to the nearest edge of p.
func edgeDistance(p []float64, x, y float64) float64 {
	best := math.Inf(1)
	n := len(p) / 2
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		ax, ay, bx, by := p[2*j], p[2*j+1], p[2*i], p[2*i+1]
		dx, dy := bx-ax, by-ay
		t := 0.0
		if l := dx*dx + dy*dy; l > 0 {
			t = math.Max(0, math.Min(1, ((x-ax)*dx+(y-ay)*dy)/l))
		}
		best = math.Min(best, math.Hypot(ax+t*dx-x, ay+t*dy-y))
	}
	return best
}

func perimeter(p []float64) float64 {
	var s float64
	n := len(p) / 2
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		s += math.Hypot(p[2*i]-p[2*j], p[2*i+1]-p[2*j+1])
	}
	return s
}

// polygonDiff says how two polygons differ, "" when they cover the same
// ground: sampled points (over the box and around the viewer) are inside
// both or neither unless within sameEdgeSlack of an edge, and the areas
// differ by no more than rounding to 0.01 can move the outline.
func polygonDiff(got, want []float64, vx, vy float64, box [4]float64, samples int, rng *rand.Rand) string {
	ag, aw := polygonArea(got), polygonArea(want)
	if d := math.Abs(ag - aw); d > 0.01*perimeter(want)+1 {
		return "areas differ: " + ftoa(ag) + " against " + ftoa(aw)
	}
	minX, minY := math.Min(box[0], box[2]), math.Min(box[1], box[3])
	w, h := math.Abs(box[2]-box[0]), math.Abs(box[3]-box[1])
	for i := 0; i < samples; i++ {
		var x, y float64
		if i%2 == 0 {
			x, y = minX+rng.Float64()*w, minY+rng.Float64()*h
		} else {
			r, a := 300*math.Sqrt(rng.Float64()), 2*math.Pi*rng.Float64()
			x, y = vx+r*math.Cos(a), vy+r*math.Sin(a)
		}
		if polygonContains(got, x, y) == polygonContains(want, x, y) {
			continue
		}
		if edgeDistance(got, x, y) <= sameEdgeSlack || edgeDistance(want, x, y) <= sameEdgeSlack {
			continue
		}
		return "they disagree on the point " + ftoa(x) + "," + ftoa(y) +
			" (inside the sweep's: " + btoa(polygonContains(got, x, y)) + ")"
	}
	return ""
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

func btoa(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// checkAgainstRays computes the polygon both ways and fails the test when
// they differ.
func checkAgainstRays(t *testing.T, label string, vx, vy float64, segs [][4]float64, box [4]float64, samples int, rng *rand.Rand) {
	t.Helper()
	got := sight.VisionPolygon(vx, vy, segs, box)
	want := visionPolygonRays(vx, vy, segs, box)
	if d := polygonDiff(got, want, vx, vy, box, samples, rng); d != "" {
		t.Errorf("%s: viewer at %v,%v: the sweep and the ray caster differ: %s (%d and %d points)",
			label, vx, vy, d, len(got)/2, len(want)/2)
	}
	checkShape(t, label, got)
}

// checkShape checks the output form callers rely on: pairs, finite, no
// consecutive duplicate points.
func checkShape(t *testing.T, label string, p []float64) {
	t.Helper()
	if p == nil || len(p)%2 != 0 {
		t.Fatalf("%s: polygon %v is nil or not x,y pairs", label, p)
	}
	for i, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Round(v*100)/100 {
			t.Fatalf("%s: coordinate %d is %v: not finite or not rounded to 0.01", label, i, v)
		}
	}
	for i := 2; i < len(p); i += 2 {
		if p[i] == p[i-2] && p[i+1] == p[i-1] {
			t.Fatalf("%s: point %d repeats the one before it", label, i/2)
		}
	}
}
