package routes

import (
	"strings"

	"github.com/vttapp/companion/core"
)

// The WebSocket in the served description. OpenAPI has no place for a
// socket's messages, so each event the server sends is a component schema
// named Event<Name> (EventTokenUpdated: the data of a tokenUpdated
// envelope), which tools and kin-openapi resolve like any other schema,
// and the document's top-level x-events lists them by the name a frame
// carries, with when they are sent: a newcomer reading the document finds
// the socket under one key, and a test looks an event's schema up by its
// name (tests/api/openapi_validate_test.go).

// wireEvent is one event the server sends over the WebSocket.
type wireEvent struct {
	name   string
	schema obj
	when   string
}

// wireEvents lists every event players and the game master receive, in the
// order docs/api.md tables them. The host console's socket receives the
// same names with the game master's payload (the same shapes, whole).
var wireEvents = []wireEvent{
	{core.EventApp, obj{"type": "object", "required": []string{"version", "build"}, "additionalProperties": false,
		"properties": obj{"version": obj{"type": "string"}, "build": obj{"type": "integer"}}}, "to a new connection, first"},
	{core.EventClientConnected, ref("Client"), "a player client connects (channel and address only)"},
	{core.EventClientUpdated, ref("Client"), "a player client registers or changes"},
	{core.EventClientDisconnected, ref("Client"), "a player client leaves"},
	{core.EventGameUpdated, obj{"anyOf": []obj{ref("Game"), ref("GameTurn")}}, "combat starts, ends or turns, a combatant is added or removed, initiative changes; to players, a change of turn alone carries the turn without the lists (GameTurn)"},
	{core.EventCombatantUpdated, obj{"anyOf": []obj{ref("Combatant"), ref("Hidden")}}, "a combatant changes; one players saw that is now hidden reaches them as {id, hidden}"},
	{core.EventEntityUpdated, ref("Entity"), "an entity changes"},
	{core.EventTokenUpdated, obj{"anyOf": []obj{ref("TokenOnMap"), ref("HiddenToken")}}, "a token changes; one players saw that is now hidden reaches them as {id, hidden, size: \"\"}"},
	{core.EventTokensUpdated, ref("MapTokens"), "every token of a map, after one is deleted"},
	{core.EventTokenMoved, ref("Movement"), "a drag step of any client or of the game master"},
	{core.EventPointerUpdated, ref("Pointer"), "a client's pointer moves"},
	{core.EventMapLoaded, ref("Map"), "the game master puts a map on the player screen"},
	{core.EventMapUpdated, ref("Map"), "the map on the player screen changes"},
	{core.EventLineOfSightUpdated, obj{"type": []string{"array", "null"}, "items": ref("Sight")}, "after a door changes: the sights, matched by key"},
	{core.EventFogUpdated, ref("FogImage"), "a map's fog mask changed"},
	{core.EventScreenUpdated, ref("Screen"), "the player screen changes"},
	{core.EventMapFitScreen, ref("ScreenMap"), "displays fit a map in their view"},
	{core.EventMapFocus, ref("Focus"), "displays draw attention to a point"},
	{core.EventMapFrameUpdated, ref("Frame"), "displays follow the game master's view of a map"},
	{core.EventInteractionUpdated, obj{"type": "string", "enum": []string{core.InteractionNone, core.InteractionToken, core.InteractionAll}}, "the game master changed the interaction mode (a bare string)"},
	{core.EventSystemPaused, obj{"type": "boolean"}, "the game master paused or resumed (a bare boolean)"},
	{core.EventMessageCreated, ref("Message"), "a message was posted"},
	{core.EventReload, obj{"type": "object", "description": "Why: {system, version} after a system reload, {reason: import, kind, id}, {reason: moduleDeleted, id, name}",
		"properties": obj{"system": obj{"type": "string"}, "version": obj{"type": "string"}, "reason": obj{"type": "string"},
			"kind": obj{"type": "string"}, "id": obj{"type": "string"}, "name": obj{"type": "string"}}},
		"the game system or the content changed: fetch GET /api/system and GET /api again"},
	{core.EventTrackedObjectCreated, trackedObjects, "a table display reported objects"},
	{core.EventTrackedObjectUpdated, trackedObjects, "a table display reported objects"},
	{core.EventTrackedObjectDeleted, trackedObjects, "a table display reported objects"},
	{core.EventTrackedObjectsUpdated, trackedObjects, "a table display reported objects"},
	// Seats, roles and the join key (docs/api.md): events this server adds
	// to the contract's; their shapes are in openapi_seats.go.
	{core.EventSeatsUpdated, ref("SeatList"), "any seat changed: the seat list as everyone reads it"},
	{core.EventSeatChanged, obj{"anyOf": []obj{ref("TakenSeat"), {"type": "object", "required": []string{"seat"}, "additionalProperties": false,
		"properties": obj{"seat": obj{"type": "null"}}}}}, "to one connection: the seat the game master gave it (with its seat token, sent this once), or {seat: null} once freed"},
	{core.EventInitiativeRequested, obj{"type": "object", "additionalProperties": false, "properties": obj{
		"combatants": arrayOf(obj{"type": "string"}), "seats": arrayOf(obj{"type": "string"})}}, "combat started: seated players roll their initiative"},
	{core.EventRoleChanged, roleSchema, "to one connection: the game master changed its role"},
	{core.EventJournalUpdated, ref("Journal"), "the handout journal changed: something was shown, taken back or shown again (players get theirs, without what was taken back)"},
	{core.EventAccessChanged, obj{"type": "object", "additionalProperties": false, "required": []string{"enabled"},
		"properties": obj{"enabled": obj{"type": "boolean"}}}, "the join key was turned on, off or drawn anew (the host console only; never the key)"},
	{"error", obj{"type": "object", "required": []string{"message", "kind"}, "additionalProperties": false, "properties": obj{
		"message": obj{"type": "string"},
		"kind":    obj{"type": "string", "enum": []string{"invalid", "not found", "conflict", "too large", "forbidden", "internal", "rate limited"}},
		"request": obj{"type": "string", "description": "the request's name; absent when the frame could not be read"}}},
		"the answer to a failed request, to its sender alone"},
}

var trackedObjects = obj{"anyOf": []obj{ref("TrackedObject"), arrayOf(ref("TrackedObject"))}}

// wireReplies lists the data of the answer to each request a client sends:
// an envelope under the request's own name whose responseId is the
// request's requestId (a failed request is answered error instead). The
// document's x-replies indexes them as x-events does the events.
var wireReplies = []wireEvent{
	{core.EventClientUpdated, ref("Ok"), "registered"},
	{core.RequestMapViewportUpdated, ref("Ok"), "recorded"},
	{core.EventTokenMoved, obj{"anyOf": []obj{ref("Ok"), ref("Movement")}}, "accepted; a refused move is answered block at the committed position, even without a requestId"},
	{core.EventPointerUpdated, ref("Ok"), "moved"},
	{core.RequestUpdateDoor, obj{"type": []string{"array", "null"}, "items": ref("Sight")}, "the sights after the door changed"},
	{core.RequestUpdateToken, obj{"anyOf": []obj{ref("TokenOnMap"), ref("HiddenToken")}}, "the stored token"},
	{core.RequestUpdateEntity, ref("Entity"), "the stored entity"},
	{core.RequestUpdateCombatant, obj{"anyOf": []obj{ref("Combatant"), ref("Hidden")}}, "the stored combatant"},
	{core.RequestCreateMessage, ref("Message"), "the stored message, dice rolled"},
	{core.RequestGetAttribute, ref("Attribute"), "the entity's attributes (absent when it has none)"},
	{core.RequestSetAttribute, ref("Attribute"), "the entity's attributes after the merge"},
	{core.RequestTakeSeat, ref("TakenSeat"), "the seat taken or resumed, with a new seat token only when the server drew one"},
	{core.RequestLeaveSeat, ref("Ok"), "the seat is free"},
	{core.RequestSetRole, roleSchema, "the role now held"},
	{core.RequestGetCharacter, ref("CharacterSheet"), "the seat's character as its player sees it"},
	{core.RequestUpdateCharacter, ref("Entity"), "the stored character after the player's change"},
	{core.RequestChangeHitPoints, ref("HitPoints"), "the hit points after damage, healing or temporary hit points"},
	{core.RequestRollAction, ref("ActionResult"), "the messages the roll posted"},
	{core.RequestRollInitiative, ref("ActionResult"), "the initiative roll's message"},
	{core.RequestEndTurn, ref("Game"), "the game after the turn passed"},
	{core.EventTrackedObjectCreated, ref("Ok"), "recorded"},
	{core.EventTrackedObjectUpdated, ref("Ok"), "recorded"},
	{core.EventTrackedObjectDeleted, ref("Ok"), "recorded"},
	{core.EventTrackedObjectsUpdated, ref("Ok"), "recorded"},
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
	index := func(list []wireEvent, prefix, what string) obj {
		out := obj{}
		for _, e := range list {
			name := prefix + strings.ToUpper(e.name[:1]) + e.name[1:]
			s := obj{}
			for k, v := range e.schema {
				s[k] = v
			}
			s["description"] = "The data of " + what + " " + e.name + ": " + e.when
			schemas[name] = s
			out[e.name] = obj{"schema": "#/components/schemas/" + name, "description": e.when}
		}
		return out
	}
	return index(wireEvents, "Event", "the event"), index(wireRequests, "Request", "the request"), index(wireReplies, "Reply", "the answer to")
}
