package core

import (
	"slices"
	"strings"
)

// Who may drag a token, by the remote interaction mode:
//
//   - "all": anyone moves any token that is not locked or hidden;
//   - "token": a player moves the tokens of the character whose seat they
//     hold (seats.go) and the tokens the game master gave that seat
//     control of (a familiar, a mount), nothing else; a client without a
//     seat moves nothing;
//   - "none": no one does.
//
// A spectator never moves anything. The hub tells the tracker who each
// connection is (SetActor) whenever its seat or role changes; the seat a
// token hash holds is read from the service's index, so a seat freed by
// the game master stops its holder's drags at once.

// IsPlayerToken reports whether a token stands for a player character.
func IsPlayerToken(t *Token) bool {
	return t.Player || strings.Contains(t.Reference, "/player/") || (t.Combatant != nil && t.Combatant.Player)
}

// seatMoves reports whether a seat's holder may drag tok in mode token:
// the token shows the seat's character, or the seat controls it.
func seatMoves(seat *Seat, tok *Token) bool {
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
func (s *Service) actorMayMove(who Actor, tok *Token) bool {
	if who.spectating() {
		return false
	}
	switch s.live.Settings().Interaction {
	case InteractionAll:
		return true
	case InteractionToken:
		return seatMoves(s.seatHeld(who.Seat), tok)
	}
	return false
}

// mayMove reports whether the client from may drag tok. The caller holds
// d.mu.
func (d *Drags) mayMove(from string, tok *Token) bool {
	return d.svc.actorMayMove(d.actors[from], tok)
}

// SetActor records who a connection is (its role and the seat token hash
// it presented), for its drags. The hub calls it when the connection
// registers, takes or leaves a seat, or changes role; Release forgets it.
func (d *Drags) SetActor(clientID string, who Actor) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.actors[clientID] = who
}
