package mapobjects

import (
	"math"
	"strings"

	"github.com/vttapp/companion/core"
)

// A map made from an image or a video arrives without a grid that fits
// it: its pixels are known (the file's header), its cells are not. Such a
// map is GridPending and stays off the player screen until the game master
// sets its grid (Service.SetGrid), looking at a preview of the grid over
// the image (Service.GridPreview) that the host console draws.

// GridChange is what the game master sets of a map's grid. GridSize is
// required; a field left out keeps the map's value.
type GridChange struct {
	Size    *int     `json:"gridSize"`
	OffsetX *int     `json:"gridOffsetX"`
	OffsetY *int     `json:"gridOffsetY"`
	Type    *string  `json:"gridType"`
	Scale   *float64 `json:"gridScale"`
	Units   *string  `json:"gridUnits"`
	Visible *bool    `json:"gridVisible"`
}

// Bounds of a grid the game master sets.
const (
	MinGridSize   = 4    // pixels per cell: the player client draws nothing finer
	MaxGridSize   = 1000 // as a new map's gridSize
	maxGridOffset = core.MaxMapSide
	maxGridScale  = 10000
	maxGridUnits  = 16
)

// GridTypes a grid may be set to: the contract's Map.gridType values, the
// ones the player client draws.
var GridTypes = []string{"square", "hexFlat", "hexPointy"}

// Apply checks the change and applies it to m; m is unchanged on error.
func (g GridChange) Apply(m *core.Map) error {
	if g.Size == nil {
		return core.Invalidf("'gridSize' is required: the pixels of one grid cell, %d to %d", MinGridSize, MaxGridSize)
	}
	if *g.Size < MinGridSize || *g.Size > MaxGridSize {
		return core.Invalidf("'gridSize' is the pixels of one grid cell, %d to %d, not %d", MinGridSize, MaxGridSize, *g.Size)
	}
	for name, v := range map[string]*int{"gridOffsetX": g.OffsetX, "gridOffsetY": g.OffsetY} {
		if v != nil && (*v < -maxGridOffset || *v > maxGridOffset) {
			return core.Invalidf("'%s' is a shift in pixels between %d and %d, not %d", name, -maxGridOffset, maxGridOffset, *v)
		}
	}
	if g.Type != nil && !isGridType(*g.Type) {
		return core.Invalidf("'gridType' must be %s, not '%s'", strings.Join(GridTypes, ", "), core.Clip(*g.Type))
	}
	if g.Scale != nil && (math.IsNaN(*g.Scale) || *g.Scale <= 0 || *g.Scale > maxGridScale) {
		return core.Invalidf("'gridScale' is the distance one cell stands for, more than 0 and at most %d", maxGridScale)
	}
	var units string
	if g.Units != nil {
		units = strings.TrimSpace(*g.Units)
		if units == "" || len(units) > maxGridUnits {
			return core.Invalidf("'gridUnits' is a unit of distance such as ft or m, 1 to %d characters", maxGridUnits)
		}
	}
	m.GridSize = *g.Size
	if g.OffsetX != nil {
		m.GridOffsetX = *g.OffsetX
	}
	if g.OffsetY != nil {
		m.GridOffsetY = *g.OffsetY
	}
	if g.Type != nil {
		m.GridType = *g.Type
	}
	if g.Scale != nil {
		m.GridScale = *g.Scale
	}
	if g.Units != nil {
		m.GridUnits = units
	}
	if g.Visible != nil {
		m.GridVisible = *g.Visible
	}
	return nil
}

func isGridType(t string) bool {
	for _, v := range GridTypes {
		if t == v {
			return true
		}
	}
	return false
}

// GridPreview is what the host console needs to draw a grid over a map's
// background before it goes on screen: the background, the grid's
// settings, and the grid's geometry in map pixels, computed as the player
// client draws it (web/client/src/map/grid.ts), so the preview is what
// players will see.
type GridPreview struct {
	MapID string `json:"mapId"`
	Name  string `json:"name"`
	// GridPending is true until the game master has set the grid.
	GridPending bool      `json:"gridPending"`
	Media       GridMedia `json:"media"`
	Grid        GridView  `json:"grid"`
	// Cells is how many cells the map spans across and down (fractions
	// of a cell included), to show beside the preview.
	Cells GridCells `json:"cells"`
	// Square grids: the lines to draw. Hex grids: the lattice of centres
	// and the hex to draw at each.
	Lines *GridLines  `json:"lines,omitempty"`
	Hex   *HexLattice `json:"hex,omitempty"`
}

// GridMedia is a map's background as the preview shows it.
type GridMedia struct {
	Kind   string `json:"kind"` // "image", "video" or "none"
	URL    string `json:"url,omitempty"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// GridView is a map's grid settings, all of them.
type GridView struct {
	Size    int     `json:"gridSize"`
	OffsetX int     `json:"gridOffsetX"`
	OffsetY int     `json:"gridOffsetY"`
	Type    string  `json:"gridType"`
	Scale   float64 `json:"gridScale"`
	Units   string  `json:"gridUnits"`
	Visible bool    `json:"gridVisible"`
	Color   string  `json:"gridColor"`
	Opacity float64 `json:"gridOpacity"`
	Style   string  `json:"gridStyle"`
}

// GridCells counts cells across and down.
type GridCells struct {
	Across float64 `json:"across"`
	Down   float64 `json:"down"`
}

// GridLines are a square grid's lines: x of each vertical line and y of
// each horizontal one, from 0 (included) to the map's width or height
// (excluded), as the player client draws them.
type GridLines struct {
	X []float64 `json:"x"`
	Y []float64 `json:"y"`
}

// HexLattice places hexes: the centre of column i, row j is
// origin + (i*step.x, j*step.y), plus shift on odd columns (flat-topped
// hexes) or odd rows (pointy-topped), for i < columns and j < rows, which
// covers the map. Corners are the six corners of a hex around its centre
// (x, y pairs to add to the centre).
type HexLattice struct {
	Orientation string    `json:"orientation"` // "flat" or "pointy"
	Radius      float64   `json:"radius"`      // centre to corner
	Corners     []float64 `json:"corners"`
	Origin      GridPoint `json:"origin"`
	Step        GridPoint `json:"step"`
	Shift       GridPoint `json:"shift"`
	ShiftOdd    string    `json:"shiftOdd"` // "columns" or "rows"
	Columns     int       `json:"columns"`
	Rows        int       `json:"rows"`
}

// GridPoint is a point or vector in map pixels.
type GridPoint struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// PreviewOf computes the preview of m's grid as it stands.
func PreviewOf(m *core.Map) *GridPreview {
	p := &GridPreview{MapID: m.ID, Name: m.Name, GridPending: m.GridPending,
		Media: GridMedia{Kind: "none", Width: m.Width, Height: m.Height},
		Grid: GridView{Size: m.GridSize, OffsetX: m.GridOffsetX, OffsetY: m.GridOffsetY, Type: m.GridType,
			Scale: m.GridScale, Units: m.GridUnits, Visible: m.GridVisible, Color: m.GridColor,
			Opacity: m.GridOpacity, Style: m.GridStyle}}
	switch {
	case m.Video != "":
		p.Media.Kind, p.Media.URL = "video", m.Video
	case m.Image != "":
		p.Media.Kind, p.Media.URL = "image", m.Image
	}
	s := float64(m.GridSize)
	if s < MinGridSize {
		s = 70 // what the player client draws for a size it cannot use
	}
	w, h := float64(m.Width), float64(m.Height)
	p.Cells = GridCells{Across: round2(w / s), Down: round2(h / s)}
	if w <= 0 || h <= 0 {
		return p
	}
	switch m.GridType {
	case "hexFlat", "hexPointy":
		p.Hex = hexLattice(m.GridType, s, float64(m.GridOffsetX), float64(m.GridOffsetY), w, h)
	default:
		// Any other type is drawn square by the player client.
		p.Lines = &GridLines{X: gridLines(s, float64(m.GridOffsetX), w), Y: gridLines(s, float64(m.GridOffsetY), h)}
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
func hexLattice(kind string, size, ox, oy, w, h float64) *HexLattice {
	r := size / math.Sqrt(3)
	// Not rounded: the console multiplies these by hundreds of cells.
	l := &HexLattice{Radius: r}
	start := 30.0 // pointy: a corner at the top
	across, down := size, r*1.5
	l.ShiftOdd, l.Shift = "rows", GridPoint{X: size / 2}
	if kind == "hexFlat" {
		start = 0
		across, down = r*1.5, size
		l.ShiftOdd, l.Shift = "columns", GridPoint{Y: size / 2}
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
	l.Origin = GridPoint{X: ox + i0*across, Y: oy + j0*down}
	l.Step = GridPoint{X: across, Y: down}
	l.Columns = int(math.Ceil((w-l.Origin.X)/across)) + 1
	l.Rows = int(math.Ceil((h-l.Origin.Y)/down)) + 1
	return l
}

// evenFloor is the greatest even integer not above v.
func evenFloor(v float64) float64 { return 2 * math.Floor(v/2) }

// round2 rounds v to hundredths.
func round2(v float64) float64 { return math.Round(v*100) / 100 }
