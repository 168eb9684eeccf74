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
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Source   string       `json:"source,omitempty"`
	Color    string       `json:"color,omitempty"`
	Creature string       `json:"creature,omitempty"`
	Text     string       `json:"text"`
	Rolls    []RollResult `json:"rolls,omitempty"`
	Campaign string       `json:"campaign"`
	Created  time.Time    `json:"created"`
	// Private marks a message not everyone reads (whisper.go): the game
	// master's private roll, a player's /gmroll, a whisper. The game
	// master reads every one; players only those whose Audience holds
	// their seat. Nobody else receives anything of it.
	Private bool `json:"private,omitempty"`
	// To names the recipients of a private message as its readers see
	// them ("GM", a player's name), for the mark clients show.
	To []string `json:"to,omitempty"`
	// Audience lists the seats (the hashes of their holders' seat tokens)
	// that read a private message besides the game master: its sender's
	// and its recipients'. Empty on a private message: the game master's
	// alone. It is kept in a column of its own and never sent.
	Audience []string `json:"-"`
	// ToSeats is input only: the seats (character ids) the game master
	// whispers to from the host console (POST /host/api/messages "to").
	ToSeats []string `json:"-"`
	// GM marks a message the game master posted (the host console). No
	// message from the public listener carries it, whatever it names as
	// its source (speaker.go).
	GM bool `json:"gm,omitempty"`
	// Outcome is what the game system named a sheet action's roll (its
	// outcome's title, "Hard success"), shown beside the roll; empty for
	// every other message.
	Outcome string `json:"outcome,omitempty"`
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
		return nil, Invalidf("message: %s", JSONErrorText(err))
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
// commands and inline [[...]] rolls. The dice package implements it, with
// standard types only, so that it need not import core.
type Roller interface {
	// RollText returns the text to store, one JSON result per roll found
	// (in order of appearance; a roll that failed carries its error),
	// whether the text is a roll command (/roll or /r, as the engine reads
	// it: the whole message is one roll), and an error of KindInvalid only
	// when nothing usable would be left to store.
	RollText(text string) (stored string, rolls []json.RawMessage, command bool, err error)
}
