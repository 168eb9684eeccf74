package engine

// Service is the rooms of the engine over their shared kernel: each room's
// methods are promoted, so callers say svc.Tokens or svc.ClaimSeat without
// knowing which room answers.
type Service struct {
	*Kernel
	*seatsRoom
	*libraryRoom
	*playRoom
	*tableRoom
}

type seatsRoom struct{ *Kernel }
type libraryRoom struct{ *Kernel }
type playRoom struct {
	*Kernel
	dragTracker *Drags // the token drags in progress (drag.go)
}
type tableRoom struct{ *Kernel }

type seatsPinned struct{ pinned }
type libraryPinned struct{ pinned }
type playPinned struct{ pinned }
type tablePinned struct{ pinned }

func (r *seatsRoom) pin() seatsPinned     { return seatsPinned{r.Kernel.pin()} }
func (r *libraryRoom) pin() libraryPinned { return libraryPinned{r.Kernel.pin()} }
func (r *playRoom) pin() playPinned       { return playPinned{r.Kernel.pin()} }
func (r *tableRoom) pin() tablePinned     { return tablePinned{r.Kernel.pin()} }
