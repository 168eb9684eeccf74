package routes

import "github.com/vttapp/companion/core"

// wireRequests lists the data of each request a client sends over the
// WebSocket, by the envelope's name: the document's x-requests indexes
// them (Request<Name>) as x-events does the events, and the client's typed
// senders are generated from it (internal/tools/tsgen, ClientRequests in
// web/client/src/wire.gen.ts). They describe what the hub reads
// (hub/handlers.go, seats.go): a property is required only where
// the server refuses a request without it.
var wireRequests = []wireEvent{
	{core.EventClientUpdated, obj{"type": "object", "properties": obj{
		"name": reqString, "color": reqString, "runMode": reqString, "device": reqString,
		"screenWidth": reqNumber, "screenHeight": reqNumber, "mapCenterX": reqNumber, "mapCenterY": reqNumber, "mapZoom": reqNumber}},
		"a client registers, or changes its name, colour, screen or view; send it first"},
	{core.RequestMapViewportUpdated, obj{"type": "object", "properties": obj{
		"id": reqString, "x": reqNumber, "y": reqNumber, "zoom": reqNumber}},
		"where this client looks on a map (recorded, never broadcast)"},
	{core.EventTokenMoved, obj{"type": "object", "required": []string{"id", "x", "y", "state"}, "properties": obj{
		"id": reqString, "x": reqNumber, "y": reqNumber, "mapId": reqString, "animated": obj{"type": "boolean"}, "distance": reqString,
		"path":  arrayOf(reqNumber),
		"state": obj{"type": []string{"string", "integer"}, "enum": []any{core.DragStart, core.DragControl, core.DragEnd, core.DragBlock, core.DragCancel, 0, 1, 2, 3, 4}}}},
		"a drag step of a token"},
	{core.RequestUpdateDoor, obj{"type": "object", "required": []string{"id", "state"}, "properties": obj{
		"mapId": reqString, "id": reqString, "state": obj{"type": "string", "enum": []string{core.DoorOpen, core.DoorClosed, core.DoorLocked}}}},
		"opens, closes or locks a door"},
	{core.EventPointerUpdated, obj{"type": "object", "required": []string{"x", "y"}, "properties": obj{
		"x": reqNumber, "y": reqNumber, "state": obj{"type": []string{"string", "integer"}}}},
		"this client's pointer moves"},
	{core.RequestUpdateToken, patchSchema, "changes a token's fields"},
	{core.RequestUpdateEntity, patchSchema, "changes an entity's fields"},
	{core.RequestUpdateCombatant, patchSchema, "changes a combatant's fields"},
	{core.RequestCreateMessage, ref("MessageInput"), "posts a message: a chat line, or a command such as /roll"},
	{core.RequestGetAttribute, obj{"type": "object", "required": []string{"entityId"}, "properties": obj{"entityId": reqString}}, "reads an entity's attributes"},
	{core.RequestSetAttribute, ref("Attribute"), "merges attributes into an entity's"},
	{core.EventTrackedObjectCreated, trackedObjects, "a table display reports objects"},
	{core.EventTrackedObjectUpdated, trackedObjects, "a table display reports objects"},
	{core.EventTrackedObjectDeleted, trackedObjects, "a table display reports objects"},
	{core.EventTrackedObjectsUpdated, trackedObjects, "a table display reports objects"},
	{core.RequestTakeSeat, obj{"type": "object", "properties": obj{"seatId": reqString, "player": reqString, "seatToken": reqString}},
		"takes a seat (seatId, with the player's name) or resumes one held before (seatToken)"},
	{core.RequestLeaveSeat, noData, "frees this client's seat"},
	{core.RequestSetRole, roleSchema, "becomes a spectator, or a player again"},
	{core.RequestGetCharacter, noData, "reads the seat's character"},
	{core.RequestUpdateCharacter, obj{"type": "object", "description": "the character's fields to change, as the sheet says they may be"}, "changes the seat's character"},
	{core.RequestChangeHitPoints, obj{"type": "object", "properties": obj{"damage": reqNumber, "healing": reqNumber, "temp": reqNumber}},
		"damage, healing or temporary hit points for the seat's character"},
	{core.RequestRollAction, obj{"type": "object", "required": []string{"action"}, "properties": obj{
		"action": reqString, "advantage": obj{"type": "string", "enum": []string{"", "advantage", "disadvantage"}},
		"critical": obj{"type": "boolean"}, "damage": obj{"type": "boolean"}, "private": obj{"type": "boolean"}}},
		"rolls one of the sheet's actions into the chat (private: to the game master only)"},
	{core.RequestRollInitiative, noData, "rolls the seat's initiative"},
	{core.RequestEndTurn, noData, "ends the seat's turn"},
}

var (
	reqString = obj{"type": "string"}
	reqNumber = obj{"type": "number"}
	// noData: a request whose data the server does not read.
	noData = obj{"type": "null", "description": "no data (null)"}
	// patchSchema: a partial object naming its target by id.
	patchSchema = obj{"type": "object", "required": []string{"id"}, "properties": obj{"id": reqString}, "additionalProperties": obj{}}
)
