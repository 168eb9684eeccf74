package kernel

import (
	"github.com/vttapp/companion/core"
)

// Bound is the bound the system declares on a data key of kind, and
// whether it declares one.
func (s Pinned) Bound(kind, key string) (core.ValueBound, bool) {
	br, ok := s.Rules.(core.BoundRules)
	if !ok {
		return core.ValueBound{}, false
	}
	b, ok := br.Bounds(kind)[key]
	return b, ok
}

// EditableKeys is the kind's editable list as the loaded system gives it.
func (s Pinned) EditableKeys(kind string) []string {
	if cr, ok := s.Rules.(core.CharacterRules); ok {
		return cr.Editable(kind)
	}
	return nil
}

// HitPointKeys are a kind's hit point keys, which a player changes only
// through damage, healing and temporary hit points (the game master's
// rules), never by writing them: the first range and its temporary hit
// points.
func (s Pinned) HitPointKeys(kind string) []string {
	if s.Rules == nil {
		return nil
	}
	ranges := s.Rules.Ranges(kind)
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
func (s Pinned) sharedKeys(kind string) []string {
	ranges := s.Rules.Ranges(kind)
	if len(ranges) == 0 {
		return ranges
	}
	return append(ranges, "temp_"+ranges[0])
}
