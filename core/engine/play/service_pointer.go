package play

import (
	"github.com/vttapp/companion/core"
)

// MovePointer re-broadcasts a client's shared pointer as pointerUpdated.
// The pointer is the client's own: its id and source are the client's id,
// its name is the client's registered one, and its colour defaults to the
// client's. Refused when remote interaction
// is off. The game master's pointer reaches the players looking at the
// player screen.
func (s *PlayRoom) MovePointer(from core.EventSource, p core.Pointer) error {
	return s.MovePointerOn(from, p, s.ScreenMapNow())
}
