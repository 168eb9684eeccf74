package sight_test

import (
	"math"
	"sort"
)

// visionPolygonRays is the ray-casting VisionPolygon that the sweep
// replaced, kept as the baseline the sweep is checked and measured
// against: it casts a ray to each segment end and just past it and tests
// every ray against every segment, O(n^2).
func visionPolygonRays(x, y float64, segments [][4]float64, box [4]float64) []float64 {
	const sightEpsilon = 1e-4
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
			if t, ok := baselineRaySegment(x, y, dx, dy, s); ok && t < best {
				best = t
			}
		}
		if math.IsInf(best, 1) {
			continue // the viewer is outside the box and looks away from it
		}
		px, py := baselineRound2(x+dx*best), baselineRound2(y+dy*best)
		if n := len(poly); n >= 2 && poly[n-2] == px && poly[n-1] == py {
			continue
		}
		poly = append(poly, px, py)
	}
	return poly
}

// baselineRaySegment returns the distance t along the ray (ox, oy) +
// t(dx, dy) at which it meets segment s, if it does.
func baselineRaySegment(ox, oy, dx, dy float64, s [4]float64) (float64, bool) {
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

func baselineRound2(v float64) float64 { return math.Round(v*100) / 100 }
