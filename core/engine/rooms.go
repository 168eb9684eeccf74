package engine

import (
	"github.com/vttapp/companion/core/engine/kernel"
	"github.com/vttapp/companion/core/engine/library"
	"github.com/vttapp/companion/core/engine/seats"
	"github.com/vttapp/companion/core/engine/table"
)

// Service is the rooms of the engine over their shared kernel: each room's
// methods are promoted, so callers say svc.Tokens or svc.ClaimSeat without
// knowing which room answers.
type Service struct {
	kernel *kernel.Kernel
	*seats.SeatsRoom
	*library.LibraryRoom
	*playRoom
	*table.TableRoom
}

type playRoom struct {
	*kernel.Kernel
	dragTracker *Drags // the token drags in progress (drag.go)
}

type playPinned struct{ kernel.Pinned }

func (r *playRoom) pin() playPinned { return playPinned{r.Kernel.Pin()} }
