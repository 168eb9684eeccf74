package engine

import (
	"github.com/vttapp/companion/core"
)

// remoteInteractionOff is the error for a client's drag, door or pointer
// while the host has remote interaction off (contract 5).
func remoteInteractionOff(what string) error {
	return core.Conflictf("%s refused: the host has turned remote interaction off", what)
}
