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

// TooLarge is the KindTooLarge error of a stored value over its limit.
func TooLarge(what string, size, limit int) error {
	return TooLargef("%s is %s, more than the limit of %s", what, ByteSize(size), ByteSize(limit))
}

// ByteSize writes n as bytes, KiB or MiB, whichever is exact.
func ByteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

// CheckEncodedSize bounds the JSON form of a value about to be stored.
func CheckEncodedSize(what string, v any, limit int) error {
	data, err := json.Marshal(v)
	if err != nil {
		return Invalidf("%s: %s", what, JSONErrorText(err))
	}
	if len(data) > limit {
		return TooLarge(what, len(data), limit)
	}
	return nil
}

// CheckTrackedContours bounds the contours of the tracked set once objects
// (under keys) are stored in it; replace says they replace the whole set.
// The caller holds the set's lock.
func CheckTrackedContours(set map[string]*TrackedObject, keys []string, objects []*TrackedObject, replace bool) error {
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
