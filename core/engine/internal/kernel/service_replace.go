package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
)

// replaceStored is the write behind PUT and PATCH of an entity, a token or
// a combatant: read the stored object, make the next version from the
// client's edit, put back what the server owns (restore), and store it
// with its events. It returns the version stored. guard, when not nil,
// may refuse the change once the next version is known (a player's
// rights with the join key on: seatrights.go).
func replaceStored[T any](s *Kernel, ctx context.Context, e edit[T],
	read func(p Pinned, tx core.Tx) (*T, error),
	restore func(next, old *T),
	store func(p Pinned, tx core.Tx, next *T) ([]core.Event, error),
	guard EditGuard[T],
) (*T, error) {
	p := s.Pin()
	var out *T
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		old, err := read(p, tx)
		if err != nil {
			return nil, err
		}
		next, err := e.Next(old)
		if err != nil {
			return nil, err
		}
		restore(next, old)
		if guard != nil {
			if err := guard(p, tx, next, old); err != nil {
				return nil, err
			}
		}
		out = next
		return store(p, tx, next)
	})
	return out, err
}

// EditGuard refuses an edit of a stored object, given the next version
// and the stored one.
type EditGuard[T any] func(p Pinned, tx core.Tx, next, old *T) error
