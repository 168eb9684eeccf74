package seats

import "github.com/vttapp/companion/core/engine/internal/kernel"

// SeatsRoom is the engine's room for who sits at the table: the seats and the
// join key, players' devices, their characters (sheets, rolls, hit points).
type SeatsRoom struct{ *kernel.Kernel }

// seatsPinned is the room's rules for one request (kernel.Pinned), so its
// own helpers that consult the rules can have it as receiver.
type seatsPinned struct{ kernel.Pinned }

// pin takes the rules snapshot for one request.
func (r *SeatsRoom) pin() seatsPinned { return seatsPinned{r.Kernel.Pin()} }
