package sight_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vttapp/companion/sight"
)

// withinDiff says how the polygon within radius differs from the whole
// one inside the circle, "" when they agree: sampled points in the circle
// are in both or neither unless within sameEdgeSlack of an edge.
func withinDiff(within, whole []float64, x, y, radius float64, samples int, rng *rand.Rand) string {
	for i := 0; i < samples; i++ {
		r, a := radius*math.Sqrt(rng.Float64()), 2*math.Pi*rng.Float64()
		px, py := x+r*math.Cos(a), y+r*math.Sin(a)
		if polygonContains(within, px, py) == polygonContains(whole, px, py) {
			continue
		}
		if edgeDistance(within, px, py) <= sameEdgeSlack || edgeDistance(whole, px, py) <= sameEdgeSlack {
			continue
		}
		return "they disagree on " + ftoa(px) + "," + ftoa(py)
	}
	return ""
}

func TestVisionPolygonWithinMatchesInsideTheRadius(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	d := newGeneratedDungeon(1)
	step := 20
	if testing.Short() || raceEnabled {
		step = 80
	}
	for i := 0; i < len(d.viewers); i += step {
		v := d.viewers[i]
		whole := sight.VisionPolygon(v[0], v[1], d.segments, d.box)
		for _, radius := range []float64{120, 600, 2500} {
			within := sight.VisionPolygonWithin(v[0], v[1], radius, d.segments, d.box)
			checkShape(t, "within", within)
			if diff := withinDiff(within, whole, v[0], v[1], radius, 600, rng); diff != "" {
				t.Fatalf("viewer at %v, radius %v: %s", v, radius, diff)
			}
			for k := 0; k < len(within); k += 2 {
				if math.Abs(within[k]-v[0]) > radius+0.01 || math.Abs(within[k+1]-v[1]) > radius+0.01 {
					t.Fatalf("viewer at %v, radius %v: point %v,%v lies beyond the square", v, radius, within[k], within[k+1])
				}
			}
		}
	}
}

func TestVisionPolygonWithinEdgeCases(t *testing.T) {
	box := [4]float64{0, 0, 100, 100}
	for _, radius := range []float64{0, -5, math.NaN()} {
		if p := sight.VisionPolygonWithin(50, 50, radius, closedRoom, box); p == nil || len(p) != 0 {
			t.Fatalf("radius %v sees %v, want an empty polygon", radius, p)
		}
	}
	if p := sight.VisionPolygonWithin(500, 500, 10, closedRoom, box); p == nil || len(p) != 0 {
		t.Fatalf("a viewer whose reach misses the map sees %v, want an empty polygon", p)
	}
	whole := sight.VisionPolygon(50, 50, closedRoom, wideBox)
	if p := sight.VisionPolygonWithin(50, 50, math.Inf(1), closedRoom, wideBox); len(p) != len(whole) {
		t.Fatalf("an infinite radius sees %v, want the whole polygon %v", p, whole)
	}
	// A small radius inside the room: the square around it, walls unseen.
	if a := polygonArea(sight.VisionPolygonWithin(50, 50, 10, closedRoom, wideBox)); math.Abs(a-400) > 0.01 {
		t.Fatalf("radius 10 in an empty room covers %v, want its 20 x 20 square", a)
	}
}
