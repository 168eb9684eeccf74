// Package engine is the one place that changes game state: Service. It
// works on the domain of package core and writes through core.Store; it
// knows nothing of HTTP, WebSocket, Lua or templates: routes and the hub
// call it.
//
// # Rooms
//
// Service is four rooms over one kernel (service.go). Each room is a
// package whose type embeds the kernel, and Service embeds the rooms, so
// a room's methods are Service's: callers say svc.Tokens or svc.ClaimSeat
// without knowing which room answers.
//
//   - core/engine/play: what happens on the map: maps, tokens and their
//     drags (the room owns the drag tracker, Drags), map objects and the
//     marks' live moves, doors, fog, sight, the grid, the pointer, the
//     player screen.
//   - core/engine/seats: who sits at the table: seats, passes and devices,
//     the join key, which map a seat is on, a seat's character sheet, its
//     rolls and hit points.
//   - core/engine/library: the game master's content: campaigns and
//     modules, entities and creatures, pages and handouts, encounters,
//     random tables.
//   - core/engine/table: the game at the table: combat and the turn
//     order, combatants, effects and attributes, chat messages.
//   - core/engine/internal/kernel: what the rooms share (the store, the
//     rules, the write path, the state kept in memory). Service does not
//     embed it, so its helpers (the raw write, the checked puts) never
//     reach callers outside the engine; its own entry points (Publish,
//     Generation, Snapshot...) are offered by name (kernelcalls.go).
//
// A room calls the kernel and nothing else: a method two rooms need
// lives in the kernel. What needs two rooms at once stays here:
// PlayerAccess (playeraccess.go), the public API's reads and writes with
// the rights of seats and roles (seatrights.go; a player's marks,
// marks.go; their live moves, markmoves.go, where the play room moves the
// mark under the guard a player's rights make).
//
// # The write path
//
// A write is a room's method. It pins the system's rules once
// (kernel.Pinned, a room's own pinned type embeds it), so a reload in the
// middle of the request cannot mix two versions of a system; then runs
// its change in one store transaction through the kernel's Write, which
// holds the commit lock from before the transaction until the events are
// published. Events therefore reach subscribers in commit order, and none
// are published when the change fails. Generation counts committed
// writes, so read caches can key on it. The importers (package imports)
// change content in bulk through ChangeContent, which publishes reload
// rather than an event per row. Publish sends events that need no store
// change (drag streams, pointers) through the same ordered path.
//
// The engine's tests stay in this package: they share one set of
// fixtures and reach every room through Service, as callers do.
package engine
