package kernel

import (
	"slices"

	"github.com/vttapp/companion/core"
)

// seatMoves reports whether a seat's holder may drag tok in mode token:
// the token shows the seat's character, or the seat controls it.
func seatMoves(seat *core.Seat, tok *core.Token) bool {
	if seat == nil {
		return false
	}
	if tok.EntityID != nil && *tok.EntityID == seat.EntityID {
		return true
	}
	return slices.Contains(seat.Controls, tok.ID)
}

// ActorMayMove reports whether who may drag tok under the current mode
// (the lock and whether players see the token are checked elsewhere).
func (s *Kernel) ActorMayMove(who core.Actor, tok *core.Token) bool {
	if who.Spectating() {
		return false
	}
	switch s.LiveState.Settings().Interaction {
	case core.InteractionAll:
		return true
	case core.InteractionToken:
		return seatMoves(s.HeldSeatOf(who.Seat), tok)
	}
	return false
}
