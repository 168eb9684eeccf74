package core

// The table of WebSocket events: one row per name a frame may carry, in
// either direction. Everything the server knows about an event by its
// name is here, and nowhere else:
//
//   - the hub dispatches a client's frame by its row (who may send it,
//     whether it is answered even without a requestId); the hub holds
//     the handlers, keyed by the same names, and a test fails when a
//     handler has no row or a row no handler (hub/events.go);
//   - the served description (wire/events.go) lists the events,
//     requests and replies from the rows' shapes and sentences, and the
//     web client's types are generated from it;
//   - the drag tracker sweeps after any event whose row does not say it
//     keeps drags (dragsweep.go).
//
// Adding a request with a reply is one row here, one handler in the hub
// and its test. Shapes name components of the wire description: a Go type
// described in wire/shapes.go, or one of the small shapes of
// wire/events.go (eventShapes). "A|B" is either, "A[]" a list of
// A, and a final "?" allows null.
type EventSpec struct {
	Name string

	// Payload is the shape of the data the server sends under this name
	// (to everyone, or to one connection), When says when; empty when the
	// server never sends it except as a reply.
	Payload, When string

	// From says who may send it as a request, Request is the shape of its
	// data, Asks what it asks for.
	From          Senders
	Request, Asks string
	// Reply is the shape of the answer's data (an envelope under the
	// request's name whose responseId is its requestId), Answer what it
	// says. AlwaysAnswered: the answer goes back even without a requestId
	// (the value read, the block that snaps a refused drag back).
	Reply, Answer  string
	AlwaysAnswered bool

	// KeepsDrags: the event cannot make a drag in progress unlawful (the
	// live streams, clients coming and going, the log, tracked objects,
	// the greeting), so the drag tracker does not sweep after it. Any
	// other event, or a name without a row, costs a sweep, never a wrong
	// block.
	KeepsDrags bool
}

// Senders says who may send an event as a request.
type Senders int

const (
	// ByNobody: only the server sends it; a client's frame under this name
	// is ignored ("any other name is ignored", contract 6.2).
	ByNobody Senders = iota
	// ByClients: players and the host console's socket.
	ByClients
	// ByPlayers: players only; the host console's socket is refused (the
	// game master holds no seat).
	ByPlayers
	// ParsedOnly: contract 6.2 lists it as parsed and not acted on: read,
	// logged at debug level, never answered.
	ParsedOnly
)

// EventError is the name of the answer to a request that failed.
const EventError = "error"

// EventTable is every event, in the order docs/api.md tables them: first
// what the server sends, then what clients send.
var EventTable = []EventSpec{
	{Name: EventApp, Payload: "App", When: "to a new connection, first", KeepsDrags: true},
	{Name: EventClientConnected, Payload: "Client", When: "a player client connects (channel and address only)", KeepsDrags: true},
	{Name: EventClientUpdated, Payload: "Client", When: "a player client registers or changes", KeepsDrags: true,
		From: ByClients, Request: "ClientUpdate", Asks: "a client registers, or changes its name, colour, screen or view; send it first",
		Reply: "Ok", Answer: "registered"},
	{Name: EventClientDisconnected, Payload: "Client", When: "a player client leaves", KeepsDrags: true},
	{Name: EventGameUpdated, Payload: "Game|GameTurn", When: "combat starts, ends or turns, a combatant is added or removed, initiative changes; to players, a change of turn alone carries the turn without the lists (GameTurn)"},
	{Name: EventCombatantUpdated, Payload: "Combatant|Hidden", When: "a combatant changes; one players saw that is now hidden reaches them as {id, hidden}"},
	{Name: EventEntityUpdated, Payload: "Entity", When: "an entity changes"},
	{Name: EventTokenUpdated, Payload: "TokenOnMap|HiddenToken", When: "a token changes; one players saw that is now hidden reaches them as {id, hidden, size: \"\"}"},
	{Name: EventTokensUpdated, Payload: "MapTokens", When: "every token of a map, after one is deleted"},
	{Name: EventTokenMoved, Payload: "Movement", When: "a drag step of any client or of the game master", KeepsDrags: true,
		From: ByClients, Request: "TokenMove", Asks: "a drag step of a token",
		Reply: "Ok|Movement", Answer: "accepted; a refused move is answered block at the committed position, even without a requestId", AlwaysAnswered: true},
	{Name: EventPointerUpdated, Payload: "Pointer", When: "a client's pointer moves", KeepsDrags: true,
		From: ByClients, Request: "PointerUpdate", Asks: "this client's pointer moves",
		Reply: "Ok", Answer: "moved"},
	{Name: EventMapLoaded, Payload: "Map", When: "the game master puts a map on the player screen; to one seat's connections, the map it now looks at once the game master moved the seat to a map of its own or back (a split party; null when the screen shows none)"},
	{Name: EventMapUpdated, Payload: "Map", When: "the map on the player screen changes"},
	{Name: EventLineOfSightUpdated, Payload: "Sight[]?", When: "after a door, a wall or a light changes: the sights, matched by key"},
	// The lists of map objects (mapkinds.go): one event per kind but walls.
	{Name: EventLightsUpdated, Payload: "MapObject[]|MapObjects", When: "a light of a map was added, changed or deleted: every light of that map (players: the list alone, of the map on the player screen; the host console: {mapId, lights})"},
	{Name: EventMarkersUpdated, Payload: "MapObject[]|MapObjects", When: "a marker of a map was added, changed or deleted: every marker of that map players see (players: the list alone, of the map on the player screen; the host console: {mapId, <kind>})"},
	{Name: EventDrawingsUpdated, Payload: "MapObject[]|MapObjects", When: "a drawing of a map was added, changed or deleted: every drawing of that map players see (players: the list alone, of the map on the player screen; the host console: {mapId, <kind>})"},
	{Name: EventAreaEffectsUpdated, Payload: "MapObject[]|MapObjects", When: "an area effect of a map was added, changed or deleted: every area effect of that map players see (players: the list alone, of the map on the player screen; the host console: {mapId, <kind>})"},
	{Name: EventMeasurementsUpdated, Payload: "MapObject[]|MapObjects", When: "a measurement of a map was added, changed or deleted: every measurement of that map players see (players: the list alone, of the map on the player screen; the host console: {mapId, <kind>})"},
	{Name: EventMarkerMoved, Payload: "Movement", When: "a marker is dragged (moveMapObject): its place and the drag's state", KeepsDrags: true},
	{Name: EventAreaEffectMoved, Payload: "Movement", When: "an area effect is dragged (moveMapObject): its origin and the drag's state", KeepsDrags: true},
	{Name: EventMeasurementUpdated, Payload: "MeasurementMove", When: "a ruler is stretched (moveMapObject): the measurement with mapId, the drag's state, source and its distance as the system counts it", KeepsDrags: true},
	{Name: EventTilesUpdated, Payload: "MapObject[]|MapObjects", When: "a tile of a map was added, changed or deleted: every tile of that map players see (players: the list alone, of the map on the player screen; the host console: {mapId, <kind>})"},
	{Name: EventSoundsUpdated, Payload: "MapObject[]|MapObjects", When: "an ambient sound of a map was added, changed or deleted: every sound of that map players hear, hidden ones left out (players: the list alone, of the map on the player screen; the host console: {mapId, sounds})"},
	{Name: EventFogUpdated, Payload: "FogImage", When: "a map's fog mask changed"},
	{Name: EventScreenUpdated, Payload: "Screen", When: "the player screen changes"},
	{Name: EventMapFitScreen, Payload: "ScreenMap", When: "displays fit a map in their view"},
	{Name: EventMapFocus, Payload: "Focus", When: "displays draw attention to a point"},
	{Name: EventMapFrameUpdated, Payload: "Frame", When: "displays follow the game master's view of a map"},
	{Name: EventInteractionUpdated, Payload: "InteractionMode", When: "the game master changed the interaction mode (a bare string)"},
	{Name: EventSystemPaused, Payload: "Paused", When: "the game master paused or resumed (a bare boolean)"},
	{Name: EventMessageCreated, Payload: "Message", When: "a message was posted; a private roll or a whisper only to the host console and the seats that read it", KeepsDrags: true},
	{Name: EventReload, Payload: "ReloadReason", When: "the game system or the content changed: fetch GET /api/system and GET /api again"},
	{Name: EventTrackedObjectCreated, Payload: "TrackedObject|TrackedObject[]", When: "a table display reported objects", KeepsDrags: true,
		From: ByClients, Request: "TrackedObject|TrackedObject[]", Asks: "a table display reports objects", Reply: "Ok", Answer: "recorded"},
	{Name: EventTrackedObjectUpdated, Payload: "TrackedObject|TrackedObject[]", When: "a table display reported objects", KeepsDrags: true,
		From: ByClients, Request: "TrackedObject|TrackedObject[]", Asks: "a table display reports objects", Reply: "Ok", Answer: "recorded"},
	{Name: EventTrackedObjectDeleted, Payload: "TrackedObject|TrackedObject[]", When: "a table display reported objects", KeepsDrags: true,
		From: ByClients, Request: "TrackedObject|TrackedObject[]", Asks: "a table display reports objects", Reply: "Ok", Answer: "recorded"},
	{Name: EventTrackedObjectsUpdated, Payload: "TrackedObject|TrackedObject[]", When: "a table display reported objects", KeepsDrags: true,
		From: ByClients, Request: "TrackedObject|TrackedObject[]", Asks: "a table display reports objects", Reply: "Ok", Answer: "recorded"},

	// Seats, roles and the join key (docs/api.md): events this server adds
	// to the contract's; a client that knows none of them plays as
	// contract 6 says.
	{Name: EventSeatsUpdated, Payload: "SeatList", When: "any seat changed: the seat list as everyone reads it"},
	{Name: EventSeatChanged, Payload: "SeatChange", When: "to one connection: the seat the game master gave it (with its seat token, sent this once), or {seat: null} once freed"},
	{Name: EventInitiativeRequested, Payload: "InitiativeRequest", When: "combat started: seated players roll their initiative"},
	{Name: EventRoleChanged, Payload: "Role", When: "to one connection: the game master changed its role"},
	{Name: EventAccessChanged, Payload: "AccessChange", When: "the join key was turned on, off or drawn anew (the host console only; never the key)"},
	{Name: EventJournalUpdated, Payload: "Journal", When: "the handout journal changed: something was shown, taken back or shown again (players get theirs, without what was taken back)"},
	{Name: EventSoundUpdated, Payload: "SoundState", When: "the game master played, paused, sought, skipped or stopped a playlist, a track ended and the next began, or the screens that play changed: the whole playback state", KeepsDrags: true},
	{Name: EventError, Payload: "ErrorReply", When: "the answer to a failed request, to its sender alone"},

	// What clients send that the server never sends under the same name.
	{Name: RequestMapViewportUpdated, From: ByClients, Request: "ViewportUpdate", Asks: "where this client looks on a map (recorded, never broadcast)",
		Reply: "Ok", Answer: "recorded"},
	{Name: RequestUpdateDoor, From: ByClients, Request: "DoorUpdate", Asks: "opens, closes or locks a door",
		Reply: "Sight[]?", Answer: "the sights after the door changed"},
	{Name: RequestUpdateToken, From: ByClients, Request: "Patch", Asks: "changes a token's fields",
		Reply: "TokenOnMap|HiddenToken", Answer: "the stored token"},
	{Name: RequestUpdateEntity, From: ByClients, Request: "Patch", Asks: "changes an entity's fields",
		Reply: "Entity", Answer: "the stored entity"},
	{Name: RequestUpdateCombatant, From: ByClients, Request: "Patch", Asks: "changes a combatant's fields",
		Reply: "Combatant|Hidden", Answer: "the stored combatant"},
	{Name: RequestCreateMessage, From: ByClients, Request: "MessageInput", Asks: "posts a message: a chat line, or a command such as /roll",
		Reply: "Message", Answer: "the stored message, dice rolled"},
	{Name: RequestGetAttribute, From: ByClients, Request: "AttributeRead", Asks: "reads an entity's attributes",
		Reply: "Attribute", Answer: "the entity's attributes (absent when it has none)", AlwaysAnswered: true},
	{Name: RequestSetAttribute, From: ByClients, Request: "Attribute", Asks: "merges attributes into an entity's",
		Reply: "Attribute", Answer: "the entity's attributes after the merge"},
	{Name: RequestTakeSeat, From: ByPlayers, Request: "SeatRequest", Asks: "takes a seat (seatId, with the player's name) or resumes one held before (seatToken)",
		Reply: "TakenSeat", Answer: "the seat taken or resumed, with a new seat token only when the server drew one"},
	{Name: RequestLeaveSeat, From: ByPlayers, Request: "NoData", Asks: "frees this client's seat",
		Reply: "Ok", Answer: "the seat is free"},
	{Name: RequestSetRole, From: ByPlayers, Request: "Role", Asks: "becomes a spectator, or a player again",
		Reply: "Role", Answer: "the role now held"},
	{Name: RequestGetCharacter, From: ByPlayers, Request: "NoData", Asks: "reads the seat's character",
		Reply: "CharacterSheet", Answer: "the seat's character as its player sees it", AlwaysAnswered: true},
	{Name: RequestUpdateCharacter, From: ByPlayers, Request: "CharacterPatch", Asks: "changes the seat's character",
		Reply: "Entity", Answer: "the stored character after the player's change"},
	{Name: RequestChangeHitPoints, From: ByPlayers, Request: "HitPointsChange", Asks: "damage, healing or temporary hit points for the seat's character",
		Reply: "HitPoints", Answer: "the hit points after damage, healing or temporary hit points"},
	{Name: RequestRollAction, From: ByPlayers, Request: "ActionRoll", Asks: "rolls one of the sheet's actions into the chat (private: to the game master only)",
		Reply: "ActionResult", Answer: "the messages the roll posted"},
	{Name: RequestRollInitiative, From: ByPlayers, Request: "NoData", Asks: "rolls the seat's initiative",
		Reply: "ActionResult", Answer: "the initiative roll's message"},
	{Name: RequestEndTurn, From: ByPlayers, Request: "TurnPass", Asks: "ends the seat's turn (data optional: {to}, whom to pass it to, when the system's turns are passed)",
		Reply: "Game", Answer: "the game after the turn passed"},

	// Marks (marks.go): a player's own, as the interaction mode allows;
	// the game master's socket acts on any.
	{Name: RequestAddMapObject, From: ByClients, Request: "MapObjectAdd", Asks: "places a mark on the map on the player screen: {mapId, kind, object}",
		Reply: "MapObject", Answer: "the mark as stored, with the id the server gave it"},
	{Name: RequestUpdateMapObject, From: ByClients, Request: "MapObjectPatch", Asks: "changes a mark: {mapId, kind, id, patch} (a JSON merge patch)",
		Reply: "MapObject", Answer: "the mark as stored"},
	{Name: RequestDeleteMapObject, From: ByClients, Request: "MapObjectDelete", Asks: "removes a mark {mapId, kind, id}, or without id every mark of the kind the player made on the map",
		Reply: "Ok", Answer: "removed"},
	{Name: RequestMoveMapObject, From: ByClients, Request: "MapObjectMove", Asks: "a live move of a mark: {mapId, kind, id, x, y} (a template, a pin) or {…, data} (a ruler's path), state start, control, end or cancel",
		Reply: "Ok", Answer: "moved; end stores the mark", KeepsDrags: true},
	{Name: RequestMeasure, From: ByClients, Request: "MeasureRequest", Asks: "what a template covers {mapId, areaEffect} or how far a path goes {mapId, path}, by the system's rules",
		Reply: "Measured", Answer: "the squares covered (flat column, row pairs) or the distance, with its units and text"},

	{Name: RequestPing, From: ByClients, Request: "NoData", Asks: "asks for its answer alone, a marker: the connection's frames are handled in order",
		Reply: "Pong", Answer: "every frame the connection sent before it is handled, and what they changed has been sent to it; serverTime is the server's clock as it answered, from which a page estimates its offset (the sound's clock)", AlwaysAnswered: true},

	// Parsed, logged at debug level, and not acted on (contract 6.2).
	{Name: RequestCreateEntity, From: ParsedOnly},
	{Name: RequestCreateCombatant, From: ParsedOnly},
	{Name: RequestDeleteEntity, From: ParsedOnly},
	{Name: RequestDeleteCombatant, From: ParsedOnly},
}

// eventSpecs indexes EventTable by name.
var eventSpecs = func() map[string]*EventSpec {
	m := make(map[string]*EventSpec, len(EventTable))
	for i := range EventTable {
		e := &EventTable[i]
		if m[e.Name] != nil {
			panic("core: two rows of EventTable for " + e.Name)
		}
		m[e.Name] = e
	}
	return m
}()

// EventSpecOf returns the row of the event named name, or nil.
func EventSpecOf(name string) *EventSpec { return eventSpecs[name] }

// Sent reports whether the server sends the event (other than as a reply).
func (e *EventSpec) Sent() bool { return e.Payload != "" }

// Requested reports whether a client may send it and have it acted on.
func (e *EventSpec) Requested() bool { return e.From == ByClients || e.From == ByPlayers }
