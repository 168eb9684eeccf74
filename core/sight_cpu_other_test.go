//go:build !linux

package core_test

import "time"

// threadCPU is not measured here: the benchmarks report wall time only.
func threadCPU() (time.Duration, bool) { return 0, false }
