package core

import (
	"context"
	"fmt"
	"math"
	"strconv"
)

// Templates and distances on the grid. Which squares an area template
// covers, and how far a path goes, are the game system's rules (its Lua
// companion.grid hook: D&D 5e counts a square a sphere covers at least half
// of, and a diagonal step as one square); a system without the hook gets
// the plain geometry below. Both work in grid cells: the origin of the
// grid (gridOffsetX/Y) is 0, one cell is 1, and a cell (c, r) spans
// c..c+1 by r..r+1. On a hex grid the cells are hexes, named and
// counted as hexcells.go says.

// Template is an area effect in grid cells, as the hook receives it.
type Template struct {
	Shape  string  `json:"shape"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Radius float64 `json:"radius"`
	Length float64 `json:"length"`
	Width  float64 `json:"width"`
	Angle  float64 `json:"angle"`
}

// GridRules is implemented by Rules whose system has the grid hook.
// Each returns handled false when the system declares no such function.
type GridRules interface {
	// TemplateSquares lists the cells t covers, flat: c1, r1, c2, r2, …
	TemplateSquares(ctx context.Context, t Template) (cells []int, handled bool, err error)
	// PathDistance is the length of a path of cells (flat x1, y1, …) in
	// the map's units, one cell being scale units.
	PathDistance(ctx context.Context, path []float64, scale float64) (distance float64, handled bool, err error)
}

// MaxTemplateCells bounds how far a template reaches, in cells (300 ft on
// D&D 5e's 5-ft squares): every square it covers goes to every client.
const MaxTemplateCells = 60

// Measured is the answer to a measure request: the squares a template
// covers, or the distance of a path with its text in the map's units.
type Measured struct {
	Squares  []int   `json:"squares,omitempty"`
	Distance float64 `json:"distance"`
	Units    string  `json:"units"`
	Text     string  `json:"text"`
}

// MeasureRequest asks what a template covers (areaEffect, as the map holds
// one, in map pixels) or how far a path goes (path, flat map pixels), on
// map mapId.
type MeasureRequest struct {
	MapID      string    `json:"mapId"`
	AreaEffect Object    `json:"areaEffect,omitempty"`
	Path       []float64 `json:"path,omitempty"`
}

// Measure answers a MeasureRequest by the system's rules. Players measure
// only on the map they look at (player is the asking player, nil for the
// game master).
func (s *Service) Measure(ctx context.Context, req MeasureRequest, player *Actor) (*Measured, error) {
	if (req.AreaEffect == nil) == (req.Path == nil) {
		return nil, Invalidf("measure: send either 'areaEffect' (a template) or 'path' (a flat list of points)")
	}
	ps := s.pin()
	var m *Map
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if m, err = mapByID(tx, req.MapID); err != nil {
			return err
		}
		if player != nil {
			vm, err := ps.viewerMapIn(tx, player.Seat)
			if err != nil {
				return err
			}
			if vm == "" || vm != req.MapID {
				return NotFoundf("map '%s' is not on the player screen", Clip(req.MapID))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if req.Path != nil {
		return ps.measurePath(ctx, m, req.Path)
	}
	return ps.measureTemplate(ctx, m, req.AreaEffect)
}

// cellSize is the map's pixels per cell.
func cellSize(m *Map) float64 {
	if m.GridSize > 0 {
		return float64(m.GridSize)
	}
	return 70
}

// gridScale is the map's units per cell (5 ft when unset).
func gridScale(m *Map) (float64, string) {
	scale, units := m.GridScale, m.GridUnits
	if scale <= 0 {
		scale = 5
	}
	if units == "" {
		units = "ft"
	}
	return scale, units
}

func (s pinned) measurePath(ctx context.Context, m *Map, path []float64) (*Measured, error) {
	k, _ := MapKindOf("measurements")
	if len(path) < 4 || len(path)%2 != 0 || len(path) > 2*MaxPathPoints {
		return nil, Invalidf("measure: 'path' is a flat list of 2 to %d points [x1, y1, x2, y2, …]", MaxPathPoints)
	}
	cells := make([]float64, len(path))
	size := cellSize(m)
	for i, v := range path {
		if _, err := coordinate(k, "path", "path", v); err != nil {
			return nil, err
		}
		off := float64(m.GridOffsetX)
		if i%2 == 1 {
			off = float64(m.GridOffsetY)
		}
		cells[i] = (v - off) / size
	}
	scale, units := gridScale(m)
	d, err := s.pathDistance(ctx, m, cells, scale)
	if err != nil {
		return nil, err
	}
	return &Measured{Distance: d, Units: units, Text: distanceText(d, units)}, nil
}

// pathDistance is the system's distance of a path of cells, or the
// straight-line one; on a hex grid the hex steps.
func (s pinned) pathDistance(ctx context.Context, m *Map, cells []float64, scale float64) (float64, error) {
	if isHexGrid(m.GridType) {
		return hexPathCells(m.GridType, cells) * scale, nil
	}
	if g, ok := s.rules.(GridRules); ok {
		d, handled, err := g.PathDistance(ctx, cells, scale)
		if err != nil {
			return 0, err
		}
		if handled {
			if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
				return 0, Internal(fmt.Errorf("the system's grid distance returned %v, not a distance", d))
			}
			return d, nil
		}
	}
	var d float64
	for i := 2; i+1 < len(cells); i += 2 {
		d += math.Hypot(cells[i]-cells[i-2], cells[i+1]-cells[i-1])
	}
	return d * scale, nil
}

// distanceText writes a distance for people: "30 ft", "7.5 m".
func distanceText(d float64, units string) string {
	return strconv.FormatFloat(math.Round(d*10)/10, 'f', -1, 64) + " " + units
}

func (s pinned) measureTemplate(ctx context.Context, m *Map, o Object) (*Measured, error) {
	k, _ := MapKindOf("areaEffects")
	probe, err := copyObject(o)
	if err != nil {
		return nil, err
	}
	if _, ok := probe["id"]; !ok {
		probe["id"] = "measure"
	}
	if err := checkCommon(k, probe); err != nil {
		return nil, err
	}
	t := templateInCells(m, probe)
	scale, units := gridScale(m)
	size := t.Radius
	if size == 0 {
		size = t.Length
	}
	out := &Measured{Distance: size * scale, Units: units, Text: distanceText(size*scale, units)}
	for _, n := range []float64{t.Radius, t.Length, t.Width} {
		if n > MaxTemplateCells {
			return nil, Invalidf("a template reaches at most %d squares (%s)", MaxTemplateCells, distanceText(MaxTemplateCells*scale, units))
		}
	}
	if isHexGrid(m.GridType) {
		out.Squares = HexCells(m.GridType, t)
		return out, nil
	}
	cells, err := s.templateSquares(ctx, t)
	if err != nil {
		return nil, err
	}
	out.Squares = cells
	return out, nil
}

// templateInCells is an area effect of m in grid cells.
func templateInCells(m *Map, o Object) Template {
	size := cellSize(m)
	num := func(key string) float64 { f, _ := o[key].(float64); return f }
	shape, _ := o["shape"].(string)
	return Template{Shape: shape,
		X: (num("x") - float64(m.GridOffsetX)) / size, Y: (num("y") - float64(m.GridOffsetY)) / size,
		Radius: num("radius") / size, Length: num("length") / size, Width: num("width") / size, Angle: num("angle")}
}

// templateSquares asks the system's hook, else the plain geometry, and
// checks what the hook answers: cells near the template, not too many.
func (s pinned) templateSquares(ctx context.Context, t Template) ([]int, error) {
	if g, ok := s.rules.(GridRules); ok {
		cells, handled, err := g.TemplateSquares(ctx, t)
		if err != nil {
			return nil, err
		}
		if handled {
			return checkSquares(t, cells)
		}
	}
	return GeometricSquares(t), nil
}

// checkSquares refuses a hook's answer that lists cells far from the
// template (a bug in the script, not a rule).
func checkSquares(t Template, cells []int) ([]int, error) {
	if len(cells)%2 != 0 {
		return nil, Internal(fmt.Errorf("the system's template squares are a flat list of column, row pairs; it returned %d numbers", len(cells)))
	}
	x0, y0, x1, y1 := templateBounds(t)
	for i := 0; i < len(cells); i += 2 {
		c, r := float64(cells[i]), float64(cells[i+1])
		if c < x0-2 || c > x1+2 || r < y0-2 || r > y1+2 {
			return nil, Internal(fmt.Errorf("the system's template squares include (%d, %d), far outside the %s", cells[i], cells[i+1], t.Shape))
		}
	}
	return cells, nil
}

// templateBounds is the box around a template's shape, in cells.
func templateBounds(t Template) (x0, y0, x1, y1 float64) {
	reach := math.Max(t.Radius, math.Hypot(t.Length, t.Width))
	if t.Shape == "square" {
		reach = t.Length * math.Sqrt2
	}
	return t.X - reach, t.Y - reach, t.X + reach, t.Y + reach
}

// GeometricSquares is the rule of a system without a grid hook: a cell is
// covered when its centre is inside the shape.
func GeometricSquares(t Template) []int {
	x0, y0, x1, y1 := templateBounds(t)
	var out []int
	for r := int(math.Floor(y0)); r <= int(math.Ceil(y1)); r++ {
		for c := int(math.Floor(x0)); c <= int(math.Ceil(x1)); c++ {
			if t.Contains(float64(c)+0.5, float64(r)+0.5) {
				out = append(out, c, r)
			}
		}
	}
	return out
}

// Contains reports whether the point (x, y), in cells, is inside the
// template's shape (AreaShapes says how each is measured).
func (t Template) Contains(x, y float64) bool {
	dx, dy := x-t.X, y-t.Y
	// along and across the aim
	cos, sin := math.Cos(t.Angle), math.Sin(t.Angle)
	u, v := dx*cos+dy*sin, -dx*sin+dy*cos
	switch t.Shape {
	case "sphere", "cylinder":
		return dx*dx+dy*dy <= t.Radius*t.Radius
	case "cone":
		// a sector whose width at any point is its distance from the
		// origin (an opening of 2·atan(1/2), about 53°), capped by the
		// arc of its length
		return u >= 0 && math.Abs(v) <= u/2 && u*u+v*v <= t.Length*t.Length
	case "line":
		return u >= 0 && u <= t.Length && math.Abs(v) <= t.Width/2
	case "cube":
		return u >= 0 && u <= t.Length && math.Abs(v) <= t.Length/2
	case "square":
		return math.Abs(u) <= t.Length && math.Abs(v) <= t.Length
	}
	return false
}
