package hub

import (
	"context"
	"encoding/json"

	"github.com/vttapp/companion/core"
)

// The handlers of the client events, by name. What the hub does with a
// frame beyond calling its handler follows from the event's row in
// core.EventTable: who may send it (a player, the host console too, or
// nobody: a name without an acted-on row is ignored, even one the server
// itself broadcasts, "any other name is ignored", contract 6.2), whether
// it is answered without a requestId, and its description in the served
// wire document. Adding a client event is one row there plus its handler
// here; TestEveryHandledEventIsDescribed fails when one lacks the other.
//
// Every message from a player passes the flood limits (limits.go): a
// stream's moves are coalesced, everything else is charged to the request
// bucket. The host console's messages never are.
var handlers = map[string]eventHandlers{
	core.EventClientUpdated:        {player: onClientUpdated, host: onHostClientUpdated},
	core.RequestMapViewportUpdated: {player: onViewportUpdated, stream: viewportStream},
	core.EventTokenMoved:           {player: onTokenMoved, host: onHostTokenMoved, stream: dragStream},
	core.RequestUpdateDoor:         {player: onUpdateDoor, host: onHostUpdateDoor},
	core.EventPointerUpdated:       {player: onPointerUpdated, stream: pointerStream},
	core.RequestUpdateToken:        {player: onUpdateToken, host: onHostUpdateToken},
	core.RequestUpdateEntity:       {player: onUpdateEntity, host: onHostUpdateEntity},
	core.RequestUpdateCombatant:    {player: onUpdateCombatant, host: onHostUpdateCombatant},
	core.RequestCreateMessage:      {player: onCreateMessage},
	core.RequestGetAttribute:       {player: onGetAttribute},
	core.RequestSetAttribute:       {player: onSetAttribute},

	core.EventTrackedObjectCreated:  {player: onTrackObject(core.EventTrackedObjectCreated)},
	core.EventTrackedObjectUpdated:  {player: onTrackObject(core.EventTrackedObjectUpdated)},
	core.EventTrackedObjectDeleted:  {player: onTrackObject(core.EventTrackedObjectDeleted)},
	core.EventTrackedObjectsUpdated: {player: onTrackObject(core.EventTrackedObjectsUpdated)},

	// This server's own: seats and a player's character (seats.go,
	// docs/api.md), sent by players only.
	core.RequestTakeSeat:        {player: onTakeSeat},
	core.RequestLeaveSeat:       {player: onLeaveSeat},
	core.RequestSetRole:         {player: onSetRole},
	core.RequestGetCharacter:    {player: onGetCharacter},
	core.RequestUpdateCharacter: {player: onUpdateCharacter},
	core.RequestChangeHitPoints: {player: onChangeHitPoints},
	core.RequestRollAction:      {player: onRollAction},
	core.RequestRollInitiative:  {player: onRollInitiative},
	core.RequestEndTurn:         {player: onEndTurn},

	// Marks on a map (marks.go), players' own and the game master's.
	core.RequestAddMapObject:    {player: onAddMapObject, host: onHostAddMapObject},
	core.RequestUpdateMapObject: {player: onUpdateMapObject, host: onHostUpdateMapObject},
	core.RequestDeleteMapObject: {player: onDeleteMapObject, host: onHostDeleteMapObject},
	core.RequestMoveMapObject:   {player: onMoveMapObject, host: onHostMoveMapObject, stream: markStream},
	core.RequestMeasure:         {player: onMeasure},

	core.RequestPing: {player: onPing},
}

// eventHandlers are the hub's own parts of a client event: its handlers and
// its stream.
type eventHandlers struct {
	player, host handler
	stream       func(id, state string) (key string, coalesce bool)
}

// clientEvents is the dispatch table: every row of core.EventTable a
// client may send (or that is parsed only), with its handlers. Built once
// from the two tables above; handlerProblems lists where they disagree.
var clientEvents = func() map[string]*clientEvent {
	m := map[string]*clientEvent{}
	for i := range core.EventTable {
		spec := &core.EventTable[i]
		if spec.From == core.ByNobody {
			continue
		}
		ev := &clientEvent{spec: spec}
		if spec.Requested() {
			h := handlers[spec.Name]
			ev.player, ev.host, ev.stream = h.player, h.host, h.stream
			if spec.From == core.ByPlayers {
				ev.host = onHostSeat
			}
		}
		m[spec.Name] = ev
	}
	return m
}()

// handlerProblems lists the handlers without a row of core.EventTable that
// a client may send, and the rows a client may send without a handler.
func handlerProblems() []string {
	var out []string
	for name := range handlers {
		if spec := core.EventSpecOf(name); spec == nil || !spec.Requested() {
			out = append(out, name+": handled, but core.EventTable does not describe it as a request")
		}
	}
	for _, spec := range core.EventTable {
		if spec.Requested() && handlers[spec.Name].player == nil {
			out = append(out, spec.Name+": described as a request in core.EventTable, but the hub has no handler")
		}
	}
	return out
}

// clientEvent is what the hub does with one client event.
type clientEvent struct {
	spec *core.EventSpec
	// player acts on the event from a player's connection; nil: the event
	// is parsed and ignored.
	player handler
	// host acts on it from the host console's socket (host.go) where the
	// game master's rights differ from a player's; nil: as player.
	host handler
	// stream makes the event a live stream, coalesced by the flood limits
	// (limits.go): given the id and state a message names, it returns
	// the stream's key within the event (one token's drag, one pointer)
	// and whether the message is a move that a newer one may replace (a
	// state such as start or end never is). nil: every message is a
	// request.
	stream func(id, state string) (key string, coalesce bool)
}

// alwaysAnswered: the reply goes back even without a requestId.
func (e *clientEvent) alwaysAnswered() bool { return e.spec != nil && e.spec.AlwaysAnswered }

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
