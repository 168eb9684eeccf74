//go:build unix

package dnd5e

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the test process has used (user + system).
// Unlike wall time it does not grow while other processes hold the CPU,
// so ratios built on it stay meaningful on a busy machine.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
