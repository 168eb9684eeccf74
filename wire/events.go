package wire

import (
	"strings"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/core"
)

// The WebSocket in the served description, read from core.EventTable. OpenAPI has no place for a
// socket's messages, so each event the server sends is a component schema
// named Event<Name> (EventTokenUpdated: the data of a tokenUpdated
// envelope), which tools and kin-openapi resolve like any other schema,
// and the document's top-level x-events lists them by the name a frame
// carries, with when they are sent: a newcomer reading the document finds
// the socket under one key, and a test looks an event's schema up by its
// name (tests/api/openapi_validate_test.go).

// eventShapes are the small shapes of the events, requests and replies
// that no Go type describes, by the names core.EventTable gives them. A
// shape name in the table that is not here is a component (a Go type of
// openapi_shapes.go, or Ok); "A|B" is either, "A[]" a list, a final "?"
// allows null (eventShape).
var eventShapes = map[string]obj{
	// Sent by the server.
	"App": {"type": "object", "required": []string{"version", "build"}, "additionalProperties": false,
		"properties": obj{"version": obj{"type": "string"}, "build": obj{"type": "integer"}}},
	"InteractionMode": {"type": "string", "enum": []string{core.InteractionNone, core.InteractionToken, core.InteractionAll}},
	"Paused":          {"type": "boolean"},
	"Pong": {"type": "object", "required": []string{"ok", "serverTime"}, "additionalProperties": false, "properties": obj{
		"ok": obj{"const": true}, "serverTime": obj{"type": "integer", "description": "the server's clock as it answered, Unix milliseconds"}}},
	"MapObjects": {"type": "object", "required": []string{"mapId"},
		"description": "One kind of a map's objects (core.MapKinds): mapId and, under the kind's field (lights, markers, drawings, areaEffects, measurements, tiles, sounds), its whole list",
		"properties":  obj{"mapId": obj{"type": "string"}}},
	"MeasurementMove": {"type": "object", "required": []string{"id", "mapId", "state", "data", "distance"},
		"description": "A measurement being stretched: the Measurement with mapId, the drag's state, source and its distance as the system counts it (\"30 ft\")",
		"properties": obj{"id": reqString, "mapId": reqString, "state": reqString, "data": arrayOf(reqNumber), "distance": reqString,
			"type": reqString, "color": reqString, "hidden": obj{"type": "boolean"}, "source": ref("EventSource")}},
	"MapObject": {"type": "object", "required": []string{"id"}, "description": "One object of a map kind (a Marker, Drawing, AreaEffect, Measurement…), as stored",
		"properties": obj{"id": reqString}, "additionalProperties": obj{}},
	"Measured": {"type": "object", "required": []string{"distance", "units", "text"}, "additionalProperties": false, "properties": obj{
		"squares":  obj{"type": "array", "items": obj{"type": "integer"}, "description": "the cells a template covers, flat: column, row, column, row… (cell (c, r) spans gridOffset + c·gridSize …)"},
		"distance": reqNumber, "units": reqString, "text": reqString}},
	"ReloadReason": {"type": "object", "description": "Why: {system, version} after a system reload, {reason: import, kind, id}, {reason: moduleDeleted, id, name}",
		"properties": obj{"system": obj{"type": "string"}, "version": obj{"type": "string"}, "reason": obj{"type": "string"},
			"kind": obj{"type": "string"}, "id": obj{"type": "string"}, "name": obj{"type": "string"}}},
	"SeatChange": {"anyOf": []obj{ref("TakenSeat"), {"type": "object", "required": []string{"seat"}, "additionalProperties": false,
		"properties": obj{"seat": obj{"type": "null"}}}}},
	"InitiativeRequest": {"type": "object", "additionalProperties": false, "properties": obj{
		"combatants": arrayOf(obj{"type": "string"}), "seats": arrayOf(obj{"type": "string"})}},
	"Role": roleSchema,
	"AccessChange": {"type": "object", "additionalProperties": false, "required": []string{"enabled"},
		"properties": obj{"enabled": obj{"type": "boolean"}}},
	"ErrorReply": {"type": "object", "required": []string{"message", "kind"}, "additionalProperties": false, "properties": obj{
		"message": obj{"type": "string"},
		"kind":    obj{"type": "string", "enum": []string{"invalid", "not found", "conflict", "too large", "forbidden", "internal", "rate limited"}},
		"request": obj{"type": "string", "description": "the request's name; absent when the frame could not be read"}}},

	// Sent by clients. They describe what the hub reads (hub/handlers.go,
	// seats.go): a property is required only where the server refuses a
	// request without it.
	"ClientUpdate": {"type": "object", "properties": obj{
		"name": reqString, "color": reqString, "runMode": reqString, "device": reqString,
		"screenWidth": reqNumber, "screenHeight": reqNumber, "mapCenterX": reqNumber, "mapCenterY": reqNumber, "mapZoom": reqNumber}},
	"ViewportUpdate": {"type": "object", "properties": obj{"id": reqString, "x": reqNumber, "y": reqNumber, "zoom": reqNumber}},
	"TokenMove": {"type": "object", "required": []string{"id", "x", "y", "state"}, "properties": obj{
		"id": reqString, "x": reqNumber, "y": reqNumber, "mapId": reqString, "animated": obj{"type": "boolean"}, "distance": reqString,
		"path":  arrayOf(reqNumber),
		"state": obj{"type": []string{"string", "integer"}, "enum": []any{core.DragStart, core.DragControl, core.DragEnd, core.DragBlock, core.DragCancel, 0, 1, 2, 3, 4}}}},
	"DoorUpdate": {"type": "object", "required": []string{"id", "state"}, "properties": obj{
		"mapId": reqString, "id": reqString, "state": obj{"type": "string", "enum": []string{core.DoorOpen, core.DoorClosed, core.DoorLocked}}}},
	"PointerUpdate": {"type": "object", "required": []string{"x", "y"}, "properties": obj{
		"x": reqNumber, "y": reqNumber, "state": obj{"type": []string{"string", "integer"}}}},
	"MapObjectAdd": {"type": "object", "required": []string{"mapId", "kind", "object"}, "properties": obj{
		"mapId": reqString, "kind": mapKindSchema, "object": obj{"type": "object"}}},
	"MapObjectPatch": {"type": "object", "required": []string{"mapId", "kind", "id", "patch"}, "properties": obj{
		"mapId": reqString, "kind": mapKindSchema, "id": reqString, "patch": obj{"type": "object"}}},
	"MapObjectDelete": {"type": "object", "required": []string{"mapId", "kind"}, "properties": obj{
		"mapId": reqString, "kind": mapKindSchema, "id": reqString}},
	"MapObjectMove": {"type": "object", "required": []string{"mapId", "kind", "id", "state"}, "properties": obj{
		"mapId": reqString, "kind": mapKindSchema, "id": reqString, "x": reqNumber, "y": reqNumber, "data": arrayOf(reqNumber),
		"state": obj{"type": "string", "enum": []string{core.DragStart, core.DragControl, core.DragEnd, core.DragCancel}}}},
	"MeasureRequest": {"type": "object", "required": []string{"mapId"}, "properties": obj{
		"mapId": reqString, "areaEffect": obj{"type": "object"}, "path": arrayOf(reqNumber)}},
	// Patch: a partial object naming its target by id.
	"Patch":         {"type": "object", "required": []string{"id"}, "properties": obj{"id": reqString}, "additionalProperties": obj{}},
	"AttributeRead": {"type": "object", "required": []string{"entityId"}, "properties": obj{"entityId": reqString}},
	"SeatRequest":   {"type": "object", "properties": obj{"seatId": reqString, "player": reqString, "seatToken": reqString}},
	// NoData: a request whose data the server does not read.
	"NoData": {"type": "null", "description": "no data (null)"},
	"TurnPass": {"type": []string{"object", "null"}, "description": "optional: whom the turn goes to, in a system whose turns are passed (config combat.turns \"passed\")",
		"properties": obj{"to": obj{"type": "string", "description": "a combatant id that has not acted this round"}}},
	"CharacterPatch":  {"type": "object", "description": "the character's fields to change, as the sheet says they may be"},
	"HitPointsChange": {"type": "object", "properties": obj{"damage": reqNumber, "healing": reqNumber, "temp": reqNumber}},
	"ActionRoll": {"type": "object", "required": []string{"action"}, "properties": obj{
		"action": reqString, "options": obj{"type": "array", "items": reqString, "description": "ids of the roll options the action takes"},
		"follow": obj{"type": "boolean", "description": "roll the action's follow-up after it"}, "private": obj{"type": "boolean"}}},
}

// mapKindSchema names a kind of map object (core.MapKinds).
var mapKindSchema = func() obj {
	var kinds []string
	for _, k := range mapobjects.MapKinds {
		kinds = append(kinds, k.Field)
	}
	return obj{"type": "string", "enum": kinds}
}()

var (
	reqString = obj{"type": "string"}
	reqNumber = obj{"type": "number"}
)

// eventShape is the schema a shape name of core.EventTable stands for:
// one of eventShapes (inline), a component ($ref), "A|B" (anyOf), "A[]"
// (a list), and a final "?" (or null).
func eventShape(expr string) obj {
	if rest, ok := strings.CutSuffix(expr, "[]?"); ok {
		return obj{"type": []string{"array", "null"}, "items": eventShape(rest)}
	}
	if strings.Contains(expr, "|") {
		var alts []obj
		for _, part := range strings.Split(expr, "|") {
			alts = append(alts, eventShape(part))
		}
		return obj{"anyOf": alts}
	}
	if rest, ok := strings.CutSuffix(expr, "[]"); ok {
		return arrayOf(eventShape(rest))
	}
	if s, ok := eventShapes[expr]; ok {
		return s
	}
	return ref(expr)
}

// roleSchema is a connection's role ({"role"}), told or answered.
var roleSchema = obj{"type": "object", "required": []string{"role"}, "additionalProperties": false,
	"properties": obj{"role": obj{"type": "string", "enum": []string{core.ClientPlayer, core.ClientSpectator}}}}

// okSchema is the answer to a request that returns nothing else; a move a
// newer one replaced says so (coalesced).
var okSchema = obj{"type": "object", "description": "The request was done; coalesced: a newer move replaced this one before it went out",
	"required": []string{"ok"}, "additionalProperties": false,
	"properties": obj{"ok": obj{"const": true}, "coalesced": obj{"const": true}}}

// eventSchemas adds every event's, request's and reply's component to
// schemas and returns the document's x-events, x-requests and x-replies
// indexes.
func eventSchemas(schemas obj) (events, requests, replies obj) {
	schemas["Ok"] = okSchema
	schemas["Envelope"] = obj{"type": "object", "description": "Every WebSocket message, both ways: one text frame holding one envelope; name decides the shape of data (x-events)",
		"required": []string{"name"}, "properties": obj{
			"name": obj{"type": "string"}, "data": anyJSON(),
			"requestId":  obj{"type": []string{"string", "number"}, "description": "set by a client on a request it wants answered"},
			"responseId": obj{"type": []string{"string", "number"}, "description": "the requestId of the request this answers"}}}
	events, requests, replies = obj{}, obj{}, obj{}
	add := func(out obj, prefix, what, event, shape, when string) {
		name := prefix + strings.ToUpper(event[:1]) + event[1:]
		s := obj{}
		for k, v := range eventShape(shape) {
			s[k] = v
		}
		s["description"] = "The data of " + what + " " + event + ": " + when
		schemas[name] = s
		out[event] = obj{"schema": "#/components/schemas/" + name, "description": when}
	}
	for _, e := range core.EventTable {
		if e.Sent() {
			add(events, "Event", "the event", e.Name, e.Payload, e.When)
		}
		if e.Requested() {
			add(requests, "Request", "the request", e.Name, e.Request, e.Asks)
			add(replies, "Reply", "the answer to", e.Name, e.Reply, e.Answer)
		}
	}
	return events, requests, replies
}
