//go:build race

package tests

// raceEnabled builds the server under test with -race when the tests run with it.
const raceEnabled = true
