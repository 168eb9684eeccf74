package seats

import (
	"github.com/vttapp/companion/core/engine/kernel"
)

type SeatsRoom struct{ *kernel.Kernel }

type seatsPinned struct{ kernel.Pinned }

func (r *SeatsRoom) pin() seatsPinned { return seatsPinned{r.Kernel.Pin()} }
