package engine

import (
	"github.com/vttapp/companion/core"
)

// bound is the bound the system declares on a data key of kind, and
// whether it declares one.
func (s pinned) bound(kind, key string) (core.ValueBound, bool) {
	br, ok := s.rules.(core.BoundRules)
	if !ok {
		return core.ValueBound{}, false
	}
	b, ok := br.Bounds(kind)[key]
	return b, ok
}

// editableKeys is the kind's editable list as the loaded system gives it.
func (s pinned) editableKeys(kind string) []string {
	if cr, ok := s.rules.(core.CharacterRules); ok {
		return cr.Editable(kind)
	}
	return nil
}

// hitPointKeys are a kind's hit point keys, which a player changes only
// through damage, healing and temporary hit points (the game master's
// rules), never by writing them: the first range and its temporary hit
// points.
func (s pinned) hitPointKeys(kind string) []string {
	if s.rules == nil {
		return nil
	}
	ranges := s.rules.Ranges(kind)
	if len(ranges) == 0 {
		return nil
	}
	return []string{ranges[0], "temp_" + ranges[0]}
}

// sharedKeys are the data keys a shared combatant and its unique entity
// keep in step: the kind's ranges, and the temporary hit points of the
// first (temp_<range>), so that damage the game master deals to the
// combatant and temporary hit points the player sets on their character
// are one number.
func (s pinned) sharedKeys(kind string) []string {
	ranges := s.rules.Ranges(kind)
	if len(ranges) == 0 {
		return ranges
	}
	return append(ranges, "temp_"+ranges[0])
}
