package seats

import (
	"strings"

	"github.com/vttapp/companion/core"
)

// playerName cleans the name a player gives for a seat.
func playerName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if len(name) > core.MaxPlayerName {
		return "", core.Invalidf("the player's name is longer than %d bytes", core.MaxPlayerName)
	}
	if err := core.CheckUTF8("player name", []byte(name)); err != nil {
		return "", err
	}
	return name, nil
}
