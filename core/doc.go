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
//     encounterrun.go, hostseats.go, accesschange.go, tablerolls.go.
//   - Interfaces the engine needs: store.go (Store and Tx, made of one
//     small interface per room, implemented by store/sqlite), rules.go
//     (Rules and SwappableRules, implemented by systems.Holder; the
//     optional InitiativeRules, InitiativeSorter, TokenRules and
//     RangeLister beside the code that asks them), events.go (Event,
//     Publisher and the Bus), eventtable.go (every WebSocket event's row:
//     who sends it, its shapes, its answer).
//   - Errors and limits: errors.go (Error and its kinds, which routes map
//     to HTTP statuses), limits.go (every bound on what a write may store),
//     jsonbounds.go, utf8.go.
//   - Pure rules the types need: turnorder.go (TurnSlot), merge.go (RFC
//     7386 merge patch), messagecontent.go, rollresult.go (RollResult: a
//     roll as the engine made it, read once), fog.go (the game master's fog
//     edits; the mask they paint, a raster and its PNG, is package fog),
//     dragrights.go, serverowned.go (the fields a client's write never
//     changes), playerview.go (whether a map object is hidden from
//     players).
//
// # Its rooms
//
// What is true of one part of the domain on its own lives in a package of
// its own beside it, each importing core and nothing of the engine:
//
//   - core/mapobjects: the table of map object kinds, templates, marks,
//     the grid and its cells, a map's settings change.
//   - core/turns: the turn order and the steps of combat.
//   - core/redact: what players may see of each object, and whose sight
//     polygons they receive. Players never receive what the game master
//     hides: hidden tokens, combatants and dm-layer objects are left out,
//     combatants come without notes or a foe's numbers, only the party's
//     sight is sent. When players and the host must receive different
//     payloads, an event carries Views{Players, Host}.
//   - core/pages: the library's pages rendered for their reader.
//
// The engine (core/engine) changes the game through these; the rules
// that need the store (which map is on the player screen, which tokens a
// seat sees) are its own.
//
// # Events
//
// events.go names every event and request of the live protocol. The
// engine's writes return the events their change caused and publish them
// after the commit, in commit order.
package core
