package engine

import (
	"math"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/core"
)

// checkCommon is what every object must be: a string id, a hidden flag
// that is a boolean, coordinates that are finite numbers within
// MaxMapCoordinate, and at most MaxMapObjectBytes.
func checkCommon(k *mapobjects.MapKind, o core.Object) error {
	id, ok := o["id"].(string)
	if !ok || id == "" {
		return core.Invalidf("a %s needs an 'id' that is a string", k.Noun)
	}
	if len(id) > core.MaxTrackedField {
		return core.TooLarge(k.Noun+": 'id'", len(id), core.MaxTrackedField)
	}
	if v, ok := o["hidden"]; ok {
		if _, isBool := v.(bool); !isBool {
			return core.Invalidf("%s '%s': 'hidden' must be true or false", k.Noun, core.Clip(id))
		}
	}
	for _, key := range []string{"x", "y", "width", "height", "radius", "length"} {
		if v, ok := o[key]; ok {
			if _, err := coordinate(k, id, key, v); err != nil {
				return err
			}
		}
	}
	if v, ok := o["data"]; ok {
		if _, err := points(k, id, v); err != nil {
			return err
		}
	}
	if n := encodedAtLeast(o, mapobjects.MaxMapObjectBytes); n > mapobjects.MaxMapObjectBytes {
		return core.TooLargef("%s '%s' is more than %s, the limit of one stored object", k.Noun, core.Clip(id), core.ByteSize(mapobjects.MaxMapObjectBytes))
	}
	return k.Check(o)
}

// coordinate reads a number within ±MaxMapCoordinate.
func coordinate(k *mapobjects.MapKind, id, key string, v any) (float64, error) {
	f, ok := v.(float64)
	if !ok {
		return 0, core.Invalidf("%s '%s': '%s' must be a number", k.Noun, core.Clip(id), key)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > mapobjects.MaxMapCoordinate {
		return 0, core.Invalidf("%s '%s': '%s' must be a number from -%d to %d map pixels", k.Noun, core.Clip(id), key, mapobjects.MaxMapCoordinate, mapobjects.MaxMapCoordinate)
	}
	return f, nil
}

// points reads a flat [x1, y1, x2, y2, …] list of coordinates.
func points(k *mapobjects.MapKind, id string, v any) ([]float64, error) {
	list, ok := v.([]any)
	if !ok || len(list)%2 != 0 {
		return nil, core.Invalidf("%s '%s': 'data' must be a flat list of points [x1, y1, x2, y2, …]", k.Noun, core.Clip(id))
	}
	out := make([]float64, len(list))
	for i, n := range list {
		f, err := coordinate(k, id, "data", n)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}
