package e2e

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// childProcAttr is how the tests start a child (companion serve,
// Chromium): in its own process group, killed by the kernel when the test
// process dies.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// watchdogProcAttr puts the watchdog in its own process group, out of
// reach of a Ctrl-C at the terminal.
func watchdogProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// killGroups kills the process groups whose leader still runs and still
// carries this run's marker (a number freed and reused by some other
// process is left alone). It returns how many it killed.
func killGroups(groups map[int]bool) int {
	id := runID(os.Getenv(watchdogEnv))
	n := 0
	for pgid := range groups {
		if id != "" && hasMarker(pgid, markerPrefix+id+"=1") && syscall.Kill(-pgid, syscall.SIGKILL) == nil {
			n++
		}
	}
	return n
}

// sweepMarked kills every process (but this one and skip) whose
// environment holds mark, until a few passes in a row find none: a dying
// Chromium's helpers may fork once more. It returns how many it killed.
func sweepMarked(mark string, skip int) int {
	killed := 0
	deadline := time.Now().Add(3 * time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		found := 0
		for _, pid := range MarkedProcesses(mark) {
			if pid == skip {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				found++
			}
		}
		killed += found
		if found == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
	return killed
}

// MarkedProcesses lists the live processes, other than this one, whose
// environment holds mark (a process that has exited but not been reaped
// has no environment left, and holds nothing).
func MarkedProcesses(mark string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if hasMarker(pid, mark) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// hasMarker reports whether process pid's environment holds mark.
func hasMarker(pid int, mark string) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(env, []byte{0}) {
		if string(kv) == mark {
			return true
		}
	}
	return false
}

// killProcessesOf kills the processes whose command line names dir as
// Chromium's profile folder (--user-data-dir=dir, which Chromium passes to
// every helper it starts) until a few passes in a row find none.
func killProcessesOf(dir string) {
	want := []byte("--user-data-dir=" + dir + "\x00")
	deadline := time.Now().Add(3 * time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		entries, _ := os.ReadDir("/proc")
		found := 0
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			if err == nil && bytes.Contains(cmdline, want) && syscall.Kill(pid, syscall.SIGKILL) == nil {
				found++
			}
		}
		if found == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
}
