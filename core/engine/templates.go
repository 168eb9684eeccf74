package engine

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/core"
)

// Measure answers a MeasureRequest by the system's rules. Players measure
// only on the map they look at (player is the asking player, nil for the
// game master).
func (s *Service) Measure(ctx context.Context, req mapobjects.MeasureRequest, player *core.Actor) (*mapobjects.Measured, error) {
	if (req.AreaEffect == nil) == (req.Path == nil) {
		return nil, core.Invalidf("measure: send either 'areaEffect' (a template) or 'path' (a flat list of points)")
	}
	ps := s.pin()
	var m *core.Map
	err := s.store.View(ctx, func(tx core.Tx) error {
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
				return core.NotFoundf("map '%s' is not on the player screen", core.Clip(req.MapID))
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
func cellSize(m *core.Map) float64 {
	if m.GridSize > 0 {
		return float64(m.GridSize)
	}
	return 70
}

// gridScale is the map's units per cell (5 ft when unset).
func gridScale(m *core.Map) (float64, string) {
	scale, units := m.GridScale, m.GridUnits
	if scale <= 0 {
		scale = 5
	}
	if units == "" {
		units = "ft"
	}
	return scale, units
}

func (s pinned) measurePath(ctx context.Context, m *core.Map, path []float64) (*mapobjects.Measured, error) {
	k, _ := mapobjects.MapKindOf("measurements")
	if len(path) < 4 || len(path)%2 != 0 || len(path) > 2*mapobjects.MaxPathPoints {
		return nil, core.Invalidf("measure: 'path' is a flat list of 2 to %d points [x1, y1, x2, y2, …]", mapobjects.MaxPathPoints)
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
	return &mapobjects.Measured{Distance: d, Units: units, Text: distanceText(d, units)}, nil
}

// pathDistance is the system's distance of a path of cells, or the
// straight-line one; on a hex grid the hex steps.
func (s pinned) pathDistance(ctx context.Context, m *core.Map, cells []float64, scale float64) (float64, error) {
	if isHexGrid(m.GridType) {
		return hexPathCells(m.GridType, cells) * scale, nil
	}
	if g, ok := s.rules.(mapobjects.GridRules); ok {
		d, handled, err := g.PathDistance(ctx, cells, scale)
		if err != nil {
			return 0, err
		}
		if handled {
			if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
				return 0, core.Internal(fmt.Errorf("the system's grid distance returned %v, not a distance", d))
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

func (s pinned) measureTemplate(ctx context.Context, m *core.Map, o core.Object) (*mapobjects.Measured, error) {
	k, _ := mapobjects.MapKindOf("areaEffects")
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
	out := &mapobjects.Measured{Distance: size * scale, Units: units, Text: distanceText(size*scale, units)}
	for _, n := range []float64{t.Radius, t.Length, t.Width} {
		if n > mapobjects.MaxTemplateCells {
			return nil, core.Invalidf("a template reaches at most %d squares (%s)", mapobjects.MaxTemplateCells, distanceText(mapobjects.MaxTemplateCells*scale, units))
		}
	}
	if isHexGrid(m.GridType) {
		out.Squares = mapobjects.HexCells(m.GridType, t)
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
func templateInCells(m *core.Map, o core.Object) mapobjects.Template {
	size := cellSize(m)
	num := func(key string) float64 { f, _ := o[key].(float64); return f }
	shape, _ := o["shape"].(string)
	return mapobjects.Template{Shape: shape,
		X: (num("x") - float64(m.GridOffsetX)) / size, Y: (num("y") - float64(m.GridOffsetY)) / size,
		Radius: num("radius") / size, Length: num("length") / size, Width: num("width") / size, Angle: num("angle")}
}

// templateSquares asks the system's hook, else the plain geometry, and
// checks what the hook answers: cells near the template, not too many.
func (s pinned) templateSquares(ctx context.Context, t mapobjects.Template) ([]int, error) {
	if g, ok := s.rules.(mapobjects.GridRules); ok {
		cells, handled, err := g.TemplateSquares(ctx, t)
		if err != nil {
			return nil, err
		}
		if handled {
			return checkSquares(t, cells)
		}
	}
	return mapobjects.GeometricSquares(t), nil
}

// checkSquares refuses a hook's answer that lists cells far from the
// template (a bug in the script, not a rule).
func checkSquares(t mapobjects.Template, cells []int) ([]int, error) {
	if len(cells)%2 != 0 {
		return nil, core.Internal(fmt.Errorf("the system's template squares are a flat list of column, row pairs; it returned %d numbers", len(cells)))
	}
	x0, y0, x1, y1 := mapobjects.TemplateBounds(t)
	for i := 0; i < len(cells); i += 2 {
		c, r := float64(cells[i]), float64(cells[i+1])
		if c < x0-2 || c > x1+2 || r < y0-2 || r > y1+2 {
			return nil, core.Internal(fmt.Errorf("the system's template squares include (%d, %d), far outside the %s", cells[i], cells[i+1], t.Shape))
		}
	}
	return cells, nil
}
