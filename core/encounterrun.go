package core

import (
	"strings"
	"unicode"
)

// RunEncounter says how to run an encounter: on which map (the
// encounter's own, else the one on the player screen, when absent), around
// which point when not where the encounter places its creatures, whether
// hidden from players, and whether its creatures join combat (true when
// absent).
type RunEncounter struct {
	MapID  string   `json:"mapId"`
	X      *float64 `json:"x"`
	Y      *float64 `json:"y"`
	Hidden bool     `json:"hidden"`
	Combat *bool    `json:"combat"`
	// Again runs an encounter whose creatures already stand on the map
	// (see alreadyPlaced): without it such a run is refused, since a
	// second click most often means a double click, not a second band.
	Again bool `json:"again"`
}

// EncounterRun is what running an encounter made: the tokens on the map,
// the combatants in the game, and the references no installed entity
// answers (their creatures are placed by name, without a stat block).
type EncounterRun struct {
	MapID      string       `json:"mapId"`
	Tokens     []*Token     `json:"tokens"`
	Combatants []*Combatant `json:"combatants"`
	Missing    []string     `json:"missing,omitempty"`
}

// NameFromReference is a name made from an app URL's slug:
// "/monster/cave-bat" is "Cave Bat" ("Creature" when there is none).
func NameFromReference(ref string) string {
	_, slug, _ := SplitReference(ref)
	words := strings.FieldsFunc(slug, func(r rune) bool { return r == '-' || r == '_' })
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	if len(words) == 0 {
		return "Creature"
	}
	return strings.Join(words, " ")
}
