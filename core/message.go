package core

import (
	"encoding/json"
	"strings"
	"time"
)

// Message types. Unknown types are read as chat.
const (
	MessageChat    = "chat"
	MessageRoll    = "roll"
	MessageCommand = "command"
)

// Message is an entry in a campaign's shared log. Its words are in Text
// (the contract's field); Content is accepted on input as a synonym.
type Message struct {
	ID       string            `json:"id"`
	Type     string            `json:"type"`
	Source   string            `json:"source,omitempty"`
	Color    string            `json:"color,omitempty"`
	Creature string            `json:"creature,omitempty"`
	Text     string            `json:"text"`
	Rolls    []json.RawMessage `json:"rolls,omitempty"`
	Campaign string            `json:"campaign"`
	Created  time.Time         `json:"created"`
	// Private marks the game master's private roll: stored, shown on the
	// host console only, never sent to players (service_hostmessages.go).
	Private bool `json:"private,omitempty"`
}

// messageWire is Message as accepted on input: content is a synonym of text.
type messageWire struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Source   string          `json:"source"`
	Color    string          `json:"color"`
	Creature string          `json:"creature"`
	Text     *string         `json:"text"`
	Content  json.RawMessage `json:"content"`
}

// DecodeMessage reads a message sent by a client. Server-owned fields (rolls,
// campaign, created) are ignored: the server sets them.
func DecodeMessage(data []byte) (*Message, error) {
	var w messageWire
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, Invalidf("message: %s", jsonErrorText(err))
	}
	m := &Message{ID: w.ID, Type: w.Type, Source: w.Source, Color: w.Color, Creature: w.Creature}
	switch {
	case w.Text != nil:
		m.Text = *w.Text
	case len(w.Content) > 0 && string(w.Content) != "null":
		var s string
		if err := json.Unmarshal(w.Content, &s); err != nil {
			// A roll message may carry its content as an object; keep it as JSON text.
			s = string(w.Content)
		}
		m.Text = s
	}
	if strings.TrimSpace(m.Text) == "" {
		return nil, Invalidf("message: 'text' is required and must not be empty")
	}
	switch m.Type {
	case MessageChat, MessageRoll, MessageCommand, "tableRoll":
	default:
		m.Type = MessageChat
	}
	return m, nil
}

// Roller finds and rolls the dice in a message's text: /roll and /r
// commands and inline [[...]] rolls. core/dice implements it.
type Roller interface {
	// RollText returns the text to store, one JSON result per roll found
	// (in order of appearance; a roll that failed carries its error), and an
	// error of KindInvalid only when nothing usable would be left to store.
	RollText(text string) (stored string, rolls []json.RawMessage, err error)
}

// isRollCommand reports whether text is a /roll or /r chat command, in any
// case and followed by any white space, as the dice engine reads it.
func isRollCommand(text string) bool {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return false
	}
	cmd := strings.ToLower(fields[0])
	return cmd == "/roll" || cmd == "/r"
}

// failedRoll returns the error of a roll command's only roll when it
// failed ({"expression", "error"}), "" otherwise.
func failedRoll(rolls []json.RawMessage) string {
	if len(rolls) != 1 {
		return ""
	}
	var r struct {
		Expression string `json:"expression"`
		Error      string `json:"error"`
	}
	if json.Unmarshal(rolls[0], &r) != nil || r.Error == "" {
		return ""
	}
	return "cannot roll '" + Clip(r.Expression) + "': " + r.Error
}

// withoutPrivate leaves the game master's private rolls out of a list
// players read (GET /api).
func withoutPrivate(list []*Message) []*Message {
	out := list[:0:0]
	for _, m := range list {
		if !m.Private {
			out = append(out, m)
		}
	}
	return out
}
