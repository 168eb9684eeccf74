package engine

import (
	"fmt"
	"math"
	"testing"

	"github.com/vttapp/companion/core/engine/play"
	"github.com/vttapp/companion/core/mapobjects"
)

// Every hex's centre is held by that hex, on both orientations, and points
// near a centre round to it (as the player client's hexCentre does).
func TestHexAtInvertsHexCentre(t *testing.T) {
	for _, kind := range []string{"hexFlat", "hexPointy"} {
		for q := -6; q <= 6; q++ {
			for r := -6; r <= 6; r++ {
				x, y := mapobjects.HexCentre(kind, q, r)
				for _, d := range [][2]float64{{0, 0}, {0.3, 0}, {-0.2, 0.25}, {0.1, -0.35}} {
					if gq, gr := mapobjects.HexAt(kind, x+d[0], y+d[1]); gq != q || gr != r {
						t.Fatalf("%s: a point %v from hex (%d, %d)'s centre is held by (%d, %d)", kind, d, q, r, gq, gr)
					}
				}
			}
		}
		// Neighbours' centres are one cell apart, across the flats.
		x0, y0 := mapobjects.HexCentre(kind, 0, 0)
		for _, n := range [][2]int{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}} {
			x, y := mapobjects.HexCentre(kind, n[0], n[1])
			if d := math.Hypot(x-x0, y-y0); math.Abs(d-1) > 1e-9 {
				t.Fatalf("%s: neighbour %v is %v cells away, want 1", kind, n, d)
			}
		}
	}
}

// A sphere on a hex covers the rings of hexes within its radius: 1, 7, 19
// hexes for a radius of half a cell, one cell, two cells; a cone and a
// line cover the hexes along their aim.
func TestHexTemplatesCoverTheHexesInside(t *testing.T) {
	for _, kind := range []string{"hexFlat", "hexPointy"} {
		for _, c := range []struct {
			radius float64
			want   int
		}{{0.5, 1}, {1, 7}, {2, 19}, {3, 37}} {
			cells := mapobjects.HexCells(kind, mapobjects.Template{Shape: "sphere", Radius: c.radius})
			if len(cells)/2 != c.want {
				t.Errorf("%s: a sphere of radius %v covers %d hexes, want %d", kind, c.radius, len(cells)/2, c.want)
			}
			for i := 0; i < len(cells); i += 2 {
				if play.HexSteps(0, 0, cells[i], cells[i+1]) > int(c.radius) {
					t.Errorf("%s: radius %v covers (%d, %d), too far", kind, c.radius, cells[i], cells[i+1])
				}
			}
		}
	}
	// A line 3 cells long along a flat-topped grid's column: the origin
	// hex and the three below it.
	got := fmt.Sprint(mapobjects.HexCells("hexFlat", mapobjects.Template{Shape: "line", Length: 3, Width: 0.5, Angle: math.Pi / 2}))
	if got != "[0 0 0 1 0 2 0 3]" {
		t.Errorf("a line down a flat-topped column covers %s", got)
	}
}

// A ruler on a hex grid counts hex steps between the hexes it passes,
// whatever the straight line's length.
func TestHexPathCountsSteps(t *testing.T) {
	for _, kind := range []string{"hexFlat", "hexPointy"} {
		ax, ay := mapobjects.HexCentre(kind, 0, 0)
		bx, by := mapobjects.HexCentre(kind, 3, -1)
		cx, cy := mapobjects.HexCentre(kind, 3, 2)
		if n := play.HexPathCells(kind, []float64{ax, ay, bx, by, cx, cy}); n != 3+3 {
			t.Errorf("%s: (0,0) to (3,-1) to (3,2) counts %v hexes, want 6", kind, n)
		}
	}
}
