package core

import (
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
