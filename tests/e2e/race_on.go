//go:build race

package e2e

// RaceEnabled is true when the tests run with -race; the server under
// test is then built with it too.
const RaceEnabled = true
