// Package kernel is what the engine's rooms share, and only they may
// import it: Kernel (the store, the publisher, the source of the rules,
// the clock, the state kept in memory) and the helpers two or more rooms
// call.
//
//   - The write path: Write and WriteThen (service.go) run a change in one
//     transaction under the commit lock and publish its events after the
//     commit; Publish sends events that store nothing through the same
//     lock. OnPublished hears every event (the play room's drag tracker).
//   - The rules of one request: Pin returns Pinned (service_pin.go), and
//     every helper that consults the rules has Pinned as receiver, so an
//     unpinned lookup does not compile.
//   - Loading and storing what several rooms change, with the events each
//     change publishes: maps and map objects (maps.go,
//     service_mapobjects.go), tokens (service_tokens.go), combatants and
//     the combat (service_combatants.go, service_combat.go, combat.go),
//     entities (service_entities.go), messages (service_messages.go,
//     speaker.go, whisper.go).
//   - What each seat sees: which map (seatmaps.go, screen.go), the player
//     screen's map and combatants (playerscreen.go), players' tokens
//     (service_players.go).
//   - State in memory: the seats by the hash of their token
//     (seatindex.go), the join key (access.go), seat news paced
//     (seatnews.go), the files maps show (mapfiles.go), live settings and
//     tracked objects (live.go), the marks' live moves (markmoves.go).
//
// A helper one room alone calls belongs in that room, not here.
package kernel
