// Package lanternlight is a second game system shipped with Companion,
// unlike D&D 5e in every rule: percentile skills rolled under with bonus
// and penalty dice and graded successes, vigour and nerve for health. The
// folder is the system (run it with companion --system
// examples/lanternlight); this package holds only its tests.
package lanternlight
