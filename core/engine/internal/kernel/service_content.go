package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
)

// Map returns a map with its tokens, whole: as the game master sees it.
func (s *Kernel) Map(ctx context.Context, id string) (*core.Map, error) {
	return ReadStore(ctx, s.Store, func(tx core.Tx) (*core.Map, error) { return MapByID(tx, id) })
}

// ReadStore runs one read transaction and returns what fn read.
func ReadStore[T any](ctx context.Context, store core.Store, fn func(tx core.Tx) (T, error)) (T, error) {
	var out T
	err := store.View(ctx, func(tx core.Tx) error {
		var err error
		out, err = fn(tx)
		return err
	})
	return out, err
}
