//go:build !unix

package dice

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
