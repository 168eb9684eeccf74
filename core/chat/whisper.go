package chat

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// GMRecipient is how a message to the game master names its recipient.
const GMRecipient = "GM"

// maxNameWords bounds the words of one name /w reads (the longest name
// tried at each recipient).
const maxNameWords = 8

// wordAt finds the words of a whisper's head, with where each ends.
var wordAt = regexp.MustCompile(`\S+`)

// PrivateCommand reads the command of a private message: "gmroll" or
// "w" and what follows it, or "" for any other text.
func PrivateCommand(text string) (cmd, rest string) {
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

// seatNamed finds the seat a name designates: its player's name or its
// character's (compared as sameName does).
func seatNamed(seats []HeldSeat, name string) *HeldSeat {
	for i, st := range seats {
		if SameName(name, st.Player) || SameName(name, st.Character) {
			return &seats[i]
		}
	}
	return nil
}

// isGMName reports whether name designates the game master.
func isGMName(name string) bool {
	return slices.ContainsFunc(GMNames, func(gm string) bool { return SameName(name, gm) })
}

// RecipientName is how readers see a seat named as a recipient.
func (h HeldSeat) RecipientName() string { return cmp.Or(strings.TrimSpace(h.Player), h.Character) }

// WhisperHead splits "/w" text into the recipients it names and the words
// to whisper. Names are separated by commas; each is the longest run of
// words (up to maxNameWords) that names the game master or a seat.
func WhisperHead(rest string, seats []HeldSeat) (gm bool, to []HeldSeat, text string, err error) {
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
				if st.Holder == "" {
					return false, nil, "", core.Conflictf("/w: nobody holds %s's seat now: a whisper goes to someone at the table", st.Character)
				}
				if !slices.ContainsFunc(to, func(h HeldSeat) bool { return h.Id == st.Id }) {
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

// MessageEvent is the messageCreated of a stored message: to everyone, to
// the game master alone (a private message with no seat in its
// audience), or to the game master and the seats of its audience.
func MessageEvent(m *core.Message) core.Event {
	switch {
	case !m.Private:
		return core.Event{Name: core.EventMessageCreated, Data: m}
	case len(m.Audience) == 0:
		return core.Event{Name: core.EventMessageCreated, Data: redact.HostOnly(m)}
	}
	return core.Event{Name: core.EventMessageCreated, Data: redact.Views{Players: m, Host: m, Seats: slices.Clone(m.Audience)}}
}
