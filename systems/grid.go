package systems

import (
	"context"
	"fmt"
	"math"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/scripting"
)

// maxTemplateSquares bounds what a grid hook may answer: the squares of
// the largest template core allows, and some.
const maxTemplateSquares = 4 * (2*mapobjects.MaxTemplateCells + 4) * (2*mapobjects.MaxTemplateCells + 4)

// TemplateSquares runs the system's companion.grid squares function
// (core.GridRules): handled is false when the system has none. The
// function gets the template in grid cells and returns the cells it
// covers as a list of {column, row} pairs.
func (s *System) TemplateSquares(ctx context.Context, t mapobjects.Template) ([]int, bool, error) {
	if !s.rt.HasFunc(scripting.GridHooks, "squares") {
		return nil, false, nil
	}
	v, err := s.rt.Call(ctx, scripting.GridHooks, "squares", map[string]any{
		"shape": t.Shape, "x": t.X, "y": t.Y, "radius": t.Radius, "length": t.Length, "width": t.Width, "angle": t.Angle})
	if err != nil {
		return nil, true, scriptFailure(err)
	}
	list, ok := v.([]any)
	if !ok && v != nil {
		if m, isMap := v.(map[string]any); !isMap || len(m) != 0 {
			return nil, true, s.gridHookError("squares", "returned %T; it must return a list of {column, row} pairs", v)
		}
	}
	if len(list) > maxTemplateSquares {
		return nil, true, s.gridHookError("squares", "returned %d squares, more than %d", len(list), maxTemplateSquares)
	}
	out := make([]int, 0, 2*len(list))
	for _, item := range list {
		pair, ok := item.([]any)
		if !ok || len(pair) != 2 {
			return nil, true, s.gridHookError("squares", "returned %v in its list; each square is a {column, row} pair", item)
		}
		for _, n := range pair {
			f, ok := luaNumber(n)
			if !ok || f != math.Trunc(f) || math.Abs(f) > 1e7 {
				return nil, true, s.gridHookError("squares", "returned %v in a square; columns and rows are whole numbers", n)
			}
			out = append(out, int(f))
		}
	}
	return out, true, nil
}

// PathDistance runs the system's companion.grid distance function: it
// gets {path = {x1, y1, x2, y2, …} in cells, scale = units per cell} and
// returns the distance in the map's units.
func (s *System) PathDistance(ctx context.Context, path []float64, scale float64) (float64, bool, error) {
	if !s.rt.HasFunc(scripting.GridHooks, "distance") {
		return 0, false, nil
	}
	points := make([]any, len(path))
	for i, p := range path {
		points[i] = p
	}
	v, err := s.rt.Call(ctx, scripting.GridHooks, "distance", map[string]any{"path": points, "scale": scale})
	if err != nil {
		return 0, true, scriptFailure(err)
	}
	d, ok := luaNumber(v)
	if !ok || math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
		return 0, true, s.gridHookError("distance", "returned %v; it must return a distance, a number not below zero", v)
	}
	return d, true, nil
}

// luaNumber reads a number a script returned (an integer arrives as
// int64, anything else as float64).
func luaNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// gridHookError is a script failure located at the grid function.
func (s *System) gridHookError(field, format string, args ...any) error {
	file, line := s.rt.FuncPos(scripting.GridHooks, field)
	return scriptFailure(&scripting.ScriptError{Problem: scripting.Problem{File: file, Line: line,
		Message: fmt.Sprintf("the grid's %s function ", field) + fmt.Sprintf(format, args...)}})
}

// TemplateSquares forwards to the current system (core.GridRules).
func (h *Holder) TemplateSquares(ctx context.Context, t mapobjects.Template) ([]int, bool, error) {
	return h.Current().TemplateSquares(ctx, t)
}

// PathDistance forwards to the current system (core.GridRules).
func (h *Holder) PathDistance(ctx context.Context, path []float64, scale float64) (float64, bool, error) {
	return h.Current().PathDistance(ctx, path, scale)
}

var _ mapobjects.GridRules = (*Holder)(nil)
