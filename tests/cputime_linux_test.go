package tests

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used. Benchmarks that report
// ratios use it rather than wall time: the machine is shared, and CPU time
// is what a render costs, whatever else runs beside it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
