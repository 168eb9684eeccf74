//go:build race

package sqlite

// raceEnabled is true in a -race build, where SQLite (transpiled C) runs
// many times slower: the crash test then does fewer, shorter rounds.
const raceEnabled = true
