package play

import (
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// PlayRoom is the engine's room for what happens on the map: maps and
// tokens, their drags and the marks' live moves, doors, fog, sight, the
// grid, the pointer and the player screen.
type PlayRoom struct {
	*kernel.Kernel
	drags *Drags // the token drags in progress (drag.go)
}

// NewPlayRoom returns the play room over k, with its drag tracker told of
// every event k publishes (dragsweep.go).
func NewPlayRoom(k *kernel.Kernel) *PlayRoom {
	r := &PlayRoom{Kernel: k}
	r.drags = NewDrags(r)
	k.OnPublished = r.drags.Published
	return r
}

// playPinned is the room's rules for one request (kernel.Pinned), so its
// own helpers that consult the rules can have it as receiver.
type playPinned struct{ kernel.Pinned }

// pin takes the rules snapshot for one request.
func (r *PlayRoom) pin() playPinned { return playPinned{r.Kernel.Pin()} }

// Drags returns the service's drag tracker: the hub hands it every
// tokenMoved, the host console its veto.
func (s *PlayRoom) Drags() *Drags { return s.drags }
