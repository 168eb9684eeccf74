package redact

import "github.com/vttapp/companion/core"

// Players see the map on the primary campaign's player screen, or the map
// the game master put their seat on (seatmaps.go). A token on any other
// map, like a hidden one, does not exist for them (the game master
// prepares the next encounter there), and the combatants they see name
// only tokens they see. These are the rules that
// need the store; those on one object alone are in playerview.go and
// playertokens.go.

// TokenShown reports whether players see a token, given the map on the
// player screen: it is not hidden and stands on that map.
func TokenShown(t *core.Token, screenMap string) bool {
	return t != nil && !t.Hidden && screenMap != "" && t.MapID == screenMap
}
