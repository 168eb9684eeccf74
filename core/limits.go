package core

import (
	"encoding/json"
	"fmt"
)

// Limits on what one write may store, in one place (docs/limits.md lists
// them with every other limit of the server).
//
// The request body limit (--max-body, 8 MiB) is about what a connection
// may send; these are about what the campaign keeps. Everything stored is
// read back by every client: a message sits in each GET /api for the next
// thirty posts, an entity is served to every player who opens it. Each
// limit is far above what a real campaign stores (an SRD monster is a few
// kilobytes, a chat line a few hundred bytes) and far below what would let
// one client make the server hold gigabytes. Exceeding one is a KindTooLarge
// error (413 over HTTP, a "too large" error over WebSocket) and nothing is
// written.
const (
	// MaxMessageText is the longest chat or command text, in bytes.
	MaxMessageText = 16 << 10
	// MaxMessageRolls bounds a stored message's dice results (what the
	// server rolled), and the text of a message a client sends as already
	// rolled (its roll object, which the server rolls again from its
	// formula: speaker.go).
	MaxMessageRolls = 256 << 10
	// MaxMessageDice bounds the dice one message rolls (explosions and
	// rerolls included): every die is kept in the message's roll detail,
	// stored and sent to everyone. A fireball is eight, a big one forty.
	MaxMessageDice = 1000
	// MaxMessageField is the longest id, type, source, colour or creature
	// of a message.
	MaxMessageField = 256
	// MaxMessageBytes bounds a whole stored message (JSON), whatever
	// fields it carries.
	MaxMessageBytes = 512 << 10
	// MaxSnapshotMessages bounds the encoded messages of one GET /api:
	// when the last thirty weigh more, the oldest are left out.
	MaxSnapshotMessages = 2 << 20
	// MaxEntityBytes bounds one entity as stored (JSON), attributes and
	// combatant included.
	MaxEntityBytes = 1 << 20
	// MaxAttributesBytes bounds an entity's attributes (JSON).
	MaxAttributesBytes = 256 << 10
	// MaxCombatantBytes bounds one combatant as stored (JSON). Combatants
	// and the tokens of the map on screen are in every GET /api, so they
	// are held tighter than entities.
	MaxCombatantBytes = 256 << 10
	// MaxTokenBytes bounds one token as stored (JSON): a real one is under
	// a kilobyte.
	MaxTokenBytes = 64 << 10
	// MaxPageBytes bounds a page's content (HTML or Markdown): a long
	// chapter of a published adventure is a few hundred kilobytes; the
	// legacy XML reader's limit on one text is the same.
	MaxPageBytes = 4 << 20
	// MaxTrackedField is the longest string id or type of a tracked
	// object (their number and contours are capped in live.go), and
	// the longest id or colour of a pointer.
	MaxTrackedField = 256
	// MaxTrackedContourTotal bounds the contour numbers of all tracked
	// objects together: they are in every GET /api, encoded per request.
	MaxTrackedContourTotal = 64 << 10
)

// tooLarge is the KindTooLarge error of a stored value over its limit.
func tooLarge(what string, size, limit int) error {
	return TooLargef("%s is %s, more than the limit of %s", what, byteSize(size), byteSize(limit))
}

// byteSize writes n as bytes, KiB or MiB, whichever is exact.
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

// checkMessageInput bounds a message as a client sent it, before its dice
// are rolled.
func checkMessageInput(m *Message) error {
	for _, f := range []struct{ name, value string }{
		{"id", m.ID}, {"type", m.Type}, {"source", m.Source}, {"color", m.Color}, {"creature", m.Creature},
	} {
		if len(f.value) > MaxMessageField {
			return tooLarge("message: '"+f.name+"'", len(f.value), MaxMessageField)
		}
	}
	limit := MaxMessageText
	if m.Type == MessageRoll || m.Type == "tableRoll" {
		// An already rolled message carries its result as its text.
		limit = MaxMessageRolls
	}
	if len(m.Text) > limit {
		return tooLarge("message: 'text'", len(m.Text), limit)
	}
	return nil
}

// checkMessageText bounds the text of a message once it is known to be
// words or a command (a roll sent as already rolled may be longer until
// clientRoll has made its command of it).
func checkMessageText(m *Message) error {
	if len(m.Text) > MaxMessageText {
		return tooLarge("message: 'text'", len(m.Text), MaxMessageText)
	}
	return nil
}

// checkMessageRolls bounds what rolling a message's dice produced: the
// dice rolled, and the size of their results.
func checkMessageRolls(rolls []RollResult) error {
	size, dice := 0, 0
	for _, r := range rolls {
		size += r.Size()
		dice += r.Dice()
	}
	if dice > MaxMessageDice {
		return TooLargef("message: it rolls %d dice, more than the limit of %d in one message; roll them in several messages", dice, MaxMessageDice)
	}
	if size > MaxMessageRolls {
		return tooLarge("message: its dice results", size, MaxMessageRolls)
	}
	return nil
}

// checkEncodedSize bounds the JSON form of a value about to be stored.
func checkEncodedSize(what string, v any, limit int) error {
	data, err := json.Marshal(v)
	if err != nil {
		return Invalidf("%s: %s", what, JSONErrorText(err))
	}
	if len(data) > limit {
		return tooLarge(what, len(data), limit)
	}
	return nil
}

// checkEntitySize bounds an entity and its attributes.
func checkEntitySize(e *Entity) error {
	if err := checkEncodedSize("entity: 'attributes'", e.Attributes, MaxAttributesBytes); err != nil {
		return err
	}
	return checkEncodedSize("entity", e, MaxEntityBytes)
}

// checkPointer bounds the strings of a pointer a client moves: it is
// broadcast to every client many times a second.
func checkPointer(p *Pointer) error {
	if len(p.ID) > MaxTrackedField {
		return tooLarge("pointerUpdated: 'id'", len(p.ID), MaxTrackedField)
	}
	if len(p.Color) > MaxTrackedField {
		return tooLarge("pointerUpdated: 'color'", len(p.Color), MaxTrackedField)
	}
	return nil
}

// checkTrackedObject bounds the strings of a tracked object.
func checkTrackedObject(o *TrackedObject) error {
	if id, ok := o.ID.(string); ok && len(id) > MaxTrackedField {
		return tooLarge("tracked object: 'id'", len(id), MaxTrackedField)
	}
	if len(o.Type) > MaxTrackedField {
		return tooLarge("tracked object: 'type'", len(o.Type), MaxTrackedField)
	}
	return nil
}

// checkTrackedContours bounds the contours of the tracked set once objects
// (under keys) are stored in it; replace says they replace the whole set.
// The caller holds the set's lock.
func checkTrackedContours(set map[string]*TrackedObject, keys []string, objects []*TrackedObject, replace bool) error {
	total := 0
	incoming := make(map[string]bool, len(keys))
	for i, o := range objects {
		if !incoming[keys[i]] {
			total += len(o.Contour)
		}
		incoming[keys[i]] = true
	}
	if !replace {
		for k, o := range set {
			if !incoming[k] {
				total += len(o.Contour)
			}
		}
	}
	if total > MaxTrackedContourTotal {
		return TooLargef("tracked objects: their contours would hold %d numbers, more than the limit of %d", total, MaxTrackedContourTotal)
	}
	return nil
}

// trimSnapshotMessages leaves out the oldest of the recent messages (they
// come oldest first) until their JSON fits MaxSnapshotMessages.
func trimSnapshotMessages(messages []*Message) []*Message {
	size := 0
	for i := len(messages) - 1; i >= 0; i-- {
		data, err := json.Marshal(messages[i])
		if err != nil {
			return messages[i+1:]
		}
		size += len(data) + 1
		if size > MaxSnapshotMessages {
			return messages[i+1:]
		}
	}
	return messages
}
