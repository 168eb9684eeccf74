//go:build race

package scripting

// raceDetector is true when the tests run with -race.
const raceDetector = true
