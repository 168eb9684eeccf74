package engine

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/vttapp/companion/core/redact"

	"github.com/vttapp/companion/core"
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

// gmRecipient is how a message to the game master names its recipient.
const gmRecipient = "GM"

// maxNameWords bounds the words of one name /w reads (the longest name
// tried at each recipient).
const maxNameWords = 8

// wordAt finds the words of a whisper's head, with where each ends.
var wordAt = regexp.MustCompile(`\S+`)

// privateCommand reads the command of a private message: "gmroll" or
// "w" and what follows it, or "" for any other text.
func privateCommand(text string) (cmd, rest string) {
	t := strings.TrimLeft(text, " \t")
	head, tail, _ := strings.Cut(t, " ")
	switch strings.ToLower(head) {
	case "/gmroll", "/gr":
		return "gmroll", tail
	case "/w", "/whisper":
		return "w", tail
	}
	return "", ""
}

// seatSlots lists every seat of the primary campaign, held or not (none
// without a primary campaign); a seat nobody holds has no holder.
func (s pinned) seatSlots(ctx context.Context) ([]heldSeat, error) {
	var out []heldSeat
	err := s.viewSeats(ctx, func(t *seatTable) {
		for _, e := range t.characters {
			st := t.seat(e.ID)
			out = append(out, heldSeat{id: e.ID, holder: st.Holder, character: e.Name, player: st.Player})
		}
	})
	return out, err
}

// seatNamed finds the seat a name designates: its player's name or its
// character's (compared as sameName does).
func seatNamed(seats []heldSeat, name string) *heldSeat {
	for i, st := range seats {
		if sameName(name, st.player) || sameName(name, st.character) {
			return &seats[i]
		}
	}
	return nil
}

// isGMName reports whether name designates the game master.
func isGMName(name string) bool {
	return slices.ContainsFunc(gmNames, func(gm string) bool { return sameName(name, gm) })
}

// recipientName is how readers see a seat named as a recipient.
func (h heldSeat) recipientName() string { return cmp.Or(strings.TrimSpace(h.player), h.character) }

// whisperHead splits "/w" text into the recipients it names and the words
// to whisper. Names are separated by commas; each is the longest run of
// words (up to maxNameWords) that names the game master or a seat.
func whisperHead(rest string, seats []heldSeat) (gm bool, to []heldSeat, text string, err error) {
	for {
		rest = strings.TrimLeft(rest, " \t,")
		words := wordAt.FindAllStringIndex(rest, maxNameWords)
		if len(words) == 0 {
			return false, nil, "", core.Invalidf("/w: whisper to whom? Write /w GM <text>, or /w <player or character> <text>")
		}
		matched := false
		for k := len(words); k >= 1; k-- {
			end := words[k-1][1]
			name := strings.TrimSuffix(rest[:end], ",")
			if isGMName(name) {
				gm, matched = true, true
			} else if st := seatNamed(seats, name); st != nil {
				if st.holder == "" {
					return false, nil, "", core.Conflictf("/w: nobody holds %s's seat now: a whisper goes to someone at the table", st.character)
				}
				if !slices.ContainsFunc(to, func(h heldSeat) bool { return h.id == st.id }) {
					to = append(to, *st)
				}
				matched = true
			}
			if !matched {
				continue
			}
			comma := strings.HasSuffix(rest[:end], ",")
			rest = rest[end:]
			if !comma && !strings.HasPrefix(strings.TrimLeft(rest, " \t"), ",") {
				text = strings.TrimSpace(rest)
				if text == "" {
					return false, nil, "", core.Invalidf("/w: nothing to whisper: write the words after the name")
				}
				return gm, to, text, nil
			}
			break
		}
		if !matched {
			first := rest[words[0][0]:words[0][1]]
			return false, nil, "", core.NotFoundf("/w: nobody at the table is called '%s': whisper to GM, or to a player or character by name", core.Clip(strings.TrimSuffix(first, ",")))
		}
	}
}

// addressMessage reads a private message's command (/gmroll, /w) or the
// game master's recipients (ToSeats), and sets who reads the message:
// Private, To, Audience; its text becomes what is said or rolled. A
// message that is none of these is left as it is (the game master's
// Private flag, a private roll of the console, stays as it was given).
func (s pinned) addressMessage(ctx context.Context, m *core.Message, by messageAuthor) error {
	cmd, rest := privateCommand(m.Text)
	if cmd == "" && !(by.gm && len(m.ToSeats) > 0) {
		m.Audience, m.To = nil, nil
		return nil
	}
	seats, err := s.seatSlots(ctx)
	if err != nil {
		return err
	}
	var sender *heldSeat
	if !by.gm {
		if by.who.Seat != "" {
			sender = func() *heldSeat {
				for i, st := range seats {
					if st.holder == by.who.Seat {
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
	var to []heldSeat
	gm := false
	switch cmd {
	case "gmroll":
		if strings.TrimSpace(rest) == "" {
			return core.Invalidf("/gmroll: roll what? Write /gmroll 1d20+3")
		}
		m.Text, gm = "/r "+strings.TrimSpace(rest), true
	case "w":
		if gm, to, m.Text, err = whisperHead(rest, seats); err != nil {
			return err
		}
	default: // the game master's recipients by seat id
		for _, id := range m.ToSeats {
			i := slices.IndexFunc(seats, func(h heldSeat) bool { return h.id == id })
			if i < 0 {
				return core.NotFoundf("no seat '%s': whisper to a seat of the campaign", core.Clip(id))
			}
			if seats[i].holder == "" {
				return core.Conflictf("nobody holds %s's seat now: a whisper goes to someone at the table", seats[i].character)
			}
			if !slices.ContainsFunc(to, func(h heldSeat) bool { return h.id == id }) {
				to = append(to, seats[i])
			}
		}
	}
	m.Private, m.To, m.Audience = true, nil, nil
	if gm || len(to) == 0 {
		m.To = append(m.To, gmRecipient)
	}
	if sender != nil {
		m.Audience = append(m.Audience, sender.holder)
	}
	for _, st := range to {
		m.To = append(m.To, st.recipientName())
		if !slices.Contains(m.Audience, st.holder) {
			m.Audience = append(m.Audience, st.holder)
		}
	}
	return nil
}

// messageEvent is the messageCreated of a stored message: to everyone, to
// the game master alone (a private message with no seat in its
// audience), or to the game master and the seats of its audience.
func messageEvent(m *core.Message) core.Event {
	switch {
	case !m.Private:
		return core.Event{Name: core.EventMessageCreated, Data: m}
	case len(m.Audience) == 0:
		return core.Event{Name: core.EventMessageCreated, Data: redact.HostOnly(m)}
	}
	return core.Event{Name: core.EventMessageCreated, Data: redact.Views{Players: m, Host: m, Seats: slices.Clone(m.Audience)}}
}
