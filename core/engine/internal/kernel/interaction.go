package kernel

import (
	"github.com/vttapp/companion/core"
)

// remoteInteractionOff is the error for a client's drag, door or pointer
// while the host has remote interaction off (contract 5).
func remoteInteractionOff(what string) error {
	return core.Conflictf("%s refused: the host has turned remote interaction off", what)
}

// interactionMode is the mode a settings change asks for: interactionMode when
// given, else the boolean (true sets all, false none). Both given must
// agree.
func (p SettingsPatch) interactionMode() (mode string, set bool, err error) {
	if p.Interaction != nil {
		mode = *p.Interaction
		if mode != core.InteractionNone && mode != core.InteractionToken && mode != core.InteractionAll {
			return "", false, core.Invalidf("settings: 'interaction' must be none, token or all, not '%s'", core.Clip(mode))
		}
		if p.RemoteInteraction != nil && *p.RemoteInteraction != (mode != core.InteractionNone) {
			return "", false, core.Invalidf("settings: 'remoteInteraction' %t contradicts 'interaction' '%s'", *p.RemoteInteraction, mode)
		}
		return mode, true, nil
	}
	if p.RemoteInteraction != nil {
		return core.InteractionFromBool(*p.RemoteInteraction), true, nil
	}
	return "", false, nil
}
