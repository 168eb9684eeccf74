package engine

import (
	"math"
	"strings"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/core"
)

// previewOf computes the preview of m's grid as it stands.
func previewOf(m *core.Map) *mapobjects.GridPreview {
	p := &mapobjects.GridPreview{MapID: m.ID, Name: m.Name, GridPending: m.GridPending,
		Media: mapobjects.GridMedia{Kind: "none", Width: m.Width, Height: m.Height},
		Grid: mapobjects.GridView{Size: m.GridSize, OffsetX: m.GridOffsetX, OffsetY: m.GridOffsetY, Type: m.GridType,
			Scale: m.GridScale, Units: m.GridUnits, Visible: m.GridVisible, Color: m.GridColor,
			Opacity: m.GridOpacity, Style: m.GridStyle}}
	switch {
	case m.Video != "":
		p.Media.Kind, p.Media.URL = "video", m.Video
	case m.Image != "":
		p.Media.Kind, p.Media.URL = "image", m.Image
	}
	s := float64(m.GridSize)
	if s < mapobjects.MinGridSize {
		s = 70 // what the player client draws for a size it cannot use
	}
	w, h := float64(m.Width), float64(m.Height)
	p.Cells = mapobjects.GridCells{Across: round2(w / s), Down: round2(h / s)}
	if w <= 0 || h <= 0 {
		return p
	}
	switch m.GridType {
	case "hexFlat", "hexPointy":
		p.Hex = hexLattice(m.GridType, s, float64(m.GridOffsetX), float64(m.GridOffsetY), w, h)
	default:
		// Any other type is drawn square by the player client.
		p.Lines = &mapobjects.GridLines{X: gridLines(s, float64(m.GridOffsetX), w), Y: gridLines(s, float64(m.GridOffsetY), h)}
	}
	return p
}

// gridLines are the positions offset + k*size in [0, limit).
func gridLines(size, offset, limit float64) []float64 {
	first := math.Mod(math.Mod(offset, size)+size, size)
	out := make([]float64, 0, int(limit/size)+1)
	for v := first; v < limit; v += size {
		out = append(out, round2(v))
	}
	return out
}

// hexLattice lays hexes whose neighbours' centres are size apart (across
// the flats) over a w x h map, one hex centred on (ox, oy), starting above
// and left of the map so that its edges are covered.
func hexLattice(kind string, size, ox, oy, w, h float64) *mapobjects.HexLattice {
	r := size / math.Sqrt(3)
	// Not rounded: the console multiplies these by hundreds of cells.
	l := &mapobjects.HexLattice{Radius: r}
	start := 30.0 // pointy: a corner at the top
	across, down := size, r*1.5
	l.ShiftOdd, l.Shift = "rows", mapobjects.GridPoint{X: size / 2}
	if kind == "hexFlat" {
		start = 0
		across, down = r*1.5, size
		l.ShiftOdd, l.Shift = "columns", mapobjects.GridPoint{Y: size / 2}
	}
	l.Orientation = strings.ToLower(strings.TrimPrefix(kind, "hex"))
	for i := 0; i < 6; i++ {
		a := (start + 60*float64(i)) * math.Pi / 180
		l.Corners = append(l.Corners, r*math.Cos(a), r*math.Sin(a))
	}
	// The first column and row of centres: one step before the map's
	// edge, on an even index of the lattice so that the odd ones shift.
	i0 := evenFloor(-ox/across) - 2
	j0 := math.Floor(-oy/down) - 1
	if kind == "hexPointy" {
		i0, j0 = math.Floor(-ox/across)-1, evenFloor(-oy/down)-2
	}
	l.Origin = mapobjects.GridPoint{X: ox + i0*across, Y: oy + j0*down}
	l.Step = mapobjects.GridPoint{X: across, Y: down}
	l.Columns = int(math.Ceil((w-l.Origin.X)/across)) + 1
	l.Rows = int(math.Ceil((h-l.Origin.Y)/down)) + 1
	return l
}

// evenFloor is the greatest even integer not above v.
func evenFloor(v float64) float64 { return 2 * math.Floor(v/2) }

// round2 rounds v to hundredths.
func round2(v float64) float64 { return math.Round(v*100) / 100 }
