package core

import "sync"

// Event is something the application broadcasts to connected clients. Data
// is marshalled to JSON by the transport.
type Event struct {
	Name string
	Data any
}

// Publisher receives events after the change they describe is committed.
type Publisher interface {
	Publish(events ...Event)
}

// Event names the application broadcasts (contract 6.3) and the requests
// clients may send (contract 6.2).
const (
	EventGameUpdated       = "gameUpdated"
	EventCombatantsUpdated = "combatantsUpdated"
	EventSystemPaused      = "systemPaused"

	EventScreenUpdated      = "screenUpdated"
	EventInteractionUpdated = "interactionUpdated"
	EventReload             = "reload"

	EventMapUpdated             = "mapUpdated"
	EventMapLoaded              = "mapLoaded"
	EventMapFrameUpdated        = "mapFrameUpdated"
	EventMapFitScreen           = "mapFitScreen"
	EventMapFocus               = "mapFocus"
	EventMapVideoControlUpdated = "mapVideoControlUpdated"

	EventTokenUpdated        = "tokenUpdated"
	EventTokensUpdated       = "tokensUpdated"
	EventMarkerUpdated       = "markerUpdated"
	EventMarkersUpdated      = "markersUpdated"
	EventTileUpdated         = "tileUpdated"
	EventTilesUpdated        = "tilesUpdated"
	EventLightUpdated        = "lightUpdated"
	EventLightsUpdated       = "lightsUpdated"
	EventAreaEffectUpdated   = "areaEffectUpdated"
	EventAreaEffectsUpdated  = "areaEffectsUpdated"
	EventMeasurementUpdated  = "measurementUpdated"
	EventMeasurementsUpdated = "measurementsUpdated"

	EventMapMoved        = "mapMoved"
	EventTokenMoved      = "tokenMoved"
	EventMarkerMoved     = "markerMoved"
	EventTileMoved       = "tileMoved"
	EventAreaEffectMoved = "areaEffectMoved"
	EventPointerMoved    = "pointerMoved"

	EventFogUpdated         = "fogUpdated"
	EventDrawingsUpdated    = "drawingsUpdated"
	EventLineOfSightUpdated = "lineOfSightUpdated"
	EventPointerUpdated     = "pointerUpdated"

	EventEntityCreated    = "entityCreated"
	EventEntityUpdated    = "entityUpdated"
	EventEntityDeleted    = "entityDeleted"
	EventCombatantCreated = "combatantCreated"
	EventCombatantUpdated = "combatantUpdated"
	EventCombatantDeleted = "combatantDeleted"

	EventMessageCreated  = "messageCreated"
	EventMessagesUpdated = "messagesUpdated"
	EventMessageDeleted  = "messageDeleted"

	EventClientConnected    = "clientConnected"
	EventClientDisconnected = "clientDisconnected"
	EventClientUpdated      = "clientUpdated"
	EventApp                = "app"

	EventTrackedObjectCreated  = "trackedObjectCreated"
	EventTrackedObjectUpdated  = "trackedObjectUpdated"
	EventTrackedObjectDeleted  = "trackedObjectDeleted"
	EventTrackedObjectsUpdated = "trackedObjectsUpdated"

	// Client requests (contract 6.2) that are not also broadcast names.
	RequestMapViewportUpdated = "mapViewportUpdated"
	RequestUpdateDoor         = "updateDoor"
	RequestUpdateToken        = "updateToken"
	RequestUpdateEntity       = "updateEntity"
	RequestUpdateCombatant    = "updateCombatant"
	RequestCreateMessage      = "createMessage"
	RequestGetAttribute       = "getAttribute"
	RequestSetAttribute       = "setAttribute"
	RequestCreateEntity       = "createEntity"
	RequestCreateCombatant    = "createCombatant"
	RequestDeleteEntity       = "deleteEntity"
	RequestDeleteCombatant    = "deleteCombatant"

	// Events and requests this server adds to the contract's
	// (docs/api.md, "Seats, roles and the join key"): a client that knows
	// none of them plays as contract 6 says.

	// EventSeatsUpdated is broadcast after any seat changes: the seat list
	// as everyone reads it (SeatList).
	EventSeatsUpdated = "seatsUpdated"
	// EventSeatChanged goes to one connection alone: the seat the game
	// master gave it (with its seat token, the only time it is sent), or
	// {"seat": null} once its seat was freed.
	EventSeatChanged = "seatChanged"
	// EventInitiativeRequested asks seated players to roll their
	// initiative (InitiativeRequest).
	EventInitiativeRequested = "initiativeRequested"
	// EventAccessChanged tells the hub and the host console that the join
	// key changed (AccessChanged; no key in it); players never receive it.
	EventAccessChanged     = "accessChanged"
	RequestTakeSeat        = "takeSeat"
	RequestLeaveSeat       = "leaveSeat"
	RequestSetRole         = "setRole"
	RequestGetCharacter    = "getCharacter"
	RequestUpdateCharacter = "updateCharacter"
	RequestChangeHitPoints = "changeHitPoints"
	RequestRollAction      = "rollAction"
	RequestRollInitiative  = "rollInitiative"
	RequestEndTurn         = "endTurn"
	// The marks players and the game master make on a map, by kind
	// (marks.go, markmoves.go, templates.go): this server's own requests.
	RequestAddMapObject    = "addMapObject"
	RequestUpdateMapObject = "updateMapObject"
	RequestDeleteMapObject = "deleteMapObject"
	RequestMoveMapObject   = "moveMapObject"
	RequestMeasure         = "measure"
	// RequestPing asks for nothing but its answer, which comes after
	// everything the connection sent before it was handled: a marker.
	RequestPing = "ping"

	// EventRoleChanged tells one connection the game master changed its
	// role: {"role": "spectator"|"player"}.
	EventRoleChanged = "roleChanged"

	// EventJournalUpdated carries the handout journal after any change
	// (journal.go): to players their journal (entries taken back left
	// out), to the host console every entry.
	EventJournalUpdated = "journalUpdated"

	// EventSoundUpdated carries the table's playback state (package
	// sound) after any change: what plays, from when on the server's clock.
	EventSoundUpdated = "soundUpdated"
	// EventSoundsUpdated is the map object event of ambient sounds
	// (mapkinds.go): {"mapId", "sounds": [...]}, hidden ones left out.
	EventSoundsUpdated = "soundsUpdated"
)

// Bus fans events out to subscribers synchronously, in the order Publish is
// called. Services call Publish while holding their write lock, so every
// subscriber sees events in commit order. Subscribers must not block: the
// WebSocket hub only enqueues.
type Bus struct {
	mu   sync.RWMutex
	next int
	subs map[int]func([]Event)
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{subs: map[int]func([]Event){}} }

// Subscribe registers fn for every later Publish; the returned function
// removes it.
func (b *Bus) Subscribe(fn func([]Event)) (unsubscribe func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	b.subs[id] = fn
	return func() {
		b.mu.Lock()
		delete(b.subs, id)
		b.mu.Unlock()
	}
}

// Publish delivers events to every subscriber.
func (b *Bus) Publish(events ...Event) {
	if len(events) == 0 {
		return
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, fn := range b.subs {
		fn(events)
	}
}

var _ Publisher = (*Bus)(nil)
