package table

import (
	"context"

	"github.com/vttapp/companion/core"
)

// Ping reads the store once, as cheaply as it can: one lookup by key that
// finds nothing. It tells whether the database answers now, for the health
// answer (routes/health.go); it takes no lock and publishes nothing.
func (s *TableRoom) Ping(ctx context.Context) error {
	return s.Store.View(ctx, func(tx core.Tx) error {
		_, err := tx.Campaign("")
		if core.IsNotFound(err) {
			return nil
		}
		return err
	})
}
