package uvtt

import "math"

type point struct{ x, y float64 }

// rect is the map area [0,w] x [0,h] in pixels.
type rect struct{ w, h float64 }

func (r rect) contains(p point) bool { return p.x >= 0 && p.y >= 0 && p.x <= r.w && p.y <= r.h }

// clipSegment clips a segment to the rectangle (Liang-Barsky). ok is false
// when nothing of it, or only a point, lies inside.
func (r rect) clipSegment(a, b point) (point, point, bool) {
	t0, t1 := 0.0, 1.0
	dx, dy := b.x-a.x, b.y-a.y
	for _, edge := range [4][2]float64{{-dx, a.x}, {dx, r.w - a.x}, {-dy, a.y}, {dy, r.h - a.y}} {
		p, q := edge[0], edge[1]
		if p == 0 {
			if q < 0 {
				return a, b, false
			}
			continue
		}
		t := q / p
		if p < 0 {
			if t > t1 {
				return a, b, false
			}
			t0 = math.Max(t0, t)
		} else {
			if t < t0 {
				return a, b, false
			}
			t1 = math.Min(t1, t)
		}
	}
	ca := point{a.x + t0*dx, a.y + t0*dy}
	cb := point{a.x + t1*dx, a.y + t1*dy}
	if math.Abs(ca.x-cb.x) < 1e-6 && math.Abs(ca.y-cb.y) < 1e-6 {
		return ca, cb, false
	}
	return ca, cb, true
}

// clipPolyline clips a polyline to the rectangle; where it leaves and comes
// back it splits into several pieces.
func (r rect) clipPolyline(pts []point) [][]point {
	var pieces [][]point
	var cur []point
	flush := func() {
		if len(cur) >= 2 {
			pieces = append(pieces, cur)
		}
		cur = nil
	}
	for i := 0; i+1 < len(pts); i++ {
		a, b, ok := r.clipSegment(pts[i], pts[i+1])
		if !ok {
			flush()
			continue
		}
		if len(cur) > 0 && !samePoint(cur[len(cur)-1], a) {
			flush()
		}
		if len(cur) == 0 {
			cur = append(cur, a)
		}
		cur = append(cur, b)
		if !samePoint(b, pts[i+1]) {
			flush() // the line leaves the map here
		}
	}
	flush()
	return pieces
}

func samePoint(a, b point) bool { return math.Abs(a.x-b.x) < 1e-6 && math.Abs(a.y-b.y) < 1e-6 }

// flatten writes points as [x1,y1,x2,y2,...] rounded to hundredths.
func flatten(pts []point) []float64 {
	out := make([]float64, 0, 2*len(pts))
	for _, p := range pts {
		out = append(out, round2(p.x), round2(p.y))
	}
	return out
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
