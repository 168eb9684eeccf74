//go:build race

package e2e

// raceEnabled builds the server under test with -race when the tests run with it.
const raceEnabled = true
