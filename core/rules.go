package core

// Rules is what the core needs to know of the loaded game system. The
// systems package implements it for the current system.
type Rules interface {
	// SystemID is the loaded system's id.
	SystemID() string
	// IsUnique reports whether entities of kind are unique (a character):
	// their combatant is shared and kept in step with them.
	IsUnique(kind string) bool
	// Ranges lists the data keys kept in step between a shared combatant
	// and its entity (hit points...).
	Ranges(kind string) []string
}

// SwappableRules is implemented by Rules that change while the server runs:
// systems.Holder swaps the whole system on reload. RulesNow returns the
// rules in force now, which never change afterwards.
type SwappableRules interface {
	RulesNow() Rules
}
