// Package redact decides what players may see of each object and leaves
// out everything else: a map, a token, a combatant, an entity and the
// game as a player reads them, an event's payload for players and for the
// game master, and whose sight polygons a map carries for each (the
// party's for players, every caster's for the game master).
//
// It is the one place "hidden means hidden" is decided for a single
// object. The rules that need the store (which map is on the player
// screen, which tokens a seat sees) are the engine's, which calls this
// package for every payload it hands players.
package redact
