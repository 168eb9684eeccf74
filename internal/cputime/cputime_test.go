package cputime

import (
	"runtime"
	"testing"
	"time"
)

func TestProcessGrowsWithWork(t *testing.T) {
	before, ok := Process()
	if !ok {
		t.Skipf("no CPU time on %s", runtime.GOOS)
	}
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	after, _ := Process()
	if after <= before {
		t.Fatalf("CPU time did not grow over 50 ms of work: %v -> %v (%d)", before, after, x)
	}
	if Now() < after {
		t.Fatalf("Now() %v is behind Process() %v", Now(), after)
	}
}
