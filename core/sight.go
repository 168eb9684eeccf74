package core

import (
	"math"
	"sort"
)

// sightEpsilon is the angle (radians) by which rays are cast on either side
// of each wall end, so that they slip past a corner and reach what is
// behind it.
const sightEpsilon = 1e-4

// sightMargin pads the bounding box of a map without a size.
const sightMargin = 1000

// VisionPolygon returns the area visible from (x, y): a polygon as a flat
// x,y list, in angle order, bounded by the blocking segments (x1, y1, x2,
// y2) and by box (minX, minY, maxX, maxY). It casts a ray to each segment
// end and just past it, and keeps the nearest hit of each: the classic
// visibility polygon, O(ends x segments), fine for the few hundred walls of
// a battle map.
func VisionPolygon(x, y float64, segments [][4]float64, box [4]float64) []float64 {
	segs := make([][4]float64, 0, len(segments)+4)
	segs = append(segs, segments...)
	segs = append(segs,
		[4]float64{box[0], box[1], box[2], box[1]},
		[4]float64{box[2], box[1], box[2], box[3]},
		[4]float64{box[2], box[3], box[0], box[3]},
		[4]float64{box[0], box[3], box[0], box[1]},
	)
	angles := make([]float64, 0, len(segs)*6)
	for _, s := range segs {
		for _, p := range [][2]float64{{s[0], s[1]}, {s[2], s[3]}} {
			if p[0] == x && p[1] == y {
				continue
			}
			a := math.Atan2(p[1]-y, p[0]-x)
			angles = append(angles, a-sightEpsilon, a, a+sightEpsilon)
		}
	}
	sort.Float64s(angles)
	poly := make([]float64, 0, len(angles)*2)
	for _, a := range angles {
		dx, dy := math.Cos(a), math.Sin(a)
		best := math.Inf(1)
		for _, s := range segs {
			if t, ok := raySegment(x, y, dx, dy, s); ok && t < best {
				best = t
			}
		}
		if math.IsInf(best, 1) {
			continue // the viewer is outside the box and looks away from it
		}
		px, py := round2(x+dx*best), round2(y+dy*best)
		if n := len(poly); n >= 2 && poly[n-2] == px && poly[n-1] == py {
			continue
		}
		poly = append(poly, px, py)
	}
	return poly
}

// raySegment returns the distance t along the ray (ox, oy) + t(dx, dy) at
// which it meets segment s, if it does.
func raySegment(ox, oy, dx, dy float64, s [4]float64) (float64, bool) {
	ex, ey := s[2]-s[0], s[3]-s[1]
	denom := dx*ey - dy*ex
	if math.Abs(denom) < 1e-12 {
		return 0, false // parallel
	}
	ax, ay := s[0]-ox, s[1]-oy
	t := (ax*ey - ay*ex) / denom
	u := (ax*dy - ay*dx) / denom
	if t < 0 || u < -1e-9 || u > 1+1e-9 {
		return 0, false
	}
	return t, true
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// sightBox is the area vision is bounded by: the map's size when it has
// one, else everything on it with a margin.
func sightBox(m *Map, segments [][4]float64) [4]float64 {
	if m.Width > 0 && m.Height > 0 {
		return [4]float64{0, 0, float64(m.Width), float64(m.Height)}
	}
	box := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	grow := func(x, y float64) {
		box[0], box[1] = math.Min(box[0], x), math.Min(box[1], y)
		box[2], box[3] = math.Max(box[2], x), math.Max(box[3], y)
	}
	for _, s := range segments {
		grow(s[0], s[1])
		grow(s[2], s[3])
	}
	for _, t := range m.Tokens {
		grow(t.X, t.Y)
	}
	if math.IsInf(box[0], 1) {
		return [4]float64{-sightMargin, -sightMargin, sightMargin, sightMargin}
	}
	return [4]float64{box[0] - sightMargin, box[1] - sightMargin, box[2] + sightMargin, box[3] + sightMargin}
}
