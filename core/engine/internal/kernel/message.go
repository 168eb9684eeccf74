package kernel

import (
	"regexp"
	"strings"

	"github.com/vttapp/companion/core"
)

// tagOpen matches a "<" that starts markup in HTML: a tag, an end tag, a
// comment or declaration, a processing instruction. A "<" before anything
// else ("a < b", "/r 4d6<3", "cf<=1") is text to every HTML reader.
var tagOpen = regexp.MustCompile(`<([A-Za-z/!?])`)

// PlayerText returns m with the markup of its text made text: each "<"
// that would open a tag written as "&lt;". Messages from players are text:
// the Encounter+ web client (and any page that renders messages as HTML)
// would otherwise load a player's <img src=...> on every screen at the
// table. Dice expressions keep their comparisons, and the text is made
// text before the dice are rolled, so that the rolls' places in the
// stored text stay right. Markdown (the built-in client's) and the
// links the server, the game master and the system write are left as they
// are. m is not changed.
func PlayerText(m *core.Message) *core.Message {
	if !strings.Contains(m.Text, "<") {
		return m
	}
	out := *m
	out.Text = tagOpen.ReplaceAllString(m.Text, "&lt;$1")
	return &out
}

// FailedRoll returns the error of a roll command's only roll when it
// failed, "" otherwise.
func FailedRoll(rolls []core.RollResult) string {
	if len(rolls) != 1 || rolls[0].Error == "" {
		return ""
	}
	return "cannot roll '" + core.Clip(rolls[0].Expression) + "': " + rolls[0].Error
}
