package engine

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// playersEntity is the answer to a player's write of an entity: the
// stored entity as players may see it.
func playersEntity(e *core.Entity, err error) (*core.Entity, error) {
	if err != nil {
		return nil, err
	}
	return redact.EntityForPlayers(e), nil
}
