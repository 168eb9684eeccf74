package engine

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

// actorMayMove reports whether who may drag tok under the current mode
// (the lock and whether players see the token are checked elsewhere).
func (s *Kernel) actorMayMove(who core.Actor, tok *core.Token) bool {
	if who.Spectating() {
		return false
	}
	switch s.liveState.Settings().Interaction {
	case core.InteractionAll:
		return true
	case core.InteractionToken:
		return seatMoves(s.heldSeatOf(who.Seat), tok)
	}
	return false
}

// mayMove reports whether the client from may drag tok. The caller holds
// d.mu.
func (d *Drags) mayMove(from string, tok *core.Token) bool {
	return d.svc.actorMayMove(d.actors[from], tok)
}

// SetActor records who a connection is (its role and the seat token hash
// it presented), for its drags. The hub calls it when the connection
// registers, takes or leaves a seat, or changes role; Release forgets it.
func (d *Drags) SetActor(clientID string, who core.Actor) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.actors[clientID] = who
}
