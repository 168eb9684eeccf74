package kernel

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
)

// Who a message is from. A message names its speaker in `source` (the
// sender) and `creature` (whom they speak or roll as); the contract lets a
// client write both, and a message without a source is the game master's.
// Where the server knows better, it names the speaker itself:
//
//   - The game master's messages (the host console) are marked `gm`, which
//     no message from the public listener ever carries.
//   - A player holding a seat speaks under their own name: `source` is the
//     player's name as they took the seat (the character's name when they
//     gave none), and `creature` is their character's name when they speak
//     as anyone at all. Whatever else the client wrote there is replaced:
//     a seated player never speaks as another player or another character.
//   - Anyone without a seat (an anonymous tool with the join key off, as
//     the contract has it, or a player who took no seat) keeps the source
//     and creature they give, except that a name a seat holds (a seated
//     character's, or the name its player sits under) comes only from that
//     seat: naming one is refused. With the join key on the game master
//     has taken charge of who plays, so such a message also always has a
//     source (the client's registered name, else "Guest") and never names
//     the game master.
//
// A roll is the server's: a message a client sends as already rolled
// (type roll or tableRoll) is rolled again from its formula, or kept as
// plain chat when it has none (clientRoll), so a result a client wrote by
// hand is never stored as a roll.

// heldSeats lists the seats of the primary campaign that someone holds
// (none when there is no primary campaign: the message will not be stored
// either).
func (s Pinned) heldSeats(ctx context.Context) ([]chat.HeldSeat, error) {
	all, err := s.seatSlots(ctx)
	return slices.DeleteFunc(all, func(h chat.HeldSeat) bool { return h.Holder == "" }), err
}

// signMessage names the speaker of a message about to be posted (see the
// rules above).
func (s Pinned) signMessage(ctx context.Context, m *core.Message, by chat.MessageAuthor) error {
	m.GM = by.Gm
	if by.Gm {
		return nil
	}
	seats, err := s.heldSeats(ctx)
	if err != nil {
		return err
	}
	for _, st := range seats {
		if by.Who.Seat != "" && st.Holder == by.Who.Seat {
			asCharacter := strings.TrimSpace(m.Creature) != "" || chat.SameName(m.Source, st.Character)
			m.Source = cmp.Or(strings.TrimSpace(st.Player), st.Character)
			m.Creature = ""
			if asCharacter {
				m.Creature = st.Character
			}
			return nil
		}
	}
	for _, name := range []string{m.Source, m.Creature} {
		for _, st := range seats {
			if chat.SameName(name, st.Character) || chat.SameName(name, st.Player) {
				return core.Forbiddenf("'%s' has a seat at the table: only the player in %s's seat speaks as them", core.Clip(strings.TrimSpace(name)), st.Character)
			}
		}
	}
	if !s.JoinKeyOn(ctx) {
		return nil // the contract: a client names itself
	}
	for _, name := range []string{m.Source, m.Creature} {
		for _, gm := range chat.GMNames {
			if chat.SameName(name, gm) {
				return core.Forbiddenf("only the game master speaks as the game master")
			}
		}
	}
	if strings.TrimSpace(m.Source) == "" {
		m.Source = cmp.Or(strings.TrimSpace(by.Who.Name), chat.GuestName)
	}
	return nil
}
