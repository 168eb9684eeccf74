// Package cputime reads the CPU time the process has used. Benchmarks
// report ratios on it rather than on wall time: the machine is shared, and
// CPU time is what an operation costs, whatever else runs beside it.
package cputime

import "time"

var processStart = time.Now()

// Process returns the CPU time (user + system) the process has used, and
// false where the platform does not tell.
func Process() (time.Duration, bool) { return process() }

// Now returns Process, or the wall time since the process started where
// CPU time is not at hand, so that ratios built on it still make sense.
func Now() time.Duration {
	if d, ok := process(); ok {
		return d
	}
	return time.Since(processStart)
}
