package library

import (
	"github.com/vttapp/companion/core/engine/kernel"
)

type LibraryRoom struct{ *kernel.Kernel }

type libraryPinned struct{ kernel.Pinned }

func (r *LibraryRoom) pin() libraryPinned { return libraryPinned{r.Kernel.Pin()} }
