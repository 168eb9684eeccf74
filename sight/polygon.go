package sight

import (
	"math"
	"slices"
	"sync"
)

// sightEpsilon is the angle (radians) by which rays are cast on either side
// of each wall end, so that they slip past a corner and reach what is
// behind it.
const sightEpsilon = 1e-4

// sightTolerance is the distance, relative to the extent of the walls seen
// from the viewer, under which two points count as the same line: a viewer
// that close to a wall stands on it, and walls that close to each other
// touch rather than cross.
const sightTolerance = 1e-9

var sightEpsCos, sightEpsSin = math.Cos(sightEpsilon), math.Sin(sightEpsilon)

// VisionPolygon returns the area visible from (x, y): a polygon as a flat
// x,y list, in angle order, bounded by the blocking segments (x1, y1, x2,
// y2) and by box (minX, minY, maxX, maxY). Rays are cast at each segment
// end and sightEpsilon on either side of it; each ray stops at the nearest
// segment it meets, and rays that meet nothing (a viewer outside the box
// looking away) are left out. Points are rounded to 0.01 and consecutive
// duplicates dropped.
//
// It is an angular sweep, O(n log n) in the number of segments: the ends
// are sorted by angle around the viewer and the segments that the current
// ray crosses are kept in a binary heap ordered by their distance along it,
// so each ray reads its nearest wall from the top of the heap. Walls that
// cross are first cut where they cross (found through a uniform grid), so
// that the order of two segments in the heap never changes while both are
// in it. A viewer standing exactly on a segment (or on the box edge) sees
// nothing: the polygon is its own position, as no side of the wall can be
// said to be the one it looks from.
func VisionPolygon(x, y float64, segments [][4]float64, box [4]float64) []float64 {
	sc := visionScratchPool.Get().(*visionScratch)
	defer visionScratchPool.Put(sc)
	return sc.polygon(x, y, segments, box)
}

// VisionPolygonWithin is VisionPolygon for a caller that needs only what
// lies within radius of the viewer (a light's reach, a vision limit): the
// box shrinks to the square around that circle and only the segments that
// reach into the square are swept, so the cost follows the walls nearby
// rather than every wall of the map. Within the square, and so within the
// circle, it covers what VisionPolygon covers; it stops at the square's
// edge. A radius that is not positive sees nothing, an infinite one
// everything; so does a viewer whose square misses the box.
func VisionPolygonWithin(x, y, radius float64, segments [][4]float64, box [4]float64) []float64 {
	if math.IsInf(radius, 1) {
		return VisionPolygon(x, y, segments, box)
	}
	square := [4]float64{
		max(min(box[0], box[2]), x-radius), max(min(box[1], box[3]), y-radius),
		min(max(box[0], box[2]), x+radius), min(max(box[1], box[3]), y+radius),
	}
	if !(radius > 0) || !(square[0] <= square[2] && square[1] <= square[3]) {
		return []float64{}
	}
	sc := visionScratchPool.Get().(*visionScratch)
	defer visionScratchPool.Put(sc)
	near := sc.near[:0]
	for _, s := range segments {
		if max(s[0], s[2]) < square[0] || min(s[0], s[2]) > square[2] ||
			max(s[1], s[3]) < square[1] || min(s[1], s[3]) > square[3] {
			continue // wholly outside the square (NaN ends stay, and are dropped later)
		}
		near = append(near, s)
	}
	sc.near = near
	return sc.polygon(x, y, near, square)
}

var visionScratchPool = sync.Pool{New: func() any { return new(visionScratch) }}

// sweepSeg is a segment seen from the viewer, in coordinates relative to
// it: (x1, y1) comes first counter-clockwise, and the segment lies on the
// line a*x + b*y = c, with (a, b) a unit normal pointing away from the
// viewer, so c > 0 is the line's distance from it.
type sweepSeg struct {
	x1, y1, x2, y2 float64
	a, b, c        float64
	heapPos        int32
}

// side is where p lies from the segment's line: negative on the viewer's
// side, positive beyond, within tol of zero on the line.
func (s *sweepSeg) side(px, py float64) float64 { return s.a*px + s.b*py - s.c }

// distance is how far along the ray through (dx, dy) the segment's line
// is, in units of |(dx, dy)|; +Inf when the ray runs away from it.
func (s *sweepSeg) distance(dx, dy float64) float64 {
	den := s.a*dx + s.b*dy
	if den <= 0 {
		return math.Inf(1)
	}
	return s.c / den
}

// Kinds of sweep events, in the order they are applied at the same angle.
// The heap holds the pieces that the rays just after the current angle
// cross, so pieces ending there leave before those starting there come
// in: a piece that only touches another at one angle is never compared
// with it, and the order of two pieces that meet at a point (a polyline's
// corner, a crossing) is the one they have beyond it. A ray cast exactly
// at an angle where pieces end also looks at those (see sweep).
const (
	eventEnd uint8 = iota
	eventStart
	eventRay
)

// sweepEvent is a segment starting or ending, or a segment end that rays
// are cast at, at angle key (see angleKey).
type sweepEvent struct {
	key  uint64
	ref  int32 // the piece (start, end) or the point (ray)
	kind uint8
}

// angleKey turns a pseudo-angle, within (-6.01, 6.01) once shifted by a
// turn either way, into a 33-bit fixed-point number that sorts the same,
// in steps of 2^-29 (4e-9 rad at most). Events closer than a step are taken
// as simultaneous (see snapEvents): at 10,000 px from the viewer that moves
// a hit by 4e-5 px, far below the 0.01 the output is rounded to.
func angleKey(pseudo float64) uint64 {
	return uint64(int64(min(max(pseudo+8, 0), 15.99) * (1 << 29)))
}

// sweepRay is a ray cast from the viewer: its pseudo-angle and unit
// direction.
type sweepRay struct {
	key    uint64
	dx, dy float64
}

// sweepSplit is a point where a segment is crossed by another: t along
// the segment from its first end.
type sweepSplit struct {
	seg  int32
	t    float64
	x, y float64
}

// visionScratch holds the buffers of one computation, reused through a
// pool so that a drag that recomputes vision on every move allocates
// little more than the result.
type visionScratch struct {
	near        [][4]float64 // VisionPolygonWithin's segments
	segs        []sweepSeg
	pieces      []sweepSeg
	points      [][2]float64
	events      []sweepEvent
	eventsTmp   []sweepEvent
	radixCounts [3][1 << 11]int32
	splits      []sweepSplit
	cellOf      []int32
	cellStart   []int32
	cellItems   []int32
	heap        []int32
	rays        [3][]sweepRay
	merged      []sweepRay
	poly        []float64
	tol         float64
	// curX, curY is the direction of the ray at which the heap is being
	// changed: it settles the order of two segments only when their ends
	// alone cannot.
	curX, curY float64
	// scan is set when the walls cross so often that cutting them would
	// cost more than looking at every crossed segment on each ray.
	scan bool
}

func (sc *visionScratch) polygon(x, y float64, segments [][4]float64, box [4]float64) []float64 {
	if !finite(x) || !finite(y) {
		return []float64{}
	}
	edges := [4][4]float64{
		{box[0], box[1], box[2], box[1]},
		{box[2], box[1], box[2], box[3]},
		{box[2], box[3], box[0], box[3]},
		{box[0], box[3], box[0], box[1]},
	}
	scale := 1.0
	for _, list := range [2][][4]float64{segments, edges[:]} {
		for _, s := range list {
			for _, v := range [4]float64{s[0] - x, s[1] - y, s[2] - x, s[3] - y} {
				if a := math.Abs(v); a <= math.MaxFloat64 { // not NaN, not infinite
					scale = max(scale, a)
				}
			}
		}
	}
	sc.tol = sightTolerance * scale
	sc.segs, sc.points = sc.segs[:0], sc.points[:0]
	onSegment := false
	for _, s := range segments {
		onSegment = sc.addSegment(s[0]-x, s[1]-y, s[2]-x, s[3]-y) || onSegment
	}
	for _, s := range edges {
		onSegment = sc.addSegment(s[0]-x, s[1]-y, s[2]-x, s[3]-y) || onSegment
	}
	if onSegment {
		return []float64{round2(x), round2(y)}
	}
	sc.cutCrossings()
	sc.sortEvents()
	sc.castRays()
	return sc.sweep(x, y)
}

// addSegment takes one segment relative to the viewer: its ends become
// rays, and it becomes a blocker unless it has no length or lies on a
// line through the viewer (rays never meet it then). It reports whether
// the viewer stands on it.
func (sc *visionScratch) addSegment(x1, y1, x2, y2 float64) bool {
	if !finite(x1) || !finite(y1) || !finite(x2) || !finite(y2) {
		return false
	}
	sc.addPoint(x1, y1)
	sc.addPoint(x2, y2)
	dx, dy := x2-x1, y2-y1
	length := math.Hypot(dx, dy)
	if length <= sc.tol {
		return false
	}
	cross := x1*y2 - y1*x2
	if math.Abs(cross)/length <= sc.tol {
		// On a line through the viewer: does it pass under its feet?
		u := -(x1*dx + y1*dy) / (length * length)
		slack := sc.tol / length
		return u >= -slack && u <= 1+slack
	}
	if cross < 0 {
		x1, y1, x2, y2 = x2, y2, x1, y1
		dx, dy, cross = -dx, -dy, -cross
	}
	sc.segs = append(sc.segs, sweepSeg{
		x1: x1, y1: y1, x2: x2, y2: y2,
		a: dy / length, b: -dx / length, c: cross / length,
		heapPos: -1,
	})
	return false
}

func (sc *visionScratch) addPoint(x, y float64) {
	if x == 0 && y == 0 {
		return
	}
	if n := len(sc.points); n > 0 && sc.points[n-1] == [2]float64{x, y} {
		return // a polyline's corner, given as the end of one segment and the start of the next
	}
	sc.points = append(sc.points, [2]float64{x, y})
}

// pseudoAngle is a cheap stand-in for atan2(y, x): it grows with the angle
// around the origin, from just above -2 (at -pi) to 2 (at pi), and is the
// fraction of the way round the diamond |x|+|y| = 1.
func pseudoAngle(x, y float64) float64 {
	r := y / (math.Abs(x) + math.Abs(y))
	if x < 0 {
		if y >= 0 {
			return 2 - r
		}
		return -2 - r
	}
	return r
}

// sortEvents lists where each piece starts and ends and where rays are
// cast, sorted by pseudo-angle. A piece whose span wraps past the angle pi
// also appears shifted by one turn (4), so that it is in the heap from the
// first ray on; one that starts right at -pi appears a turn later too, for
// the rays cast just past pi.
func (sc *visionScratch) sortEvents() {
	ev := sc.events[:0]
	// Ends, then starts, then rays: the sort is stable, so at the same
	// angle they stay in this order.
	for kind := eventEnd; kind <= eventStart; kind++ {
		for i := range sc.pieces {
			p := &sc.pieces[i]
			s, e := pseudoAngle(p.x1, p.y1), pseudoAngle(p.x2, p.y2)
			if e < s {
				e += 4
			}
			if e-s >= 2 {
				continue // a sliver turned by rounding: it cannot span half a turn
			}
			const margin = 1e-3 // more than sightEpsilon in pseudo-angle
			for _, shift := range [3]float64{-4, 0, 4} {
				switch {
				case shift < 0 && e <= 2-margin, shift > 0 && s >= -2+margin:
				case kind == eventEnd:
					ev = append(ev, sweepEvent{key: angleKey(e + shift), ref: int32(i), kind: eventEnd})
				case s < e:
					// A piece seen edge-on (no width in angle) never enters
					// the heap; a ray cast at its angle still finds it by
					// its end.
					ev = append(ev, sweepEvent{key: angleKey(s + shift), ref: int32(i), kind: eventStart})
				}
			}
		}
	}
	for i, p := range sc.points {
		ev = append(ev, sweepEvent{key: angleKey(pseudoAngle(p[0], p[1])), ref: int32(i), kind: eventRay})
	}
	sc.events, sc.eventsTmp = sc.radixSort(ev, sc.eventsTmp)
	snapEvents(sc.events)
}

// radixSort sorts events by key, stably, in three passes of 11 bits: O(n),
// where a comparison sort was half the cost of the whole computation. It
// returns the sorted slice and the spare one.
func (sc *visionScratch) radixSort(ev, tmp []sweepEvent) ([]sweepEvent, []sweepEvent) {
	const bits, passes = 11, 3
	counts := &sc.radixCounts
	*counts = [passes][1 << bits]int32{}
	for _, e := range ev {
		for d := 0; d < passes; d++ {
			counts[d][e.key>>(bits*d)&(1<<bits-1)]++
		}
	}
	tmp = slices.Grow(tmp[:0], len(ev))[:len(ev)]
	for d := 0; d < passes; d++ {
		c := &counts[d]
		if len(ev) == 0 || int(c[ev[0].key>>(bits*d)&(1<<bits-1)]) == len(ev) {
			continue // every event has the same digit here
		}
		var sum int32
		for k := range c {
			c[k], sum = sum, sum+c[k]
		}
		for _, e := range ev {
			k := e.key >> (bits * d) & (1<<bits - 1)
			tmp[c[k]] = e
			c[k]++
		}
		ev, tmp = tmp, ev
	}
	return ev, tmp
}

// snapEvents gives events whose keys differ by one step, rounding alone,
// the same key, and puts each such group back in the order of kinds.
// Walls that cross near one point (three crossing almost together, a
// crossing on a corner) end and start at points a rounding error apart:
// without this a piece could enter the heap before one it merely touches
// has left it.
func snapEvents(ev []sweepEvent) {
	for i := 1; i < len(ev); i++ {
		if ev[i].key-ev[i-1].key > 1 {
			continue
		}
		first, prev := i-1, ev[i-1].key
		for ; i < len(ev) && ev[i].key-prev <= 1; i++ {
			prev = ev[i].key
			ev[i].key = ev[first].key
		}
		group := ev[first:i]
		for a := 1; a < len(group); a++ {
			for b := a; b > 0 && group[b].kind < group[b-1].kind; b-- {
				group[b], group[b-1] = group[b-1], group[b]
			}
		}
	}
}

// castRays builds the rays in angle order: at each segment end (one per
// angle), and sightEpsilon before and after it. Each of the three lists
// is sorted already; they are merged.
func (sc *visionScratch) castRays() {
	for k := range sc.rays {
		sc.rays[k] = sc.rays[k][:0]
	}
	last := uint64(math.MaxUint64)
	for _, e := range sc.events {
		if e.kind != eventRay || e.key == last {
			continue
		}
		last = e.key
		pseudo := float64(e.key)/(1<<29) - 8
		p := sc.points[e.ref]
		n := math.Sqrt(p[0]*p[0] + p[1]*p[1])
		if n > math.MaxFloat64 {
			n = math.Hypot(p[0], p[1]) // beyond 1e154 the squares overflow
		}
		dx, dy := p[0]/n, p[1]/n
		bx, by := dx*sightEpsCos+dy*sightEpsSin, dy*sightEpsCos-dx*sightEpsSin
		ax, ay := dx*sightEpsCos-dy*sightEpsSin, dy*sightEpsCos+dx*sightEpsSin
		before, after := pseudoAngle(bx, by), pseudoAngle(ax, ay)
		if before > pseudo {
			before -= 4 // turned back past -pi
		}
		if after < pseudo {
			after += 4 // turned on past pi
		}
		sc.rays[0] = append(sc.rays[0], sweepRay{angleKey(before), bx, by})
		sc.rays[1] = append(sc.rays[1], sweepRay{e.key, dx, dy})
		sc.rays[2] = append(sc.rays[2], sweepRay{angleKey(after), ax, ay})
	}
	merged := sc.merged[:0]
	var at [3]int
	for {
		best := -1
		for k := range sc.rays {
			if at[k] < len(sc.rays[k]) && (best < 0 || sc.rays[k][at[k]].key < sc.rays[best][at[best]].key) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		merged = append(merged, sc.rays[best][at[best]])
		at[best]++
	}
	sc.merged = merged
}

// sweep turns the rays in order, keeping the pieces each crosses in the
// heap, and returns the polygon of the nearest hits.
func (sc *visionScratch) sweep(x, y float64) []float64 {
	sc.heap = sc.heap[:0]
	poly := sc.poly[:0]
	ev := sc.events
	next := 0
	var key uint64
	for _, r := range sc.merged {
		// Rounding may set a ray a hair before the previous one; the sweep
		// only moves forward.
		key = max(key, r.key)
		for ; next < len(ev) && ev[next].key <= key; next++ {
			e := ev[next]
			switch e.kind {
			case eventEnd:
				p := &sc.pieces[e.ref]
				sc.curX, sc.curY = p.x2, p.y2
				sc.remove(e.ref)
			case eventStart:
				if endsAt(ev, next, e.ref) {
					// Rounding put its start and end at one angle (a
					// sliver seen almost edge-on): it spans no ray, and
					// pushed after its end it would never leave the heap.
					continue
				}
				p := &sc.pieces[e.ref]
				sc.curX, sc.curY = p.x1, p.y1
				sc.push(e.ref)
			}
		}
		t := sc.nearest(r.dx, r.dy)
		// Pieces that end exactly at this ray's angle have left the heap
		// but still stop it.
		for k := next - 1; k >= 0 && ev[k].key == key; k-- {
			if ev[k].kind == eventEnd {
				t = min(t, sc.pieces[ev[k].ref].distance(r.dx, r.dy))
			}
		}
		if math.IsInf(t, 1) {
			continue // nothing that way: the viewer is outside the box
		}
		px, py := round2(x+r.dx*t), round2(y+r.dy*t)
		if n := len(poly); n >= 2 && poly[n-2] == px && poly[n-1] == py {
			continue
		}
		poly = append(poly, px, py)
	}
	sc.poly = poly
	return append(make([]float64, 0, len(poly)), poly...)
}

// endsAt reports whether piece ref also ends at the angle of ev[at], its
// start: the events of one angle are ordered ends first, so its end is
// among those before it.
func endsAt(ev []sweepEvent, at int, ref int32) bool {
	for k := at - 1; k >= 0 && ev[k].key == ev[at].key; k-- {
		if ev[k].kind == eventEnd && ev[k].ref == ref {
			return true
		}
	}
	return false
}

// nearest is the distance along the unit ray (dx, dy) to the nearest
// piece it crosses, +Inf if none.
func (sc *visionScratch) nearest(dx, dy float64) float64 {
	if len(sc.heap) == 0 {
		return math.Inf(1)
	}
	if !sc.scan {
		return sc.pieces[sc.heap[0]].distance(dx, dy)
	}
	best := math.Inf(1)
	for _, i := range sc.heap {
		best = min(best, sc.pieces[i].distance(dx, dy))
	}
	return best
}

// cutCrossings copies the segments into pieces, cut where one crosses
// another, so that no two pieces cross. Crossings are looked for only
// between segments sharing a cell of a uniform grid of about one cell per
// segment: real walls are short and meet few others. Walls crossing far
// more than that (a forged map) are kept whole and the sweep scans them.
func (sc *visionScratch) cutCrossings() {
	sc.scan = false
	sc.splits = sc.splits[:0]
	if len(sc.segs) > 1 && !sc.findCrossings() {
		sc.scan = true
		sc.splits = sc.splits[:0]
	}
	pieces := sc.pieces[:0]
	if len(sc.splits) == 0 {
		sc.pieces = append(pieces, sc.segs...)
		return
	}
	slices.SortFunc(sc.splits, func(a, b sweepSplit) int {
		if a.seg != b.seg {
			return int(a.seg) - int(b.seg)
		}
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	})
	next := 0
	for i := range sc.segs {
		s := sc.segs[i]
		// A piece shorter than the tolerance is left out: it would come
		// from the same crossing found in two cells, or from crossings so
		// close that rounding may set them out of order, and could run
		// backwards. The rays never pass through such a gap.
		minStep := sc.tol * math.Hypot(s.x2-s.x1, s.y2-s.y1)
		px, py := s.x1, s.y1
		first := len(pieces)
		for ; next < len(sc.splits) && sc.splits[next].seg == int32(i); next++ {
			sp := sc.splits[next]
			if (sp.x-px)*(s.x2-s.x1)+(sp.y-py)*(s.y2-s.y1) <= minStep {
				continue
			}
			piece := s
			piece.x1, piece.y1, piece.x2, piece.y2 = px, py, sp.x, sp.y
			pieces = append(pieces, piece)
			px, py = sp.x, sp.y
		}
		switch {
		case (s.x2-px)*(s.x2-s.x1)+(s.y2-py)*(s.y2-s.y1) > minStep:
			piece := s
			piece.x1, piece.y1 = px, py
			pieces = append(pieces, piece)
		case len(pieces) > first:
			// The last crossing is all but on the end: the piece before it
			// runs on to the end itself, where a ray is cast.
			pieces[len(pieces)-1].x2, pieces[len(pieces)-1].y2 = s.x2, s.y2
		}
	}
	sc.pieces = pieces
}

// findCrossings records in splits where segments cross one another
// (touching at an end, or lying along each other, is not crossing). It
// returns false, leaving early, when there are more crossings than a few
// per segment.
func (sc *visionScratch) findCrossings() bool {
	segs := sc.segs
	n := len(segs)
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for i := range segs {
		s := &segs[i]
		minX, maxX = min(minX, min(s.x1, s.x2)), max(maxX, max(s.x1, s.x2))
		minY, maxY = min(minY, min(s.y1, s.y2)), max(maxY, max(s.y1, s.y2))
	}
	w, h := maxX-minX, maxY-minY
	cell := math.Sqrt(w * h / float64(n))
	if !(cell > 0) {
		cell = max(max(w, h)/float64(n), 1)
	}
	cols, rows := int(w/cell)+1, int(h/cell)+1
	for cols*rows > 4*n+16 {
		cell *= 2
		cols, rows = int(w/cell)+1, int(h/cell)+1
	}
	// Which cells each segment passes through, column by column, widened
	// by the tolerance so that a crossing on a cell border is seen.
	tol := sc.tol
	cellOf := sc.cellOf[:0]
	clamp := func(v float64, hi int) int {
		k := int(v / cell)
		if v < 0 {
			k = 0
		}
		return min(k, hi-1)
	}
	for i := range segs {
		s := &segs[i]
		lo, hi := min(s.x1, s.x2)-tol, max(s.x1, s.x2)+tol
		ylo, yhi := min(s.y1, s.y2), max(s.y1, s.y2)
		c0, c1 := clamp(lo-minX, cols), clamp(hi-minX, cols)
		r0, r1 := clamp(ylo-tol-minY, rows), clamp(yhi+tol-minY, rows)
		if c0 == c1 || r0 == r1 {
			// Within one column or one row (most walls are short): every
			// cell of its bounding box is one it passes through.
			for r := r0; r <= r1; r++ {
				for c := c0; c <= c1; c++ {
					cellOf = append(cellOf, int32(r*cols+c), int32(i))
				}
			}
			continue
		}
		slope := 0.0
		steep := math.Abs(s.x2-s.x1) <= tol
		if !steep {
			slope = (s.y2 - s.y1) / (s.x2 - s.x1)
		}
		for c := c0; c <= c1; c++ {
			y0, y1 := ylo, yhi
			if !steep {
				xa := max(lo, minX+float64(c)*cell)
				xb := min(hi, minX+float64(c+1)*cell)
				ya, yb := s.y1+(xa-s.x1)*slope, s.y1+(xb-s.x1)*slope
				y0 = max(ylo, min(ya, yb))
				y1 = min(yhi, max(ya, yb))
			}
			for r := clamp(y0-tol-minY, rows); r <= clamp(y1+tol-minY, rows); r++ {
				cellOf = append(cellOf, int32(r*cols+c), int32(i))
			}
		}
	}
	sc.cellOf = cellOf
	// Group the segments by cell (a counting sort).
	start := slices.Grow(sc.cellStart[:0], cols*rows+1)[:cols*rows+1]
	clear(start)
	for k := 0; k < len(cellOf); k += 2 {
		start[cellOf[k]+1]++
	}
	for c := 1; c < len(start); c++ {
		start[c] += start[c-1]
	}
	items := slices.Grow(sc.cellItems[:0], len(cellOf)/2)[:len(cellOf)/2]
	fill := slices.Grow(sc.heap[:0], cols*rows)[:cols*rows] // borrowed: the heap is empty now
	copy(fill, start)
	for k := 0; k < len(cellOf); k += 2 {
		c := cellOf[k]
		items[fill[c]] = cellOf[k+1]
		fill[c]++
	}
	sc.cellStart, sc.cellItems, sc.heap = start, items, fill[:0]
	limit := 8*n + 1024
	for c := 0; c+1 < len(start); c++ {
		in := items[start[c]:start[c+1]]
		for x := 0; x < len(in); x++ {
			for y := x + 1; y < len(in); y++ {
				if sc.cross(in[x], in[y]) && len(sc.splits) > limit {
					return false
				}
			}
		}
	}
	return true
}

// cross records the point where segments i and j cross, if they do, for
// both of them, and reports whether they do.
func (sc *visionScratch) cross(i, j int32) bool {
	a, b := &sc.segs[i], &sc.segs[j]
	tol := sc.tol
	b1, b2 := a.side(b.x1, b.y1), a.side(b.x2, b.y2)
	if !(b1 > tol && b2 < -tol || b1 < -tol && b2 > tol) {
		return false
	}
	a1, a2 := b.side(a.x1, a.y1), b.side(a.x2, a.y2)
	if !(a1 > tol && a2 < -tol || a1 < -tol && a2 > tol) {
		return false
	}
	t := a1 / (a1 - a2)
	x, y := a.x1+t*(a.x2-a.x1), a.y1+t*(a.y2-a.y1)
	sc.splits = append(sc.splits,
		sweepSplit{seg: i, t: t, x: x, y: y},
		sweepSplit{seg: j, t: b1 / (b1 - b2), x: x, y: y})
	return true
}

// less reports whether piece i is nearer the viewer than piece j, for two
// pieces that the current ray both crosses. Since pieces never cross, one
// lies wholly on the viewer's side of the other's line, or beyond it, and
// their order stays the same for as long as both are in the heap.
func (sc *visionScratch) less(i, j int32) bool {
	a, b := &sc.pieces[i], &sc.pieces[j]
	tol := sc.tol
	b1, b2 := a.side(b.x1, b.y1), a.side(b.x2, b.y2)
	if b1 >= -tol && b2 >= -tol {
		return b1 > tol || b2 > tol // b beyond a's line; on it, a tie
	}
	if b1 <= tol && b2 <= tol {
		return false // b on the viewer's side of a's line
	}
	a1, a2 := b.side(a.x1, a.y1), b.side(a.x2, a.y2)
	if a1 <= tol && a2 <= tol {
		return true
	}
	if a1 >= -tol && a2 >= -tol {
		return false
	}
	// They cross (only in scan mode, or by rounding): the nearer along
	// the current ray.
	return a.distance(sc.curX, sc.curY) < b.distance(sc.curX, sc.curY)
}

// push adds piece i to the active set.
func (sc *visionScratch) push(i int32) {
	sc.pieces[i].heapPos = int32(len(sc.heap))
	sc.heap = append(sc.heap, i)
	if !sc.scan {
		sc.up(len(sc.heap) - 1)
	}
}

// remove takes piece i out of the active set, if it is there.
func (sc *visionScratch) remove(i int32) {
	at := int(sc.pieces[i].heapPos)
	if at < 0 {
		return
	}
	sc.pieces[i].heapPos = -1
	last := len(sc.heap) - 1
	if at != last {
		moved := sc.heap[last]
		sc.heap[at] = moved
		sc.pieces[moved].heapPos = int32(at)
	}
	sc.heap = sc.heap[:last]
	if at != last && !sc.scan {
		if !sc.up(at) {
			sc.down(at)
		}
	}
}

// up moves the entry at k towards the root while it is nearer than its
// parent, and reports whether it moved.
func (sc *visionScratch) up(k int) bool {
	h := sc.heap
	moved := false
	for k > 0 {
		parent := (k - 1) / 2
		if !sc.less(h[k], h[parent]) {
			break
		}
		sc.swap(k, parent)
		k = parent
		moved = true
	}
	return moved
}

// down moves the entry at k towards the leaves while a child is nearer.
func (sc *visionScratch) down(k int) {
	h := sc.heap
	for {
		child := 2*k + 1
		if child >= len(h) {
			return
		}
		if r := child + 1; r < len(h) && sc.less(h[r], h[child]) {
			child = r
		}
		if !sc.less(h[child], h[k]) {
			return
		}
		sc.swap(k, child)
		k = child
	}
}

// swap exchanges two heap entries and keeps their pieces' positions.
func (sc *visionScratch) swap(i, j int) {
	h := sc.heap
	h[i], h[j] = h[j], h[i]
	sc.pieces[h[i]].heapPos = int32(i)
	sc.pieces[h[j]].heapPos = int32(j)
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// finite reports whether every value is a number (neither NaN nor an
// infinity).
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
