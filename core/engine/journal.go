package engine

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// Journal is GET /api/me/journal: what was shown to the table, oldest
// first, the entries the game master took back left out.
func (p PlayerAccess) Journal(ctx context.Context) (*core.Journal, error) {
	all, err := p.s.kernel.HostJournal(ctx)
	if err != nil {
		return nil, err
	}
	return kernel.PlayersJournal(all.Entries), nil
}
