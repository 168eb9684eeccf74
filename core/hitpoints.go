package core

// RangeLister is implemented by Rules that list the first range of each
// of their kinds (systems.Holder): the keys a combatant of no kind may
// keep its hit points under.
type RangeLister interface {
	// HitPointRanges lists the first range of every kind that declares one,
	// once each, in the order the kinds were declared.
	HitPointRanges() []string
}
