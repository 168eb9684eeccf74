package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
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

// messageAuthor is who posts a message: the game master, or a client of
// the public listener (who).
type messageAuthor struct {
	gm  bool
	who core.Actor
}

// gmNames are the names of the game master a client of the public
// listener may not sign with while the join key is on (compared as
// sameName does).
var gmNames = []string{"game master", "dungeon master", "gm", "dm"}

// guestName signs a message of a player without a seat or a registered
// name while the join key is on.
const guestName = "Guest"

// heldSeat is a seat someone holds: the hash of its token, its character's
// name and the name its player sits under.
type heldSeat struct {
	id, holder, character, player string
}

// heldSeats lists the seats of the primary campaign that someone holds
// (none when there is no primary campaign: the message will not be stored
// either).
func (s pinned) heldSeats(ctx context.Context) ([]heldSeat, error) {
	all, err := s.seatSlots(ctx)
	return slices.DeleteFunc(all, func(h heldSeat) bool { return h.holder == "" }), err
}

// sameName compares two names as a person reads them: case and runs of
// white space do not count.
func sameName(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	return norm(a) != "" && norm(a) == norm(b)
}

// signMessage names the speaker of a message about to be posted (see the
// rules above).
func (s pinned) signMessage(ctx context.Context, m *core.Message, by messageAuthor) error {
	m.GM = by.gm
	if by.gm {
		return nil
	}
	seats, err := s.heldSeats(ctx)
	if err != nil {
		return err
	}
	for _, st := range seats {
		if by.who.Seat != "" && st.holder == by.who.Seat {
			asCharacter := strings.TrimSpace(m.Creature) != "" || sameName(m.Source, st.character)
			m.Source = cmp.Or(strings.TrimSpace(st.player), st.character)
			m.Creature = ""
			if asCharacter {
				m.Creature = st.character
			}
			return nil
		}
	}
	for _, name := range []string{m.Source, m.Creature} {
		for _, st := range seats {
			if sameName(name, st.character) || sameName(name, st.player) {
				return core.Forbiddenf("'%s' has a seat at the table: only the player in %s's seat speaks as them", core.Clip(strings.TrimSpace(name)), st.character)
			}
		}
	}
	if !s.JoinKeyOn(ctx) {
		return nil // the contract: a client names itself
	}
	for _, name := range []string{m.Source, m.Creature} {
		for _, gm := range gmNames {
			if sameName(name, gm) {
				return core.Forbiddenf("only the game master speaks as the game master")
			}
		}
	}
	if strings.TrimSpace(m.Source) == "" {
		m.Source = cmp.Or(strings.TrimSpace(by.who.Name), guestName)
	}
	return nil
}

// sentRoll is the part of a roll a client sends as already rolled (the
// real client's content object, docs/client-compatibility.md) that the
// server rolls again: the formula, and the name and kind that title it.
type sentRoll struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Formula string `json:"formula"`
}

// clientRoll turns a message a client sends as already rolled (type roll
// or tableRoll) into one the server rolls: a roll object with a formula
// becomes the command that rolls it, titled with its name and kind; a
// /roll or /r command stays one; anything else is chat, its text kept as
// words. What the client said it rolled is never kept as a roll.
func clientRoll(m *core.Message) {
	if m.Type != core.MessageRoll && m.Type != core.MessageTableRoll {
		return
	}
	text := strings.TrimSpace(m.Text)
	var r sentRoll
	if strings.HasPrefix(text, "{") && json.Unmarshal([]byte(text), &r) == nil && strings.TrimSpace(r.Formula) != "" {
		title := strings.Join(strings.Fields(r.Name), " ")
		if kind := strings.TrimSpace(r.Type); title != "" && kind != "" {
			title += ":" + kind
		}
		m.Text = "/r " + strings.Join(strings.Fields(r.Formula), " ")
		if title != "" && !strings.ContainsAny(title, "#") {
			m.Text += " # " + title
		}
		m.Type = core.MessageCommand
		return
	}
	m.Type = core.MessageChat
	if lower := strings.ToLower(text); strings.HasPrefix(lower, "/r ") || strings.HasPrefix(lower, "/roll ") {
		m.Type = core.MessageCommand
	}
}
