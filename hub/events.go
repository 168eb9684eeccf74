package hub

import (
	"context"
	"encoding/json"

	"github.com/vttapp/companion/core"
)

// The client events of contract 6.2, one row each. This is the hub's only
// table keyed by a client event's name: dispatch looks each frame's name
// up here, and a name without a row is ignored, even one the application
// knows as a broadcast ("any other name is ignored", contract 6.2).
// Adding a client event is one row here plus its handler (handlers.go);
// the rest (replies, errors, flood limits, the host's socket) follows
// from the row.
//
// Every message from a player passes the flood limits (limits.go): a
// stream's moves are coalesced, everything else is charged to the request
// bucket. The host console's messages never are.
var clientEvents = map[string]*clientEvent{
	core.EventClientUpdated:        {player: onClientUpdated, host: onHostClientUpdated},
	core.RequestMapViewportUpdated: {player: onViewportUpdated, stream: viewportStream},
	core.EventTokenMoved:           {player: onTokenMoved, host: onHostTokenMoved, alwaysAnswered: true, stream: dragStream},
	core.RequestUpdateDoor:         {player: onUpdateDoor, host: onHostUpdateDoor},
	core.EventPointerUpdated:       {player: onPointerUpdated, stream: pointerStream},
	core.RequestUpdateToken:        {player: onUpdateToken, host: onHostUpdateToken},
	core.RequestUpdateEntity:       {player: onUpdateEntity, host: onHostUpdateEntity},
	core.RequestUpdateCombatant:    {player: onUpdateCombatant, host: onHostUpdateCombatant},
	core.RequestCreateMessage:      {player: onCreateMessage},
	core.RequestGetAttribute:       {player: onGetAttribute, alwaysAnswered: true},
	core.RequestSetAttribute:       {player: onSetAttribute},

	core.EventTrackedObjectCreated:  {player: onTrackObject(core.EventTrackedObjectCreated)},
	core.EventTrackedObjectUpdated:  {player: onTrackObject(core.EventTrackedObjectUpdated)},
	core.EventTrackedObjectDeleted:  {player: onTrackObject(core.EventTrackedObjectDeleted)},
	core.EventTrackedObjectsUpdated: {player: onTrackObject(core.EventTrackedObjectsUpdated)},

	// This server's own: seats and a player's character (seats.go,
	// docs/api.md). A client that knows none of them plays as contract 6.2
	// says.
	core.RequestTakeSeat:        {player: onTakeSeat, host: onHostSeat},
	core.RequestLeaveSeat:       {player: onLeaveSeat, host: onHostSeat},
	core.RequestSetRole:         {player: onSetRole, host: onHostSeat},
	core.RequestGetCharacter:    {player: onGetCharacter, host: onHostSeat, alwaysAnswered: true},
	core.RequestUpdateCharacter: {player: onUpdateCharacter, host: onHostSeat},
	core.RequestChangeHitPoints: {player: onChangeHitPoints, host: onHostSeat},
	core.RequestRollAction:      {player: onRollAction, host: onHostSeat},
	core.RequestRollInitiative:  {player: onRollInitiative, host: onHostSeat},
	core.RequestEndTurn:         {player: onEndTurn, host: onHostSeat},

	// Parsed, logged at debug level, and not acted on (contract 6.2).
	core.RequestCreateEntity:    {},
	core.RequestCreateCombatant: {},
	core.RequestDeleteEntity:    {},
	core.RequestDeleteCombatant: {},
}

// clientEvent is what the hub does with one client event.
type clientEvent struct {
	// player acts on the event from a player's connection; nil: the event
	// is parsed and ignored.
	player handler
	// host acts on it from the host console's socket (host.go) where the
	// game master's rights differ from a player's; nil: as player.
	host handler
	// alwaysAnswered: the reply goes back even without a requestId (the
	// value read, the block that snaps a refused drag back).
	alwaysAnswered bool
	// stream makes the event a live stream, coalesced by the flood limits
	// (limits.go): given the id and state a message names, it returns
	// the stream's key within the event (one token's drag, one pointer)
	// and whether the message is a move that a newer one may replace (a
	// state such as start or end never is). nil: every message is a
	// request.
	stream func(id, state string) (key string, coalesce bool)
}

// handler acts on one client event. A non-nil reply is sent to the sender
// alone; whatever the event changed reaches everyone through the bus.
type handler func(ctx context.Context, c *conn, data json.RawMessage) (reply any, err error)

// handlerFor is the handler for a connection: the host's own where there
// is one.
func (e *clientEvent) handlerFor(c *conn) handler {
	if c.host && e.host != nil {
		return e.host
	}
	return e.player
}

// The streams of the flood limits (clientEvent.stream).

// viewportStream: a client has one viewport, whatever id it names, and
// every viewport message is a move.
func viewportStream(string, string) (string, bool) { return "", true }

// dragStream: one stream per token dragged; control is a move, start,
// end, cancel and block are states that go out in order.
func dragStream(id, state string) (string, bool) { return id, state == core.DragControl }

// pointerStream: one stream per pointer; a pointer sent without a state
// moves too.
func pointerStream(id, state string) (string, bool) {
	return id, state == "" || state == core.DragControl
}
