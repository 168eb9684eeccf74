package engine

import (
	"github.com/vttapp/companion/core"
)

// Players returns the players' access to tokens and combatants, as a
// player without a seat has it.
func (s *Service) Players() PlayerAccess { return PlayerAccess{s: s} }

// PlayerAs returns one actor's access: a spectator's changes nothing, and
// with the join key on a player changes only what seatrights.go allows.
func (s *Service) PlayerAs(who core.Actor) PlayerAccess { return PlayerAccess{s: s, who: who} }
