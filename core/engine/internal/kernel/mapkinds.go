package kernel

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
)

// CheckCommon is what every object must be: a string id, a hidden flag
// that is a boolean, coordinates that are finite numbers within
// MaxMapCoordinate, and at most MaxMapObjectBytes.
func CheckCommon(k *mapobjects.MapKind, o core.Object) error {
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
			if _, err := mapobjects.Coordinate(k, id, key, v); err != nil {
				return err
			}
		}
	}
	if v, ok := o["data"]; ok {
		if _, err := mapobjects.Points(k, id, v); err != nil {
			return err
		}
	}
	if n := encodedAtLeast(o, mapobjects.MaxMapObjectBytes); n > mapobjects.MaxMapObjectBytes {
		return core.TooLargef("%s '%s' is more than %s, the limit of one stored object", k.Noun, core.Clip(id), core.ByteSize(mapobjects.MaxMapObjectBytes))
	}
	return k.Check(o)
}
