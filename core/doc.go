// Package core is the game state and the one place that changes it. It
// knows nothing of HTTP, WebSocket, Lua or templates: routes call it, the
// store and the game system plug into interfaces it declares.
//
// # Where things live
//
// Files named service*.go hold every method of Service; the other files
// hold types and pure functions, each named after what it defines.
//
//   - Domain types: content.go (Module, Campaign, Entity, Object), game.go
//     (Game, Combatant, StatusEffect), maps.go (Map, Wall, Light, Token),
//     message.go (Message, the Roller interface), shapes.go (what clients
//     send and receive live: Client, Screen, Snapshot, Movement, Pointer,
//     Settings...), live.go (Live: settings and tracked objects, memory
//     only), newmap.go, hostcampaign.go, combat.go, screen.go.
//   - Interfaces the core needs: store.go (Store and Tx, implemented by
//     store/sqlite), rules.go (Rules and SwappableRules, implemented by
//     systems.Holder; the optional InitiativeRules, InitiativeSorter,
//     TokenRules and RangeLister beside the code that asks them),
//     events.go (Event, Publisher and the Bus), eventtable.go (every
//     WebSocket event's row: who sends it, its shapes, its answer).
//   - Errors and limits: errors.go (Error and its kinds, which routes map
//     to HTTP statuses), limits.go (every bound on what a write may store).
//   - Pure rules of play: turnorder.go (also the place an added combatant
//     takes among explicit orders), effects.go, gamecontrol.go
//     (combat steps), merge.go (RFC 7386 merge patch), messagecontent.go,
//     fog.go (the game master's fog edits; the mask they paint, a raster
//     and its PNG, is package fog), dragrights.go, serverowned.go (the
//     fields a client's write never changes).
//   - Sight: sightpayload.go (whose vision is cast on a map, a token and a
//     drag, against which walls; the polygons as clients read them). The
//     geometry, the angular sweep, is package sight.
//   - Drags: drag.go and hostdrag.go (Drags: token drag streams, committed
//     at their end; the service owns one, Service.Drags), dragsweep.go
//     (which published events may end a drag, and the sweep that ends
//     the drags that lost their right).
//   - Messages: message.go (a player's text made text: playerText),
//     messagecontent.go (what the real client reads), rollresult.go
//     (RollResult: a roll as the engine made it, read once).
//
// # The write path
//
// A write is a Service method. It pins the system's rules once (pinned,
// service_pin.go), so a reload in the middle of the request cannot mix two
// versions of a system; then runs its change in one store transaction
// through write (service.go), which holds the commit lock from before the
// transaction until the events are published. Events therefore reach
// subscribers in commit order, and none are published when the change
// fails. Generation counts committed writes, so read caches can key on it.
// The importers (package imports) change content in bulk through
// ChangeContent, which publishes reload rather than an event per row.
//
// # Views
//
// Players never receive what the game master hides. playerview.go and
// playertokens.go shape what players see of one object: hidden tokens,
// combatants and dm-layer objects left out, combatants without notes or a
// foe's numbers (data, attributes, modifiers, its effects'), a hidden
// combatant's turn shown as the previous visible one's, only the party's
// sight (PartySight, sightpayload.go). playerscreen.go holds the rules
// that need the store: players see the map on the player screen only, and
// combatants that name only tokens they see. playeraccess.go is the public
// API's reads and writes. A player's write puts back what the view left
// out and what players may not decide (serverowned.go).
// When players and the host must receive different payloads, an event
// carries Views{Players, Host} (views.go); HostOnly marks a payload for
// the game master alone. views.go also turns any event's data into what
// players receive (PlayersPayload, ForPlayers: a hidden combatant as
// {id, hidden}, a hidden token with an empty size besides) and what the
// game master receives (HostPayload); the hub encodes each once.
// gamelists.go sends players a combat change as the turn alone when the
// lists they hold would not change.
//
// # Events
//
// events.go names every event and request of the live protocol. Writes
// return the events their change caused; Publish sends events that need no
// store change (drag streams, pointers) through the same ordered path.
package core
