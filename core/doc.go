// Package core is the game's domain: what a campaign, a map, a token, a
// combatant, a seat and a message are, the rules that hold for them on
// their own, and the interfaces the rest of the server plugs into. It
// changes nothing itself: package core/engine is the one place that
// changes game state, through the Store declared here. core knows nothing
// of HTTP, WebSocket, Lua or templates.
//
// # Where things live
//
// Files are named after what they define.
//
//   - Domain types: content.go (Module, Campaign, Entity, Object), game.go
//     (Game, Combatant, StatusEffect), maps.go (Map, Wall, Light, Token),
//     message.go (Message, the Roller interface), shapes.go (what clients
//     send and receive live: Client, Screen, Snapshot, Movement, Pointer,
//     Settings...), library.go and libraryitems.go (pages, encounters, groups,
//     assets), tables.go (random tables), seats.go and access.go (seats,
//     the join key's state), newmap.go, hostcampaign.go, combat.go,
//     screen.go.
//   - What the engine's methods take and answer: sheets.go (a character
//     sheet, its actions and a player's hit points), pageviews.go,
//     encounterrun.go, hostseats.go, mapchange.go, accesschange.go,
//     tablerolls.go.
//   - Interfaces the engine needs: store.go (Store and Tx, implemented by
//     store/sqlite), rules.go (Rules and SwappableRules, implemented by
//     systems.Holder; the optional InitiativeRules, InitiativeSorter,
//     TokenRules and RangeLister beside the code that asks them),
//     events.go (Event, Publisher and the Bus), eventtable.go (every
//     WebSocket event's row: who sends it, its shapes, its answer).
//   - Errors and limits: errors.go (Error and its kinds, which routes map
//     to HTTP statuses), limits.go (every bound on what a write may store),
//     jsonbounds.go, utf8.go.
//   - Map objects: mapkinds.go (the table of kinds: a row per list a map
//     holds beside its tokens), marks.go, templates.go, grid.go and
//     hexcells.go (the grid and its cells).
//   - Pure rules of play: turnorder.go and turnpassing.go (the turn order,
//     and the place an added combatant takes among explicit orders),
//     gamecontrol.go (combat steps), merge.go (RFC 7386 merge patch),
//     messagecontent.go, rollresult.go (RollResult: a roll as the engine
//     made it, read once), fog.go (the game master's fog edits; the mask
//     they paint, a raster and its PNG, is package fog), dragrights.go,
//     serverowned.go (the fields a client's write never changes).
//   - Sight: sightpayload.go (whose vision is cast on a map and a token,
//     the polygons as clients read them). The geometry, the angular sweep,
//     is package sight.
//
// # Views
//
// Players never receive what the game master hides. playerview.go and
// playertokens.go shape what players see of one object: hidden tokens,
// combatants and dm-layer objects left out, combatants without notes or a
// foe's numbers (data, attributes, modifiers, its effects'), a hidden
// combatant's turn shown as the previous visible one's, only the party's
// sight (PartySight, sightpayload.go). playerentities.go does the same
// for an entity, seatrights.go for what a seat may change. When players
// and the host must receive different payloads, an event carries
// Views{Players, Host} (views.go); HostOnly marks a payload for the game
// master alone. views.go also turns any event's data into what players
// receive (PlayersPayload, ForPlayers) and what the game master receives
// (HostPayload); the hub encodes each once. The rules that need the store
// (which map is on the player screen, which tokens a seat sees) are the
// engine's.
//
// # Events
//
// events.go names every event and request of the live protocol. The
// engine's writes return the events their change caused and publish them
// after the commit, in commit order.
package core
