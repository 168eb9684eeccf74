//go:build race

package sight_test

// raceEnabled: the race detector slows the ray caster, which the sweep is
// checked against, tenfold; the heaviest comparisons take fewer viewers.
const raceEnabled = true
