//go:build !race

package sight_test

const raceEnabled = false
