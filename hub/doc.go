// Package hub is the WebSocket side of the live game (contract 6): it
// accepts connections, reads and acts on client events, and sends every
// event the core publishes to every connection. The routes package hands
// it upgrades; it knows nothing of HTTP routing.
//
// Its surface is small:
//
//   - New starts a hub on a service and its event bus, with Options (send
//     queue, frame size, timeouts, and the flood limits of limits.go);
//   - Hub.ServeHTTP attaches a player's connection (an upgrade on any
//     path), Hub.ServeHost the host console's (the game master's payloads,
//     never limited);
//   - broadcasting needs no call: New subscribes the hub to the bus, and
//     every event a core write publishes reaches every connection;
//   - Hub.Clients serves the host console; Hub.Close ends it all.
//
// # Client events
//
// events.go is the one table of the client events (contract 6.2): a row
// per event names its handlers (handlers.go, one core call each) and how
// the hub treats it (answered without a requestId, coalesced as a
// stream). dispatch.go reads each frame, finds its row or ignores it,
// and answers. What players and the game master receive of an event is
// the core's to say (core/redact/views.go); the hub encodes it.
//
// # Broadcasts run inside the core's commit lock
//
// engine.Service publishes a write's events while it still holds its write
// lock, after the commit, and the bus calls its subscribers synchronously.
// So the hub's subscriber (Hub.broadcast) runs inside that lock, and the
// next write cannot commit until it returns. That is on purpose: a
// broadcast puts its frames on every connection before the next write's
// frames exist, so every client receives the events in commit order, the
// order the store applied them (a tokenUpdated never overtakes the
// tokenMoved end it follows), with no sequence numbers or reordering.
//
// The price is that a broadcast must never wait for a client, or one slow
// phone would stall every write. It does not: it encodes each event once
// (and once more for the host console when the game master's view
// differs), then appends it to each connection's bounded send queue
// (queue.go). Each connection has one writer goroutine, as in gorilla's
// chat example, which sends what its queue holds through gorilla's writer
// under its write deadline, several waiting frames in one system call
// (batch.go). The broadcast never touches a socket, and the queue's lock is
// held elsewhere only around slice operations. A connection whose queue is
// full (Options.SendQueue, default 1024 messages) is closed with 1013
// rather than waited for. What the lock does pay for is CPU: encoding plus
// one queue append and one wake-up per connection, per event.
package hub
