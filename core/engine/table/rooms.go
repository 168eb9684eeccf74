package table

import (
	"github.com/vttapp/companion/core/engine/kernel"
)

type TableRoom struct{ *kernel.Kernel }

type tablePinned struct{ kernel.Pinned }

func (r *TableRoom) pin() tablePinned { return tablePinned{r.Kernel.Pin()} }
