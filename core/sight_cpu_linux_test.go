//go:build linux

package core_test

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used. On a machine
// shared with other work, wall time per op swings with the load; the CPU
// time an op takes much less.
func threadCPU() (time.Duration, bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
