package core

// Views is an event payload that players and the game master see
// differently. The host console's live socket (routes/hub/host.go) gets
// Host; players get Players, which the hub still redacts as every player
// payload. A nil Players means the event is for the game master alone (a
// private roll, the drag of a hidden token); a nil Host means the host
// gets what players get.
//
// Most events need no Views: their payload is the whole object and the
// hub redacts it for players (a hidden token as {id, hidden}). Views is for
// payloads the core itself must build for players, such as a game whose
// creature list is computed without the hidden combatants.
type Views struct {
	Players any
	Host    any
}

// HostOnly wraps a payload only the game master may receive.
func HostOnly(data any) Views { return Views{Host: data} }

// PlayersView returns the payload players receive from an event's data:
// Views.Players, or the data itself. Tests and other subscribers that
// read what players get use it.
func PlayersView(data any) any {
	if v, ok := data.(Views); ok {
		return v.Players
	}
	return data
}

// HostView returns the payload the game master receives.
func HostView(data any) any {
	if v, ok := data.(Views); ok {
		if v.Host == nil {
			return v.Players
		}
		return v.Host
	}
	return data
}
