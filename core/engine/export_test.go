package engine

import "github.com/vttapp/companion/core/engine/play"

// NewDrags returns a drag tracker over svc that the service does not tell
// of its events: its drags are swept only when a test calls Sweep, so a
// test of the tracker's rules sees every step in the order it takes them.
// The service's own tracker (Service.Drags) sweeps by itself
// (dragsweep.go).
func NewDrags(svc *Service) *play.Drags { return play.NewDrags(svc.PlayRoom) }
