// Package engine is the one place that changes game state: Service, its
// methods, and the state it keeps in memory beside the store (the drags in
// progress, the seats' index, the join key, the message budget). It works
// on the domain of package core and writes through core.Store; it knows
// nothing of HTTP, WebSocket, Lua or templates: routes and the hub call it.
//
// # Where things live
//
// Files named service*.go hold the methods of Service, one area each
// (maps and tokens, map objects, fog, the screen, combat and turns,
// seats, characters, messages, the library, pages, encounters, random
// tables, content); the other files hold the state and the helpers one
// area needs, each named after what it does.
//
//   - Drags: drag.go and hostdrag.go (Drags: token drag streams, committed
//     at their end; the service owns one, Service.Drags), dragsweep.go
//     (which published events may end a drag, and the sweep that ends the
//     drags that lost their right), markmoves.go (the live moves of marks,
//     for the host's veto).
//   - Seats and access: seatindex.go (the seats by the hash of their
//     token), seatmaps.go (which map each seat and the player screen
//     show), seatnews.go (seatsUpdated, coalesced), access.go (the join
//     key in memory), playeraccess.go (the public API's reads and writes:
//     PlayerAccess), playerscreen.go (players see the map on the player
//     screen only, and combatants that name only tokens they see).
//   - Messages: speaker.go and whisper.go sign a message and work out its
//     readers with the rules of package core/chat (who a message is from,
//     whom a private one reaches, each device's budget of messages).
//   - The library: journal.go, encounterlayout.go; pages are rendered for
//     their reader by package core/pages, random tables rolled by package
//     core/randomtables.
//   - live.go: Live, the host settings and the objects a table-top display
//     tracks, kept in memory only.
//   - mapfiles.go indexes the files maps show, for the static routes.
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
// Publish sends events that need no store change (drag streams, pointers)
// through the same ordered path.
package engine
