package wire

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/sight"
	"github.com/vttapp/companion/sound"
)

// The wire shapes of the API and the WebSocket, described once: each
// component below is derived from the Go type the server marshals, so the
// served description cannot drift from what is sent. A field's name, type,
// whether it is always sent (no omitempty: required) and whether it may be
// null (a pointer, slice or map without omitempty) come from the struct;
// fieldNotes adds what a struct cannot say (enums, a sentence). Every
// derived object refuses properties it does not list (additionalProperties
// false), so a field added to a Go type and not to the wire is caught by
// the tests that validate recorded traffic (tests/api/openapi_validate_test.go).
//
// web/client/src/wire.gen.ts is generated from these components
// (internal/tools/tsgen); a test fails when it is stale.

// wireShape is one component derived from a Go type.
type wireShape struct {
	name  string
	value any // a zero value of the Go type
	descr string
}

// Health is the answer of GET /api/-/live and /api/-/ready (and their
// host twins): the handlers write this type.
type Health struct {
	Status  string `json:"status"`
	App     string `json:"app"` // "companion", so that a probe knows what answered
	Version string `json:"version,omitempty"`
	Build   int    `json:"build,omitempty"`
	System  string `json:"system,omitempty"`
	// Instance is the server's instance id, on the host listener only: it
	// tells the commands that look for the server of a data folder that
	// this is it (cmd/companion/instance.go).
	Instance string `json:"instance,omitempty"`
}

// tokenOnMap is core's token sent alone (tokenUpdated, the answer to
// updateToken): the token and the map it stands on (core/views.go).
type tokenOnMap struct {
	*core.Token
	MapID string `json:"mapId,omitempty"`
}

// wireShapes lists the components derived from Go types, in the order they
// are described. A type named here is referred to by $ref wherever another
// shape holds it.
var wireShapes = []wireShape{
	{"Snapshot", core.Snapshot{}, "GET /api: the primary campaign as players see it"},
	{"Game", core.Game{}, "Initiative and combat (gameUpdated)"},
	{"Combatant", core.Combatant{}, "An entry in the initiative order; players never receive a foe's data, attributes or modifiers, nor anyone's notes"},
	{"Initiative", core.Initiative{}, "One turn-order slot of a combatant; value is a number or anything a system uses"},
	{"StatusEffect", core.StatusEffect{}, "An active condition, buff or debuff"},
	{"Modifier", core.Modifier{}, "A rule modifier of an entity, combatant or effect"},
	{"Creature", core.Creature{}, "One initiative row per visible combatant, in turn order (game.creatures)"},
	{"Map", core.Map{}, "A battle map; coordinates are map pixels, gridSize pixels to a cell"},
	{"Wall", core.Wall{}, "A polyline (flat x,y list) that blocks vision and/or movement; doors are walls with a door state"},
	{"Light", core.Light{}, "A light source on a map"},
	{"Token", core.Token{}, "A piece on the battle map; size, health, hitpoints, bloodied and dead are derived when sent"},
	{"TokenOnMap", tokenOnMap{}, "A token sent alone (tokenUpdated, the answer to updateToken) with the map it stands on"},
	{"Vision", core.Vision{}, "A token's sight and carried light"},
	{"Sight", sight.Sight{}, "What a token's vision or a light sees, computed by the server: key is vision-<id> or light-<id>, polygon a flat x,y list"},
	{"Screen", core.Screen{}, "The player screen's configuration"},
	{"Message", core.Message{}, "A message of the shared log; content is what a client shows: the text, or for a roll message a RollContent"},
	{"RollContent", core.RollContent{}, "The content of a roll message: its name, kind, formula, total and die-by-die detail"},
	{"GameTurn", core.GameTurn{}, "A change of turn alone, as players receive it: the Game without its lists"},
	{"Client", core.Client{}, "A connected WebSocket client"},
	{"TrackedObject", core.TrackedObject{}, "A physical object a table display reports; kept in memory only"},
	{"Entity", core.Entity{}, "An entity as stored (schema=model); its data keys are defined by the system"},
	{"Source", core.Source{}, "A book and page citation"},
	{"Movement", core.Movement{}, "A drag step (tokenMoved)"},
	{"EventSource", core.EventSource{}, "Who sent a drag step: the server's name for the connection"},
	{"Pointer", core.Pointer{}, "A client's shared pointer (pointerUpdated)"},
	{"Frame", core.Frame{}, "Where a view looks on a map (mapFrameUpdated, mapViewportUpdated)"},
	{"MapTokens", core.MapTokens{}, "Every token of a map (tokensUpdated)"},
	{"FogImage", core.FogImage{}, "A map's fog mask as base64 PNG, white where players see (fogUpdated)"},
	{"Focus", core.Focus{}, "Displays draw attention to a point (mapFocus)"},
	{"ScreenMap", core.ScreenMap{}, "The map displays fit in their view (mapFitScreen)"},
	{"Attribute", core.Attribute{}, "An entity's attributes (getAttribute, setAttribute)"},
	{"Health", Health{}, "GET /api/-/live and /api/-/ready: the process answers, the server is ready"},
	{"SoundState", sound.State{}, "The table's playback state (GET /api/sound, soundUpdated): what plays on every screen, from when on the server's clock"},
	{"SoundPlayback", sound.Playback{}, "One playlist playing or paused: its track, the server time its start played at, or the position it is paused at"},
	{"SoundTrack", sound.Track{}, "A sound file of the library"},
}

// fieldNotes adds to a derived property what its Go type cannot say:
// "Component.field" -> keywords merged into the property's schema.
var fieldNotes = map[string]obj{
	"Combatant.role":    {"enum": []string{core.RoleHostile, core.RoleFriendly, core.RoleNeutral}, "description": "absent means hostile"},
	"Combatant.tokenId": {"description": "null for players when it names a token they do not see"},
	"Wall.door":         {"enum": []string{core.DoorOpen, core.DoorClosed, core.DoorLocked}},
	"Movement.state": {"type": []string{"string", "integer"}, "enum": []any{core.DragStart, core.DragControl, core.DragEnd, core.DragBlock, core.DragCancel, 0, 1, 2, 3, 4},
		"description": "a connection that sent integers (or a page of an installed web client) receives 0 to 4 in that order"},
	"Movement.mapId":     {"description": "the token's map, set by the server"},
	"Screen.interaction": {"enum": []string{core.InteractionNone, core.InteractionToken, core.InteractionAll}},
	"Token.x":            {"description": "the centre, map pixels"},
	"Token.width":        {"description": "cells"},
	"Client.color":       {"pattern": "^(#[0-9a-fA-F]{6})?$"},
	"Message.type":       {"description": "chat (default), roll, tableRoll or command"},
	"Map.losVisionLimit": {"description": "-1: none"},
	"TrackedObject.id":   {"type": []string{"string", "number"}},
	"Initiative.value":   {"description": "a number, or anything a system uses"},
}

// extraProperties are properties a type's own MarshalJSON adds.
var extraProperties = map[string]obj{
	// core.Message.MarshalJSON: the text, or for a roll message its content.
	"Message": {"content": obj{"anyOf": []obj{{"type": "string"}, ref("RollContent"), {"type": "object"}}}},
}

// rollResultSchema is a roll as the dice engine made it (docs/dice.md);
// core.RollResult marshals the engine's bytes, so it is described by hand.
var rollResultSchema = obj{"type": "object", "description": "One roll: expression, formula, total, text, start, end and the tree of every die; or expression, error and position for a roll that failed",
	"properties": obj{"expression": obj{"type": "string"}, "formula": obj{"type": "string"}, "total": obj{"type": "number"},
		"text": obj{"type": "string"}, "error": obj{"type": "string"}, "start": obj{"type": "integer"}, "end": obj{"type": "integer"}}}

// hiddenSchema is what players learn of a combatant they saw that is now
// hidden (core/views.go): enough to drop it.
var hiddenSchema = obj{"type": "object", "description": "A combatant players saw that the game master hid: drop it",
	"required": []string{"id", "hidden"}, "additionalProperties": false,
	"properties": obj{"id": obj{"type": "string"}, "hidden": obj{"const": true}}}

// hiddenTokenSchema is what players learn of a token they saw that is now
// hidden (core/views.go): enough to drop it, with the empty size the
// Encounter+ web client reads before it finds the token hidden.
var hiddenTokenSchema = obj{"type": "object", "description": "A token players saw that the game master hid: drop it (size is empty, read as one cell)",
	"required": []string{"id", "hidden", "size"}, "additionalProperties": false,
	"properties": obj{"id": obj{"type": "string"}, "hidden": obj{"const": true}, "size": obj{"const": ""}}}

// wireNames is the component name of each Go type wireShapes describes,
// and of the one described by hand (RollResult marshals itself).
func wireNames() map[reflect.Type]string {
	names := map[reflect.Type]string{reflect.TypeFor[core.RollResult](): "RollResult"}
	for _, s := range wireShapes {
		names[reflect.TypeOf(s.value)] = s.name
	}
	return names
}

// wireSchemas derives every component of wireShapes.
func wireSchemas() obj {
	names := wireNames()
	out := obj{"RollResult": rollResultSchema, "Hidden": hiddenSchema, "HiddenToken": hiddenTokenSchema}
	for _, s := range wireShapes {
		schema := structSchema(reflect.TypeOf(s.value), s.name, names)
		schema["description"] = s.descr
		out[s.name] = schema
	}
	return out
}

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

// structSchema describes a struct as encoding/json writes it.
func structSchema(t reflect.Type, name string, names map[reflect.Type]string) obj {
	props := obj{}
	var required []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			key, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && key == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				walk(ft)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if key == "" {
				key = f.Name
			}
			omitempty := strings.Contains(opts, "omitempty")
			p := typeSchema(f.Type, !omitempty, names)
			for k, v := range fieldNotes[name+"."+key] {
				p[k] = v
			}
			// A field of the outer struct hides an embedded one of the
			// same name, as in encoding/json.
			required = slices.DeleteFunc(required, func(k string) bool { return k == key })
			props[key] = p
			if !omitempty {
				required = append(required, key)
			}
		}
	}
	walk(t)
	for k, v := range extraProperties[name] {
		props[k] = v
		required = append(required, k)
	}
	s := obj{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// typeSchema describes a value of t; nullable says whether encoding/json
// may write null for it (a nil pointer, slice or map not left out).
func typeSchema(t reflect.Type, nullable bool, names map[reflect.Type]string) obj {
	orNull := func(s obj) obj {
		if !nullable {
			return s
		}
		if typ, ok := s["type"].(string); ok {
			s["type"] = []string{typ, "null"}
			return s
		}
		return obj{"anyOf": []obj{s, {"type": "null"}}}
	}
	if name, ok := names[t]; ok && t.Kind() == reflect.Struct {
		return ref(name)
	}
	switch {
	case t == timeType:
		return obj{"type": "string", "format": "date-time"}
	case t == rawType:
		return anyJSON()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return orNull(typeSchema(t.Elem(), false, names))
	case reflect.String:
		return obj{"type": "string"}
	case reflect.Bool:
		return obj{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return obj{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return obj{"type": "number"}
	case reflect.Slice, reflect.Array:
		return orNull(obj{"type": "array", "items": typeSchema(t.Elem(), false, names)})
	case reflect.Map:
		if t.Elem().Kind() == reflect.Interface {
			return orNull(obj{"type": "object"})
		}
		return orNull(obj{"type": "object", "additionalProperties": typeSchema(t.Elem(), false, names)})
	case reflect.Struct:
		return structSchema(t, "", names)
	}
	return anyJSON() // an interface
}

// anyJSON is the schema of any JSON value, null included. It names every
// type rather than being {}: kin-openapi refuses null for an empty schema
// inside a larger document.
func anyJSON() obj {
	return obj{"type": []string{"string", "number", "integer", "boolean", "array", "object", "null"}}
}
