package chat

import (
	"encoding/json"
	"strings"

	"github.com/vttapp/companion/core"
)

// MessageAuthor is who posts a message: the game master, or a client of
// the public listener (who).
type MessageAuthor struct {
	Gm  bool
	Who core.Actor
}

// GMNames are the names of the game master a client of the public
// listener may not sign with while the join key is on (compared as
// sameName does).
var GMNames = []string{"game master", "dungeon master", "gm", "dm"}

// GuestName signs a message of a player without a seat or a registered
// name while the join key is on.
const GuestName = "Guest"

// HeldSeat is a seat someone holds: the hash of its token, its character's
// name and the name its player sits under.
type HeldSeat struct {
	Id, Holder, Character, Player string
}

// SameName compares two names as a person reads them: case and runs of
// white space do not count.
func SameName(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	return norm(a) != "" && norm(a) == norm(b)
}

// sentRoll is the part of a roll a client sends as already rolled (the
// real client's content object, docs/client-compatibility.md) that the
// server rolls again: the formula, and the name and kind that title it.
type sentRoll struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Formula string `json:"formula"`
}

// ClientRoll turns a message a client sends as already rolled (type roll
// or tableRoll) into one the server rolls: a roll object with a formula
// becomes the command that rolls it, titled with its name and kind; a
// /roll or /r command stays one; anything else is chat, its text kept as
// words. What the client said it rolled is never kept as a roll.
func ClientRoll(m *core.Message) {
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
