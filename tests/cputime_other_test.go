//go:build !linux

package tests

import "time"

var processStart = time.Now()

// cpuTime falls back to wall time where getrusage is not at hand.
func cpuTime() time.Duration { return time.Since(processStart) }
