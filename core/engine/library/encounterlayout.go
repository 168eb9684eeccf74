package library

import (
	"math"
	"sort"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// cellLayout places creatures on a map's grid: each takes a free cell
// (a slot of the grid's size, or of the largest creature's footprint),
// nearest the point first.
type cellLayout struct {
	size          float64 // the slot's side in pixels
	offX, offY    float64 // the grid's origin
	width, height float64 // the map's size; 0 when unknown (no bound)
	taken         map[[2]int]bool
}

func newCellLayout(m *core.Map, cells float64) *cellLayout {
	grid := float64(m.GridSize)
	if grid <= 0 {
		grid = 70
	}
	l := &cellLayout{size: grid * math.Max(1, math.Ceil(cells)), offX: float64(m.GridOffsetX), offY: float64(m.GridOffsetY),
		width: float64(m.Width), height: float64(m.Height), taken: map[[2]int]bool{}}
	for _, t := range m.Tokens {
		l.take(t.X, t.Y)
	}
	return l
}

// slot is the slot a point falls in.
func (l *cellLayout) slot(x, y float64) [2]int {
	return [2]int{int(math.Floor((x - l.offX) / l.size)), int(math.Floor((y - l.offY) / l.size))}
}

// take marks the slot of a point as used.
func (l *cellLayout) take(x, y float64) { l.taken[l.slot(x, y)] = true }

// centre is a slot's centre.
func (l *cellLayout) centre(s [2]int) (float64, float64) {
	return l.offX + (float64(s[0])+0.5)*l.size, l.offY + (float64(s[1])+0.5)*l.size
}

func (l *cellLayout) inside(s [2]int) bool {
	x, y := l.centre(s)
	if x < 0 || y < 0 {
		return false
	}
	return (l.width <= 0 || x <= l.width) && (l.height <= 0 || y <= l.height)
}

// near returns the centre of the free slot nearest the point, and takes
// it. Past every slot of the map (a crowded one), the point itself.
func (l *cellLayout) near(x, y float64) (float64, float64) {
	origin := l.slot(x, y)
	for ring := 0; ring < 64; ring++ {
		var ringSlots [][2]int
		for dx := -ring; dx <= ring; dx++ {
			for dy := -ring; dy <= ring; dy++ {
				if max(kernel.Abs(dx), kernel.Abs(dy)) != ring {
					continue
				}
				s := [2]int{origin[0] + dx, origin[1] + dy}
				if !l.taken[s] && l.inside(s) {
					ringSlots = append(ringSlots, s)
				}
			}
		}
		if len(ringSlots) == 0 {
			continue
		}
		// The nearest of the ring to the point, in a fixed order on ties.
		sort.SliceStable(ringSlots, func(i, j int) bool {
			xi, yi := l.centre(ringSlots[i])
			xj, yj := l.centre(ringSlots[j])
			return math.Hypot(xi-x, yi-y) < math.Hypot(xj-x, yj-y)
		})
		l.taken[ringSlots[0]] = true
		return l.centre(ringSlots[0])
	}
	return x, y
}
