package mapobjects

import (
	"math"
)

// Hex cells of templates and rulers. On a hex grid a cell is named by its
// axial coordinates (q, r): hex (0, 0) is centred on the grid's origin
// (gridOffsetX/Y), and in grid cells (one cell across the flats) the
// centre of hex (q, r) is (q·√3/2, r + q/2) on a flat-topped grid and
// (q + r/2, r·√3/2) on a pointy-topped one, as the player client lays
// them. A template covers the hexes whose centres are inside its shape
// (the system's grid hook speaks of squares and is asked on square grids
// only); a path counts the hex steps between the hexes holding its points.

// HexCentre is the centre of hex (q, r), in cells.
func HexCentre(gridType string, q, r int) (x, y float64) {
	if gridType == "hexFlat" {
		return float64(q) * math.Sqrt(3) / 2, float64(r) + float64(q)/2
	}
	return float64(q) + float64(r)/2, float64(r) * math.Sqrt(3) / 2
}

// HexAt is the hex holding the point (x, y), in cells.
func HexAt(gridType string, x, y float64) (q, r int) {
	var fq, fr float64
	if gridType == "hexFlat" {
		fq = x * 2 / math.Sqrt(3)
		fr = y - fq/2
	} else {
		fr = y * 2 / math.Sqrt(3)
		fq = x - fr/2
	}
	// Cube rounding: round all three cube coordinates, then mend the one
	// that moved most so that they still sum to zero.
	fs := -fq - fr
	rq, rr, rs := math.Round(fq), math.Round(fr), math.Round(fs)
	dq, dr, ds := math.Abs(rq-fq), math.Abs(rr-fr), math.Abs(rs-fs)
	switch {
	case dq > dr && dq > ds:
		rq = -rr - rs
	case dr > ds:
		rr = -rq - rs
	}
	return int(rq), int(rr)
}

// HexCells lists the hexes whose centres are inside t (in cells), flat:
// q1, r1, q2, r2, …
func HexCells(gridType string, t Template) []int {
	x0, y0, x1, y1 := TemplateBounds(t)
	qMin, qMax, rMin, rMax := math.MaxInt, math.MinInt, math.MaxInt, math.MinInt
	for _, c := range [][2]float64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		q, r := HexAt(gridType, c[0], c[1])
		qMin, qMax, rMin, rMax = min(qMin, q), max(qMax, q), min(rMin, r), max(rMax, r)
	}
	var out []int
	for r := rMin - 1; r <= rMax+1; r++ {
		for q := qMin - 1; q <= qMax+1; q++ {
			if x, y := HexCentre(gridType, q, r); t.Contains(x, y) {
				out = append(out, q, r)
			}
		}
	}
	return out
}
