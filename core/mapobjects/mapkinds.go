package mapobjects

import (
	"encoding/json"
	"math"
	"strings"

	"github.com/vttapp/companion/core"
)

// The table of map object kinds: one row per field of the map shape that
// holds a list of objects beside the tokens (walls, lights, markers,
// drawings, area effects, measurements, tiles). One pipeline reads it
// (service_mapobjects.go): the host API GET/POST /host/api/maps/{mapId}/{kind}
// and PATCH/DELETE …/{kind}/{objectId} validate an object by its row, store
// it in the row's field of the map, leave out of the players' copy what its
// row hides (PlayerMap) and broadcast the row's event.
//
// A new kind is one row here: its field (as the map shape names it, also
// the {kind} of the API), a noun for messages, its event, whether it shapes
// line of sight, its accessors and what it checks. Nothing else in the
// pipeline names a kind.
var MapKinds = []MapKind{
	{Field: "walls", Noun: "wall", Sight: true, // no wallsUpdated in the contract: mapUpdated carries them
		List: typedList(func(m *core.Map) *[]core.Wall { return &m.Walls }), Check: checkWall,
		forPlayers: playerWalls},
	{Field: "lights", Noun: "light", Event: core.EventLightsUpdated, Sight: true,
		List: typedList(func(m *core.Map) *[]core.Light { return &m.Lights }), Check: checkLight,
		forPlayers: playersSeeEvery}, // a light has no hidden flag
	{Field: "markers", Noun: "marker", Event: core.EventMarkersUpdated, HiddenByDefault: true,
		Moved: core.EventMarkerMoved, PlayerModes: []string{core.InteractionAll},
		List: objectList(func(m *core.Map) *[]core.Object { return &m.Markers }), Check: checkMarker},
	{Field: "drawings", Noun: "drawing", Event: core.EventDrawingsUpdated,
		PlayerModes: []string{core.InteractionAll},
		List:        objectList(func(m *core.Map) *[]core.Object { return &m.Drawings }), Check: checkDrawing},
	{Field: "areaEffects", Noun: "area effect", Event: core.EventAreaEffectsUpdated,
		Moved: core.EventAreaEffectMoved, PlayerModes: []string{core.InteractionAll, core.InteractionToken},
		List: objectList(func(m *core.Map) *[]core.Object { return &m.AreaEffects }), Check: checkAreaEffect},
	{Field: "measurements", Noun: "measurement", Event: core.EventMeasurementsUpdated,
		Moved: core.EventMeasurementUpdated, PlayerModes: []string{core.InteractionAll, core.InteractionToken},
		List: objectList(func(m *core.Map) *[]core.Object { return &m.Measurements }), Check: checkPath},
	{Field: "tiles", Noun: "tile", Event: core.EventTilesUpdated,
		List: objectList(func(m *core.Map) *[]core.Object { return &m.Tiles }), Check: checkTile},
	{Field: "sounds", Noun: "sound", Event: core.EventSoundsUpdated, List: objectList(func(m *core.Map) *[]core.Object { return &m.Sounds }), Check: checkSound},
}

// MapKind is one row of MapKinds.
type MapKind struct {
	// Field is the map's field holding the objects, and the {kind} of the
	// host API.
	Field string
	// Noun names one object in messages.
	Noun string
	// Event is broadcast after a change with {"mapId", <Field>: the list};
	// empty when the contract names none (walls: mapUpdated carries them).
	Event string
	// Sight: the kind shapes line of sight, so mapUpdated and
	// lineOfSightUpdated follow a change (as after a door).
	Sight bool
	// HiddenByDefault: an object without a "hidden" flag is hidden from
	// players (a Marker's schema default).
	HiddenByDefault bool
	// Moved is the event of a live move of one object (moveMapObject,
	// marks.go): a drag of a marker or a template, a ruler being
	// stretched; empty when the kind does not move live.
	Moved string
	// PlayerModes are the interaction modes in which players make, change
	// and remove their own objects of this kind (marks.go); none: only the
	// game master does.
	PlayerModes []string

	List       listAccess
	Check      func(o core.Object) error
	forPlayers func(src, dst *core.Map) bool
}

// listAccess reads and writes a kind's list on a map as plain JSON objects,
// whatever Go type the map keeps it in.
type listAccess struct {
	Get func(m *core.Map) ([]core.Object, error)
	Put func(m *core.Map, list []core.Object) error
}

// MapKindOf returns the row of a {kind}, or a 404 naming the kinds there are.
func MapKindOf(field string) (*MapKind, error) {
	for i := range MapKinds {
		if MapKinds[i].Field == field {
			return &MapKinds[i], nil
		}
	}
	names := make([]string, len(MapKinds))
	for i, k := range MapKinds {
		names[i] = k.Field
	}
	return nil, core.NotFoundf("a map holds no '%s': its kinds of objects are %s", core.Clip(field), strings.Join(names, ", "))
}

// Limits on the objects of one kind (docs/limits.md).
const (
	// MaxMapObjectsPerWrite bounds the objects one request adds: a drawn
	// room is tens of walls, a converted dungeon a few thousand. (A body
	// also meets the server's bound on its JSON objects and arrays,
	// CheckJSON, which a list of walls meets first past some thousands.)
	MaxMapObjectsPerWrite = 5000
	// MaxMapObjects bounds one kind's objects on a map, every one of which
	// goes to every player with the map.
	MaxMapObjects = 20000
	// MaxMapObjectBytes bounds one object as stored (JSON).
	MaxMapObjectBytes = 64 << 10
	// MaxMapCoordinate bounds a coordinate or a length, in map pixels
	// (ten times the widest map, maxMapSide), so that no sweep or
	// renderer meets an infinity.
	MaxMapCoordinate = 10 * core.MaxMapSide
	// MaxLightRadius bounds a light's radius, in grid units.
	MaxLightRadius = 1000
	// MaxPathPoints bounds the points of a drawing or a measurement: a
	// freehand stroke drawn for a minute at a screen's rate, simplified as
	// clients do, is well inside it.
	MaxPathPoints = 4000
	// MaxMarkText bounds a mark's short texts: a drawing's text, a
	// marker's label and name, colours.
	MaxMarkText = 2000
	// MaxStrokeWidth bounds a drawing's stroke width and font size, in
	// map pixels.
	MaxStrokeWidth = 500
)

// objectList is the listAccess of a field kept as plain objects.
func objectList(field func(*core.Map) *[]core.Object) listAccess {
	return listAccess{
		Get: func(m *core.Map) ([]core.Object, error) { return *field(m), nil },
		Put: func(m *core.Map, list []core.Object) error { *field(m) = list; return nil },
	}
}

// typedList is the listAccess of a field kept as Go values: objects are
// decoded strictly, so a field the type does not have is refused rather
// than dropped.
func typedList[T any](field func(*core.Map) *[]T) listAccess {
	return listAccess{
		Get: func(m *core.Map) ([]core.Object, error) {
			raw, err := json.Marshal(*field(m))
			if err != nil {
				return nil, core.Internal(err)
			}
			var out []core.Object
			if err := json.Unmarshal(raw, &out); err != nil {
				return nil, core.Internal(err)
			}
			if out == nil {
				out = []core.Object{}
			}
			return out, nil
		},
		Put: func(m *core.Map, list []core.Object) error {
			out := make([]T, len(list))
			for i, o := range list {
				if err := decodeObject(o, &out[i]); err != nil {
					return err
				}
			}
			*field(m) = out
			return nil
		},
	}
}

// decodeObject decodes one object into a Go value, refusing fields it does
// not have.
func decodeObject(o core.Object, out any) error {
	raw, err := json.Marshal(o)
	if err != nil {
		return core.Invalidf("%v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		return core.Invalidf("%s", core.JSONErrorText(err))
	}
	return nil
}

// needs reports a required field's absence.
func needs(o core.Object, noun string, keys ...string) error {
	for _, key := range keys {
		if _, ok := o[key]; !ok {
			return core.Invalidf("a %s needs '%s'", noun, key)
		}
	}
	return nil
}

// oneOf checks an optional string field against its values.
func oneOf(o core.Object, noun, key string, values ...string) error {
	v, ok := o[key]
	if !ok {
		return nil
	}
	s, _ := v.(string)
	for _, want := range values {
		if s == want {
			return nil
		}
	}
	return core.Invalidf("a %s's '%s' is one of %s", noun, key, strings.Join(values, ", "))
}

// atLeastTwoPoints checks a path's data.
func atLeastTwoPoints(o core.Object, noun string) error {
	if err := needs(o, noun, "data"); err != nil {
		return err
	}
	if list, _ := o["data"].([]any); len(list) < 4 {
		return core.Invalidf("a %s needs at least two points in 'data' [x1, y1, x2, y2, …]", noun)
	}
	return nil
}

// checkWall: a polyline of two points or more, a known type, side and door
// state; a door without a state is closed.
func checkWall(o core.Object) error {
	if err := atLeastTwoPoints(o, "wall"); err != nil {
		return err
	}
	if err := oneOf(o, "wall", "type", core.WallNormal, core.WallInvisible, core.WallEthereal, core.WallTerrain, core.WallDoor, core.WallSecretDoor, core.WallWindow); err != nil {
		return err
	}
	if err := oneOf(o, "wall", "side", "both", "left", "right"); err != nil {
		return err
	}
	if err := oneOf(o, "wall", "door", core.DoorClosed, core.DoorOpen, core.DoorLocked); err != nil {
		return err
	}
	door := o["type"] == core.WallDoor || o["type"] == core.WallSecretDoor
	if _, ok := o["door"]; ok && !door {
		return core.Invalidf("only a wall of type door or secretDoor has a 'door' state")
	}
	if _, ok := o["door"]; door && !ok {
		o["door"] = core.DoorClosed
	}
	return nil
}

// checkLight: a place, radii in grid units with the bright one inside the
// dim one, an opacity from 0 to 1. A light is lit unless it says not, and
// its sight is the server's to compute.
func checkLight(o core.Object) error {
	if err := needs(o, "light", "x", "y"); err != nil {
		return err
	}
	delete(o, "sight")
	if _, ok := o["enabled"]; !ok {
		o["enabled"] = true
	}
	if _, ok := o["color"]; !ok {
		o["color"] = "#ffffff"
	}
	if _, ok := o["opacity"]; !ok {
		o["opacity"] = 0.5
	}
	for _, key := range []string{"radiusMin", "radiusMax"} {
		if v, present := o[key]; present {
			if f, ok := v.(float64); !ok || math.IsNaN(f) || f < 0 || f > MaxLightRadius {
				return core.Invalidf("a light's '%s' is a radius in grid units, 0 to %d", key, MaxLightRadius)
			}
		}
	}
	bright, _ := o["radiusMin"].(float64)
	dim, _ := o["radiusMax"].(float64)
	if bright > dim {
		return core.Invalidf("a light's bright radius (radiusMin) cannot reach beyond its dim radius (radiusMax)")
	}
	if f, ok := o["opacity"].(float64); !ok || f < 0 || f > 1 {
		return core.Invalidf("a light's 'opacity' is from 0 to 1")
	}
	return nil
}

// checkMarker: a marker stands at a point; its texts are bounded and its
// link, when it has one, is a page of this server (/page/…, /monster/…,
// /table/…): never a script (javascript:) nor another site, since a player
// who taps the pin opens it.
func checkMarker(o core.Object) error {
	if err := needs(o, "marker", "x", "y"); err != nil {
		return err
	}
	if err := texts(o, "marker", MaxMarkText, "label", "name", "color", "shape", "size"); err != nil {
		return err
	}
	if err := texts(o, "marker", MaxMapObjectBytes, "descr", "reference"); err != nil {
		return err
	}
	if ref, _ := o["reference"].(string); ref != "" && !isAppLink(ref) {
		return core.Invalidf("a marker's 'reference' links to a page of this server, such as /page/roost or /monster/goblin, not '%s'", core.Clip(ref))
	}
	return nil
}

// isAppLink reports whether ref is a path on this server: it starts with
// one slash (not two, which a browser reads as another host), and has no
// backslash, scheme or control character.
func isAppLink(ref string) bool {
	if !strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "//") || strings.ContainsAny(ref, "\\") {
		return false
	}
	for _, r := range ref {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// checkDrawing: a shape through two points or more (at most MaxPathPoints),
// with a stroke width that is a width and, on a text drawing, at most
// MaxMarkText of text.
func checkDrawing(o core.Object) error {
	if err := atLeastTwoPoints(o, "drawing"); err != nil {
		return err
	}
	if err := fewPoints(o, "drawing"); err != nil {
		return err
	}
	if err := texts(o, "drawing", MaxMarkText, "text", "strokeColor", "fillColor", "layer"); err != nil {
		return err
	}
	for _, key := range []string{"strokeWidth", "fontSize"} {
		if v, ok := o[key]; ok {
			if f, isNum := v.(float64); !isNum || f < 0 || f > MaxStrokeWidth {
				return core.Invalidf("a drawing's '%s' is a number of pixels from 0 to %d", key, MaxStrokeWidth)
			}
		}
	}
	if err := unitInterval(o, "drawing", "opacity"); err != nil {
		return err
	}
	return oneOf(o, "drawing", "shape", "polygon", "ellipse", "rectangle")
}

// checkPath: a measurement's path of two points or more (at most
// MaxPathPoints).
func checkPath(o core.Object) error {
	if err := atLeastTwoPoints(o, "measurement"); err != nil {
		return err
	}
	if err := texts(o, "measurement", MaxMarkText, "type", "color"); err != nil {
		return err
	}
	return fewPoints(o, "measurement")
}

// AreaShapes are the shapes of an area effect (the AreaEffect schema's),
// and the size each one is measured by: a sphere or cylinder by its
// radius around the origin; a cone by its length from the origin (its
// width at any point is its distance from the origin); a line by its
// length and width; a cube by its side (length), one face on the origin;
// a square by half its side (length), centred on the origin.
var AreaShapes = []string{"sphere", "cylinder", "cone", "line", "cube", "square"}

// checkAreaEffect: an origin, a known shape, and the sizes that shape is
// measured by above zero (a template of no size covers nothing, and the
// player who dropped it meant something else).
func checkAreaEffect(o core.Object) error {
	if err := needs(o, "area effect", "x", "y"); err != nil {
		return err
	}
	if err := notNegative(o, "area effect", "radius", "length", "width"); err != nil {
		return err
	}
	if err := oneOf(o, "area effect", "shape", AreaShapes...); err != nil {
		return err
	}
	if err := texts(o, "area effect", MaxMarkText, "color", "reference"); err != nil {
		return err
	}
	if v, ok := o["angle"]; ok {
		if f, isNum := v.(float64); !isNum || math.Abs(f) > 1000 {
			return core.Invalidf("an area effect's 'angle' is its aim in radians")
		}
	}
	if err := unitInterval(o, "area effect", "opacity"); err != nil {
		return err
	}
	shape, _ := o["shape"].(string)
	for _, key := range areaSizes(shape) {
		if f, _ := o[key].(float64); f <= 0 {
			return core.Invalidf("a %s needs a '%s' above zero (map pixels)", shape, key)
		}
	}
	return nil
}

// areaSizes are the fields a shape is measured by.
func areaSizes(shape string) []string {
	switch shape {
	case "sphere", "cylinder":
		return []string{"radius"}
	case "line":
		return []string{"length", "width"}
	case "cone", "cube", "square":
		return []string{"length"}
	}
	return nil
}

// texts checks optional string fields against a bound in bytes.
func texts(o core.Object, noun string, limit int, keys ...string) error {
	for _, key := range keys {
		v, ok := o[key]
		if !ok || v == nil {
			continue
		}
		s, isString := v.(string)
		if !isString {
			return core.Invalidf("a %s's '%s' is text", noun, key)
		}
		if len(s) > limit {
			return core.TooLarge(noun+": '"+key+"'", len(s), limit)
		}
	}
	return nil
}

// fewPoints bounds a path's points.
func fewPoints(o core.Object, noun string) error {
	if list, _ := o["data"].([]any); len(list) > 2*MaxPathPoints {
		return core.TooLargef("a %s of %d points: at most %d (a long stroke is simplified as it is drawn)", noun, len(list)/2, MaxPathPoints)
	}
	return nil
}

// unitInterval checks an optional number from 0 to 1.
func unitInterval(o core.Object, noun, key string) error {
	if v, ok := o[key]; ok {
		if f, isNum := v.(float64); !isNum || f < 0 || f > 1 {
			return core.Invalidf("a %s's '%s' is from 0 to 1", noun, key)
		}
	}
	return nil
}

// checkSound: an ambient sound is a point, a radius in grid units (heard
// within it, docs/api.md "Ambient sounds") and a sound file of a
// campaign's audio library; its volume, when given, is 0 to 1.
func checkSound(o core.Object) error {
	if err := needs(o, "sound", "x", "y", "radius"); err != nil {
		return err
	}
	if r, _ := o["radius"].(float64); r <= 0 || r > MaxLightRadius {
		return core.Invalidf("a sound's radius is above 0 and at most %d grid units", MaxLightRadius)
	}
	if v, ok := o["volume"]; ok {
		if f, isNum := v.(float64); !isNum || f < 0 || f > 1 {
			return core.Invalidf("a sound's volume is 0 to 1")
		}
	}
	url, _ := o["url"].(string)
	if parts := strings.Split(url, "/"); len(parts) != 5 || parts[0] != "" || parts[1] != "campaigns" || parts[3] != "audio" || parts[2] == "" || strings.HasPrefix(parts[4], ".") || parts[4] == "" {
		return core.Invalidf("a sound's url is a file of an audio library, /campaigns/<id>/audio/<file>, not '%s'", core.Clip(url))
	}
	return nil
}

// checkTile: a place and a size that is not negative.
func checkTile(o core.Object) error {
	if err := needs(o, "tile", "x", "y"); err != nil {
		return err
	}
	return notNegative(o, "tile", "width", "height")
}

func notNegative(o core.Object, noun string, keys ...string) error {
	for _, key := range keys {
		if f, ok := o[key].(float64); ok && f < 0 {
			return core.Invalidf("a %s's '%s' cannot be below zero", noun, key)
		}
	}
	return nil
}

// playerWalls sets dst's walls to src's as players see them: a secret door
// that is not open is a plain wall to them (its type would tell them where
// to search). It reports whether any wall changed.
func playerWalls(src, dst *core.Map) bool {
	var out []core.Wall
	for i, w := range src.Walls {
		if w.Type != core.WallSecretDoor || w.Door == core.DoorOpen {
			continue
		}
		if out == nil {
			out = append([]core.Wall(nil), src.Walls...)
		}
		out[i] = core.Wall{ID: w.ID, Data: w.Data, Side: w.Side, Type: core.WallNormal}
	}
	if out == nil {
		return false
	}
	dst.Walls = out
	return true
}

// playerObjects is the forPlayers of a kind kept as plain objects whose
// "hidden" flag (or dm layer) hides them.
func (k *MapKind) playerObjects(src, dst *core.Map) bool {
	list, _ := k.List.Get(src)
	for _, o := range list {
		if core.ObjectHidden(o, k.HiddenByDefault) {
			_ = k.List.Put(dst, core.VisibleObjects(list, k.HiddenByDefault))
			return true
		}
	}
	return false
}

// Redact sets dst's list of this kind to what players see of src's, and
// reports whether it differs.
func (k *MapKind) Redact(src, dst *core.Map) bool {
	if k.forPlayers != nil {
		return k.forPlayers(src, dst)
	}
	return k.playerObjects(src, dst)
}

// playersSeeEvery is the forPlayers of a kind players see whole.
func playersSeeEvery(_, _ *core.Map) bool { return false }

// Coordinate reads a number within ±MaxMapCoordinate.
func Coordinate(k *MapKind, id, key string, v any) (float64, error) {
	f, ok := v.(float64)
	if !ok {
		return 0, core.Invalidf("%s '%s': '%s' must be a number", k.Noun, core.Clip(id), key)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > MaxMapCoordinate {
		return 0, core.Invalidf("%s '%s': '%s' must be a number from -%d to %d map pixels", k.Noun, core.Clip(id), key, MaxMapCoordinate, MaxMapCoordinate)
	}
	return f, nil
}

// Points reads a flat [x1, y1, x2, y2, …] list of coordinates.
func Points(k *MapKind, id string, v any) ([]float64, error) {
	list, ok := v.([]any)
	if !ok || len(list)%2 != 0 {
		return nil, core.Invalidf("%s '%s': 'data' must be a flat list of points [x1, y1, x2, y2, …]", k.Noun, core.Clip(id))
	}
	out := make([]float64, len(list))
	for i, n := range list {
		f, err := Coordinate(k, id, "data", n)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}
