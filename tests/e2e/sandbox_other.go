//go:build !linux

package e2e

import (
	"os"
	"syscall"
)

// Outside Linux there is no Pdeathsig and no /proc to sweep: the watchdog
// can only kill the children the test process told it about, and remove
// the root. CI and the tables the tests guard run Linux.

func childProcAttr() *syscall.SysProcAttr { return nil }

func watchdogProcAttr() *syscall.SysProcAttr { return nil }

func killGroups(groups map[int]bool) int {
	n := 0
	for pid := range groups {
		if p, err := os.FindProcess(pid); err == nil && p.Kill() == nil {
			n++
		}
	}
	return n
}

func sweepMarked(mark string, skip int) int { return 0 }

func MarkedProcesses(mark string) []int { return nil }

func killProcessesOf(dir string) {}
