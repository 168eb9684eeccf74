//go:build !unix

package dnd5e

import "time"

// processCPU is not measured here; the CPU-time ratios are not reported.
func processCPU() (time.Duration, bool) { return 0, false }
