package sight_test

import (
	"math"
	"math/rand/v2"
)

// generatedDungeon is a deterministic dungeon of about 5,000 wall
// segments, drawn the way battle-map tools export one: a grid of rooms
// joined by corridors, walls as one segment per grid cell with a little
// hand-drawn wobble (shared by the walls meeting at a corner), closed
// doors across most corridor mouths, square pillars in the large rooms and
// round (octagonal) ones in some. viewers are places a token would stand:
// room centres, corridors, doorways.
type generatedDungeon struct {
	segments [][4]float64
	box      [4]float64
	viewers  [][2]float64
}

const (
	dungeonCell    = 50.0 // pixels per grid cell
	dungeonSlot    = 14   // cells per room slot
	dungeonCols    = 10
	dungeonRows    = 8
	dungeonWobble  = 2.5 // pixels
	dungeonPillarR = 14.0
)

func newGeneratedDungeon(seed uint64) generatedDungeon {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	w, h := dungeonCols*dungeonSlot, dungeonRows*dungeonSlot
	floor := make([]bool, w*h)
	at := func(x, y int) bool { return x >= 0 && y >= 0 && x < w && y < h && floor[y*w+x] }
	set := func(x, y int, v bool) {
		if x >= 0 && y >= 0 && x < w && y < h {
			floor[y*w+x] = v
		}
	}
	type room struct{ x, y, w, h int }
	rooms := make([]room, 0, dungeonCols*dungeonRows)
	for sy := 0; sy < dungeonRows; sy++ {
		for sx := 0; sx < dungeonCols; sx++ {
			r := room{w: 6 + rng.IntN(7), h: 5 + rng.IntN(7)}
			r.x = sx*dungeonSlot + 1 + rng.IntN(dungeonSlot-r.w-1)
			r.y = sy*dungeonSlot + 1 + rng.IntN(dungeonSlot-r.h-1)
			rooms = append(rooms, r)
			for y := r.y; y < r.y+r.h; y++ {
				for x := r.x; x < r.x+r.w; x++ {
					set(x, y, true)
				}
			}
		}
	}
	inRoom := func(r room, x, y int) bool { return x >= r.x && y >= r.y && x < r.x+r.w && y < r.y+r.h }
	var doors [][4]int // cell edges: from cell (x0,y0) to the neighbour cell (x1,y1)
	var viewers [][2]float64
	centre := func(x, y int) [2]float64 {
		return [2]float64{(float64(x) + 0.5) * dungeonCell, (float64(y) + 0.5) * dungeonCell}
	}
	// Corridors: an L from the middle of a room to the middle of its east
	// and south neighbours, with a door where it leaves each room.
	corridor := func(a, b room) {
		ax, ay := a.x+a.w/2, a.y+a.h/2
		bx, by := b.x+b.w/2, b.y+b.h/2
		var path [][2]int
		for x := ax; x != bx; x += sign(bx - ax) {
			path = append(path, [2]int{x, ay})
		}
		for y := ay; y != by; y += sign(by - ay) {
			path = append(path, [2]int{bx, y})
		}
		path = append(path, [2]int{bx, by})
		for i, c := range path {
			set(c[0], c[1], true)
			if i > 0 {
				p := path[i-1]
				leaving := inRoom(a, p[0], p[1]) && !inRoom(a, c[0], c[1])
				entering := !inRoom(b, p[0], p[1]) && inRoom(b, c[0], c[1])
				if (leaving || entering) && rng.Float64() < 0.75 {
					doors = append(doors, [4]int{p[0], p[1], c[0], c[1]})
				}
			}
			if i == len(path)/2 {
				viewers = append(viewers, centre(c[0], c[1]))
			}
		}
	}
	for i, r := range rooms {
		sx, sy := i%dungeonCols, i/dungeonCols
		if sx+1 < dungeonCols && rng.Float64() < 0.9 {
			corridor(r, rooms[i+1])
		}
		if sy+1 < dungeonRows && rng.Float64() < 0.8 {
			corridor(r, rooms[i+dungeonCols])
		}
	}
	// Square pillars: rock cells inside the larger rooms.
	for _, r := range rooms {
		if r.w >= 8 && r.h >= 7 {
			for y := r.y + 2; y < r.y+r.h-2; y += 3 {
				for x := r.x + 2; x < r.x+r.w-2; x += 3 {
					set(x, y, false)
				}
			}
		}
		viewers = append(viewers, centre(r.x+r.w/2, r.y+r.h/2+1))
	}
	// The wobble of a grid corner, the same for every wall that meets it.
	corner := func(x, y int) (float64, float64) {
		hash := uint64(x)*0x9e3779b97f4a7c15 ^ uint64(y)*0xc2b2ae3d27d4eb4f ^ seed
		hash ^= hash >> 29
		hash *= 0xbf58476d1ce4e5b9
		hash ^= hash >> 32
		jx := float64(hash&0xffff)/0xffff*2 - 1
		jy := float64(hash>>16&0xffff)/0xffff*2 - 1
		return float64(x)*dungeonCell + jx*dungeonWobble, float64(y)*dungeonCell + jy*dungeonWobble
	}
	edge := func(x0, y0, x1, y1 int) [4]float64 {
		ax, ay := corner(x0, y0)
		bx, by := corner(x1, y1)
		return [4]float64{ax, ay, bx, by}
	}
	var segs [][4]float64
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if !at(x, y) {
				continue
			}
			if !at(x, y-1) {
				segs = append(segs, edge(x, y, x+1, y))
			}
			if !at(x+1, y) {
				segs = append(segs, edge(x+1, y, x+1, y+1))
			}
			if !at(x, y+1) {
				segs = append(segs, edge(x+1, y+1, x, y+1))
			}
			if !at(x-1, y) {
				segs = append(segs, edge(x, y+1, x, y))
			}
		}
	}
	for _, d := range doors {
		x0, y0, x1, y1 := d[0], d[1], d[2], d[3]
		switch {
		case x1 > x0:
			segs = append(segs, edge(x1, y0, x1, y0+1))
		case x1 < x0:
			segs = append(segs, edge(x0, y0, x0, y0+1))
		case y1 > y0:
			segs = append(segs, edge(x0, y1, x0+1, y1))
		default:
			segs = append(segs, edge(x0, y0, x0+1, y0))
		}
		viewers = append(viewers, centre(x0, y0))
	}
	// Round pillars at grid corners in a few rooms.
	for i, r := range rooms {
		if i%4 != 1 || r.w < 6 || r.h < 5 {
			continue
		}
		for _, c := range [][2]int{{r.x + 2, r.y + 2}, {r.x + r.w - 2, r.y + r.h - 2}} {
			cx, cy := float64(c[0])*dungeonCell, float64(c[1])*dungeonCell
			for k := 0; k < 8; k++ {
				a0, a1 := float64(k)*math.Pi/4, float64(k+1)*math.Pi/4
				segs = append(segs, [4]float64{
					cx + dungeonPillarR*math.Cos(a0), cy + dungeonPillarR*math.Sin(a0),
					cx + dungeonPillarR*math.Cos(a1), cy + dungeonPillarR*math.Sin(a1),
				})
			}
		}
	}
	return generatedDungeon{
		segments: segs,
		box:      [4]float64{0, 0, float64(w) * dungeonCell, float64(h) * dungeonCell},
		viewers:  viewers,
	}
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
