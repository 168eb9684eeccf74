package mapobjects

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/vttapp/companion/core"
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
	MapID      string      `json:"mapId"`
	AreaEffect core.Object `json:"areaEffect,omitempty"`
	Path       []float64   `json:"path,omitempty"`
}

// TemplateBounds is the box around a template's shape, in cells.
func TemplateBounds(t Template) (x0, y0, x1, y1 float64) {
	reach := math.Max(t.Radius, math.Hypot(t.Length, t.Width))
	if t.Shape == "square" {
		reach = t.Length * math.Sqrt2
	}
	return t.X - reach, t.Y - reach, t.X + reach, t.Y + reach
}

// GeometricSquares is the rule of a system without a grid hook: a cell is
// covered when its centre is inside the shape.
func GeometricSquares(t Template) []int {
	x0, y0, x1, y1 := TemplateBounds(t)
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

// CellSize is the map's pixels per cell.
func CellSize(m *core.Map) float64 {
	if m.GridSize > 0 {
		return float64(m.GridSize)
	}
	return 70
}

// GridScale is the map's units per cell (5 ft when unset).
func GridScale(m *core.Map) (float64, string) {
	scale, units := m.GridScale, m.GridUnits
	if scale <= 0 {
		scale = 5
	}
	if units == "" {
		units = "ft"
	}
	return scale, units
}

// DistanceText writes a distance for people: "30 ft", "7.5 m".
func DistanceText(d float64, units string) string {
	return strconv.FormatFloat(math.Round(d*10)/10, 'f', -1, 64) + " " + units
}

// TemplateInCells is an area effect of m in grid cells.
func TemplateInCells(m *core.Map, o core.Object) Template {
	size := CellSize(m)
	num := func(key string) float64 { f, _ := o[key].(float64); return f }
	shape, _ := o["shape"].(string)
	return Template{Shape: shape,
		X: (num("x") - float64(m.GridOffsetX)) / size, Y: (num("y") - float64(m.GridOffsetY)) / size,
		Radius: num("radius") / size, Length: num("length") / size, Width: num("width") / size, Angle: num("angle")}
}

// CheckSquares refuses a hook's answer that lists cells far from the
// template (a bug in the script, not a rule).
func CheckSquares(t Template, cells []int) ([]int, error) {
	if len(cells)%2 != 0 {
		return nil, core.Internal(fmt.Errorf("the system's template squares are a flat list of column, row pairs; it returned %d numbers", len(cells)))
	}
	x0, y0, x1, y1 := TemplateBounds(t)
	for i := 0; i < len(cells); i += 2 {
		c, r := float64(cells[i]), float64(cells[i+1])
		if c < x0-2 || c > x1+2 || r < y0-2 || r > y1+2 {
			return nil, core.Internal(fmt.Errorf("the system's template squares include (%d, %d), far outside the %s", cells[i], cells[i+1], t.Shape))
		}
	}
	return cells, nil
}
