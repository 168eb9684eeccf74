package core

import "strings"

// Remote interaction modes, as the original application's setting names
// them (Settings → Remote Play → Interactions). The contract's on/off rule
// maps to InteractionNone (off) versus the other two (on).
const (
	// InteractionNone: players only look; drags, doors and pointers from
	// clients are refused.
	InteractionNone = "none"
	// InteractionToken: a player moves only their own token (see
	// CanMoveInTokenMode); doors and pointers are allowed.
	InteractionToken = "token"
	// InteractionAll: anyone moves any token that is not locked or hidden.
	InteractionAll = "all"
)

// ParseInteraction reads a remote-interaction mode: none, token or all, or
// the booleans of the older switch (true is all, false is none), in any
// case. ok is false for anything else.
func ParseInteraction(v string) (mode string, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case InteractionNone, "false", "off":
		return InteractionNone, true
	case InteractionToken:
		return InteractionToken, true
	case InteractionAll, "true", "on":
		return InteractionAll, true
	}
	return "", false
}

// InteractionFromBool is the mode the boolean switch sets.
func InteractionFromBool(on bool) string {
	if on {
		return InteractionAll
	}
	return InteractionNone
}

// Normalize makes the two views of remote interaction agree: a mode set
// wins; without one the boolean decides (true is all).
func (s *Settings) Normalize() {
	if mode, ok := ParseInteraction(s.Interaction); ok {
		s.Interaction = mode
	} else {
		s.Interaction = InteractionFromBool(s.RemoteInteraction)
	}
	s.RemoteInteraction = s.Interaction != InteractionNone
}

// ApplySettings copies the host's remote interaction into a screen (the
// mode and the contract's boolean) and fills its defaults.
func (s *Screen) ApplySettings(settings Settings) {
	settings.Normalize()
	s.RemoteInteraction = settings.RemoteInteraction
	s.Interaction = settings.Interaction
	s.Normalize()
}

// Shared vision settings of the player screen (the original's "Shared
// Party Vision"): always shows every player token's sight; partial, out of
// combat the same, in combat the acting party token's and the viewer's
// own; never only the viewer's own. Players' pages choose (the web
// client's permissions.ts, seesThrough): the sights they receive are the
// party's in every case.
const (
	SharedVisionNever   = "never"
	SharedVisionPartial = "partial"
	SharedVisionAlways  = "always"
)

// Normalize fills the defaults a screen always carries.
func (s *Screen) Normalize() {
	switch s.SharedVision {
	case SharedVisionNever, SharedVisionPartial, SharedVisionAlways:
	default:
		s.SharedVision = SharedVisionAlways
	}
	if s.Interaction == "" {
		s.Interaction = InteractionFromBool(s.RemoteInteraction)
	}
}
