//go:build !linux

package scripting

import "time"

// callClock is unavailable here: the deadline of a call is wall time.
type callClock struct{}

func startCallClock() (callClock, bool) { return callClock{}, false }
func (callClock) used() time.Duration   { return 0 }
func (callClock) stop()                 {}
