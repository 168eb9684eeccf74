package sight_test

import (
	"math"
	"testing"

	"github.com/vttapp/companion/sight"
)

// polygonArea is the shoelace area of a flat x,y polygon.
func polygonArea(p []float64) float64 {
	var a float64
	n := len(p) / 2
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		a += p[2*i]*p[2*j+1] - p[2*j]*p[2*i+1]
	}
	return math.Abs(a) / 2
}

func maxX(p []float64) float64 {
	m := math.Inf(-1)
	for i := 0; i < len(p); i += 2 {
		m = math.Max(m, p[i])
	}
	return m
}

// room is a 100x100 room with a gap in its right wall from y=40 to y=60.
var room = [][4]float64{
	{0, 0, 100, 0}, {100, 0, 100, 40}, {100, 60, 100, 100}, {100, 100, 0, 100}, {0, 100, 0, 0},
}

func TestVisionPolygonInsideAClosedRoom(t *testing.T) {
	closed := append(append([][4]float64{}, room...), [4]float64{100, 40, 100, 60})
	p := sight.VisionPolygon(50, 50, closed, [4]float64{-500, -500, 500, 500})
	if a := polygonArea(p); math.Abs(a-10000) > 1 {
		t.Fatalf("a closed 100x100 room shows %.1f square units, want 10000", a)
	}
	if x := maxX(p); x > 100.01 {
		t.Fatalf("sight leaks through the closed door to x=%v", x)
	}
}

func TestVisionPolygonThroughAGap(t *testing.T) {
	p := sight.VisionPolygon(50, 50, room, [4]float64{-500, -500, 500, 500})
	if x := maxX(p); x < 499 {
		t.Fatalf("sight through the open gap stops at x=%v, want the box edge 500", x)
	}
	a := polygonArea(p)
	// The cone through the gap: from x=100 to x=500 it widens from 20 to
	// 180 units (similar triangles from the viewer at 50,50): 40,000.
	if want := 10000.0 + 40000; math.Abs(a-want) > 50 {
		t.Fatalf("area %.1f, want about %.0f", a, want)
	}
}
