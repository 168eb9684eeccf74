package kernel

import (
	"context"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
)

// Private messages: secrets in the chat. A message is private when not
// everyone at the table may read it:
//
//   - /gmroll <dice> rolls to the game master only (the game master's own
//     private roll, or a player's: the player sees it too);
//   - /w GM <text> whispers to the game master; /w <name>[, <name>...]
//     <text> to the players named (their name or their character's) and
//     the game master; the game master whispers to one seat or several
//     the same way, or with the host API's "to" (seat ids).
//
// The game master reads every private message. A player reads those they
// sent or were sent (Message.Audience, the hashes of their seat tokens);
// nobody else receives anything of it: no frame, no line in GET /api, no
// gap in what they read (their list of recent messages is counted among
// those they may read: store's RecentMessagesFor). A player whispers and
// rolls privately from a seat: who they are must be known to whom they
// write, and a seat is what keeps their replies theirs.

// seatSlots lists every seat of the primary campaign, held or not (none
// without a primary campaign); a seat nobody holds has no holder.
func (s Pinned) seatSlots(ctx context.Context) ([]chat.HeldSeat, error) {
	var out []chat.HeldSeat
	err := s.ViewSeats(ctx, func(t *SeatTable) {
		for _, e := range t.Characters {
			st := t.Seat(e.ID)
			out = append(out, chat.HeldSeat{Id: e.ID, Holder: st.Holder, Character: e.Name, Player: st.Player})
		}
	})
	return out, err
}

// addressMessage reads a private message's command (/gmroll, /w) or the
// game master's recipients (ToSeats), and sets who reads the message:
// Private, To, Audience; its text becomes what is said or rolled. A
// message that is none of these is left as it is (the game master's
// Private flag, a private roll of the console, stays as it was given).
func (s Pinned) addressMessage(ctx context.Context, m *core.Message, by chat.MessageAuthor) error {
	cmd, rest := chat.PrivateCommand(m.Text)
	if cmd == "" && !(by.Gm && len(m.ToSeats) > 0) {
		m.Audience, m.To = nil, nil
		return nil
	}
	seats, err := s.seatSlots(ctx)
	if err != nil {
		return err
	}
	var sender *chat.HeldSeat
	if !by.Gm {
		if by.Who.Seat != "" {
			sender = func() *chat.HeldSeat {
				for i, st := range seats {
					if st.Holder == by.Who.Seat {
						return &seats[i]
					}
				}
				return nil
			}()
		}
		if sender == nil {
			return core.Forbiddenf("take a seat first: whispers and private rolls go from a seat at the table")
		}
	}
	var to []chat.HeldSeat
	gm := false
	switch cmd {
	case "gmroll":
		if strings.TrimSpace(rest) == "" {
			return core.Invalidf("/gmroll: roll what? Write /gmroll 1d20+3")
		}
		m.Text, gm = "/r "+strings.TrimSpace(rest), true
	case "w":
		if gm, to, m.Text, err = chat.WhisperHead(rest, seats); err != nil {
			return err
		}
	default: // the game master's recipients by seat id
		for _, id := range m.ToSeats {
			i := slices.IndexFunc(seats, func(h chat.HeldSeat) bool { return h.Id == id })
			if i < 0 {
				return core.NotFoundf("no seat '%s': whisper to a seat of the campaign", core.Clip(id))
			}
			if seats[i].Holder == "" {
				return core.Conflictf("nobody holds %s's seat now: a whisper goes to someone at the table", seats[i].Character)
			}
			if !slices.ContainsFunc(to, func(h chat.HeldSeat) bool { return h.Id == id }) {
				to = append(to, seats[i])
			}
		}
	}
	m.Private, m.To, m.Audience = true, nil, nil
	if gm || len(to) == 0 {
		m.To = append(m.To, chat.GMRecipient)
	}
	if sender != nil {
		m.Audience = append(m.Audience, sender.Holder)
	}
	for _, st := range to {
		m.To = append(m.To, st.RecipientName())
		if !slices.Contains(m.Audience, st.Holder) {
			m.Audience = append(m.Audience, st.Holder)
		}
	}
	return nil
}
