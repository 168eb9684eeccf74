package play

import (
	"context"
	"fmt"
	"math"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
)

// Measure answers a MeasureRequest by the system's rules. Players measure
// only on the map they look at (player is the asking player, nil for the
// game master).
func (s *PlayRoom) Measure(ctx context.Context, req mapobjects.MeasureRequest, player *core.Actor) (*mapobjects.Measured, error) {
	if (req.AreaEffect == nil) == (req.Path == nil) {
		return nil, core.Invalidf("measure: send either 'areaEffect' (a template) or 'path' (a flat list of points)")
	}
	ps := s.pin()
	var m *core.Map
	err := s.Store.View(ctx, func(tx core.Tx) error {
		var err error
		if m, err = kernel.MapByID(tx, req.MapID); err != nil {
			return err
		}
		if player != nil {
			vm, err := ps.ViewerMapIn(tx, player.Seat)
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

func (s playPinned) measurePath(ctx context.Context, m *core.Map, path []float64) (*mapobjects.Measured, error) {
	k, _ := mapobjects.MapKindOf("measurements")
	if len(path) < 4 || len(path)%2 != 0 || len(path) > 2*mapobjects.MaxPathPoints {
		return nil, core.Invalidf("measure: 'path' is a flat list of 2 to %d points [x1, y1, x2, y2, …]", mapobjects.MaxPathPoints)
	}
	cells := make([]float64, len(path))
	size := mapobjects.CellSize(m)
	for i, v := range path {
		if _, err := mapobjects.Coordinate(k, "path", "path", v); err != nil {
			return nil, err
		}
		off := float64(m.GridOffsetX)
		if i%2 == 1 {
			off = float64(m.GridOffsetY)
		}
		cells[i] = (v - off) / size
	}
	scale, units := mapobjects.GridScale(m)
	d, err := s.pathDistance(ctx, m, cells, scale)
	if err != nil {
		return nil, err
	}
	return &mapobjects.Measured{Distance: d, Units: units, Text: mapobjects.DistanceText(d, units)}, nil
}

// pathDistance is the system's distance of a path of cells, or the
// straight-line one; on a hex grid the hex steps.
func (s playPinned) pathDistance(ctx context.Context, m *core.Map, cells []float64, scale float64) (float64, error) {
	if isHexGrid(m.GridType) {
		return HexPathCells(m.GridType, cells) * scale, nil
	}
	if g, ok := s.Rules.(mapobjects.GridRules); ok {
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

func (s playPinned) measureTemplate(ctx context.Context, m *core.Map, o core.Object) (*mapobjects.Measured, error) {
	k, _ := mapobjects.MapKindOf("areaEffects")
	probe, err := kernel.CopyObject(o)
	if err != nil {
		return nil, err
	}
	if _, ok := probe["id"]; !ok {
		probe["id"] = "measure"
	}
	if err := kernel.CheckCommon(k, probe); err != nil {
		return nil, err
	}
	t := mapobjects.TemplateInCells(m, probe)
	scale, units := mapobjects.GridScale(m)
	size := t.Radius
	if size == 0 {
		size = t.Length
	}
	out := &mapobjects.Measured{Distance: size * scale, Units: units, Text: mapobjects.DistanceText(size*scale, units)}
	for _, n := range []float64{t.Radius, t.Length, t.Width} {
		if n > mapobjects.MaxTemplateCells {
			return nil, core.Invalidf("a template reaches at most %d squares (%s)", mapobjects.MaxTemplateCells, mapobjects.DistanceText(mapobjects.MaxTemplateCells*scale, units))
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

// templateSquares asks the system's hook, else the plain geometry, and
// checks what the hook answers: cells near the template, not too many.
func (s playPinned) templateSquares(ctx context.Context, t mapobjects.Template) ([]int, error) {
	if g, ok := s.Rules.(mapobjects.GridRules); ok {
		cells, handled, err := g.TemplateSquares(ctx, t)
		if err != nil {
			return nil, err
		}
		if handled {
			return mapobjects.CheckSquares(t, cells)
		}
	}
	return mapobjects.GeometricSquares(t), nil
}
