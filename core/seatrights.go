package core

import (
	"time"
)

// What a player may change on the public listener.
//
// With the join key off the contract holds (section 5: no per-client
// permissions): anyone writes any entity, combatant or token through the
// contract's endpoints, and a spectator is only someone who asked not to
// act. A spectator is refused every change all the same (chat, drags,
// rolls, writes), over HTTP and WebSocket.
//
// With the join key on, the game master decides who plays, and the
// contract's open writes follow the seats: a player changes
//
//   - of entities, only the character whose seat they hold, and in it only
//     the data keys its kind declares editable (never its hit point keys,
//     which change through damage, healing and temporary hit points, with
//     the game master's rules: service_character.go);
//   - of combatants, only their character's, under the same rule;
//   - of tokens, only those they may drag (dragrights.go).
//
// Everything else is refused as forbidden (403), whole: nothing of a
// refused write is stored.

// WithoutData is the entity with its data and what the server sets on
// every write left out, to compare the rest of two versions.
func (e *Entity) WithoutData() *Entity {
	cp := *e
	cp.Data, cp.Modified, cp.Revision = nil, time.Time{}, 0
	return &cp
}
