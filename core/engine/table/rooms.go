package table

import "github.com/vttapp/companion/core/engine/internal/kernel"

// TableRoom is the engine's room for the game at the table: combat and the turn
// order, combatants and their effects, chat messages.
type TableRoom struct{ *kernel.Kernel }

// tablePinned is the room's rules for one request (kernel.Pinned), so its
// own helpers that consult the rules can have it as receiver.
type tablePinned struct{ kernel.Pinned }

// pin takes the rules snapshot for one request.
func (r *TableRoom) pin() tablePinned { return tablePinned{r.Kernel.Pin()} }
