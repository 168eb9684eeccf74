package core

// One device's messages, counted across HTTP and the WebSocket: a chat
// line, a command, a sheet's roll, an initiative roll. Every message is
// stored and sent to everyone, so one device posting without pause would
// grow the log and slow every client's reads; the hub's flood limits
// count one connection's requests, and a device may have several, or use
// POST /api/messages instead. The budget is a token bucket per device
// (Actor.Device): MessageBurst at once, then MessageRate a second. The
// game master's messages are never counted, and neither are those of a
// request that names no device (a tool on this machine, without a pass or
// a seat).

// Defaults of the message budget (ServiceConfig.MessageRate and
// MessageBurst).
const (
	// DefaultMessageRate is how many messages a second a device may post
	// once its burst is spent: a person chats and rolls far slower.
	DefaultMessageRate = 1.0
	// DefaultMessageBurst is how many it may post at once (an attack and
	// its damage, a few quick lines).
	DefaultMessageBurst = 10
)
