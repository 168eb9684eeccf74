package e2e

// The test binary's sandbox: everything a run of the end-to-end tests
// leaves on the machine (data folders, the built binary, Chromium's
// profile, the servers and the browser) lives under one temporary root and
// carries one environment marker, and a watchdog process removes both when
// the test process ends, however it ends. A run that Go's -timeout stops
// (a panic in a timer goroutine: no deferred call, no t.Cleanup runs), a
// Ctrl-C, a SIGQUIT or a panicking test would otherwise leave companion
// servers running and folders behind.
//
// Three layers, each enough for part of it:
//   - every child (companion serve, Chromium) gets Pdeathsig (Linux): the
//     kernel kills it when the test process dies;
//   - each child runs in its own process group, so a Ctrl-C at the
//     terminal reaches only the test process, and what the child started
//     can be killed as a group;
//   - the watchdog, the test binary started again in watchdog mode and
//     holding the read end of a pipe, sees the pipe close when the test
//     process exits and then kills every process carrying the run's
//     marker (Chromium's helpers too, which Pdeathsig does not reach) and
//     removes the root.

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

const (
	// watchdogEnv names the root the watchdog removes: set, the test
	// binary runs as the watchdog instead of running tests.
	watchdogEnv = "COMPANION_TESTS_WATCHDOG"
	// markerPrefix + the run's id is set (to 1) in the environment of
	// every process a run starts, nested runs adding theirs.
	markerPrefix = "COMPANION_TESTS_RUN_"
	// PrebuiltEnv passes an already built companion binary to a child
	// test binary (the cleanup test), so that it does not build again.
	PrebuiltEnv = "COMPANION_TESTS_PREBUILT"
)

// sandbox is this test binary's run: its root folder, its marker and the
// pipe to its watchdog.
var sandbox struct {
	root, id string
	watchdog *exec.Cmd
	pipe     io.WriteCloser
	mu       sync.Mutex // guards writes to pipe
}

// Marker is the environment entry every process of this run carries.
func Marker() string { return markerPrefix + sandbox.id + "=1" }

// openSandbox creates the run's root, points TMPDIR at it (t.TempDir,
// os.MkdirTemp and the children's own temporary files all land there),
// marks the environment that children inherit, and starts the watchdog.
// It also turns SIGINT, SIGTERM and SIGHUP into an orderly exit, so that
// the watchdog's work is the same on every path.
func openSandbox() error {
	// A short name: Chromium puts a socket under TMPDIR, and a socket's
	// path may not pass 107 bytes.
	var root string
	for {
		var raw [4]byte
		if _, err := rand.Read(raw[:]); err != nil {
			return err
		}
		sandbox.id = hex.EncodeToString(raw[:])
		root = filepath.Join(os.TempDir(), "companion-"+sandbox.id)
		err := os.Mkdir(root, 0o700)
		if err == nil {
			break
		}
		if !os.IsExist(err) {
			return err
		}
	}
	sandbox.root = root
	if err := os.Setenv("TMPDIR", root); err != nil {
		return err
	}
	if err := os.Setenv(markerPrefix+sandbox.id, "1"); err != nil {
		return err
	}
	if err := startWatchdog(); err != nil {
		os.RemoveAll(root)
		return err
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-signals
		// The tests still running would fail one by one as their servers
		// go; stop here and let the watchdog clear everything at once.
		fmt.Fprintf(os.Stderr, "\ncompanion tests: interrupted (%v); the watchdog removes the servers, the browser and %s\n", sig, root)
		os.Exit(2)
	}()
	return nil
}

// startWatchdog starts the test binary again as the watchdog, in its own
// process group (a Ctrl-C must not stop it before its work) and with the
// test binary's stderr (so `go test` waits for it to finish and shows what
// it did, if anything).
func startWatchdog() error {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), watchdogEnv+"="+sandbox.root, "COMPANION_TESTS_WATCHDOG_PARENT="+strconv.Itoa(os.Getpid()))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.SysProcAttr = watchdogProcAttr()
	pipe, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	sandbox.watchdog, sandbox.pipe = cmd, pipe
	return nil
}

// closeSandbox ends a run that finished normally: the caller has already
// stopped what it started; closing the pipe lets the watchdog check for
// leftovers and remove the root, and this waits for it.
func closeSandbox() {
	if sandbox.pipe == nil {
		return
	}
	sandbox.mu.Lock()
	fmt.Fprintln(sandbox.pipe, "end")
	sandbox.pipe.Close()
	sandbox.pipe = nil
	sandbox.mu.Unlock()
	sandbox.watchdog.Wait()
}

// tellWatchdog reports a child's process group ("pgid N") to the
// watchdog, which kills the group if the test process dies, or that the
// child has exited and been waited for ("gone N"), so that the number,
// free again, is never killed.
func tellWatchdog(kind string, pid int) {
	sandbox.mu.Lock()
	defer sandbox.mu.Unlock()
	if sandbox.pipe != nil {
		fmt.Fprintf(sandbox.pipe, "%s %d\n", kind, pid)
	}
}

// runWatchdog is the watchdog's whole life: wait until the test process
// is gone (its end of the pipe closes), then kill what the run left and
// remove its root. It ignores the signals that stop the tests.
func runWatchdog(root string) int {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	parent, _ := strconv.Atoi(os.Getenv("COMPANION_TESTS_WATCHDOG_PARENT"))
	id := runID(root)
	groups := map[int]bool{}
	ended := false
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		kind, n, _ := strings.Cut(in.Text(), " ")
		pid, _ := strconv.Atoi(n)
		switch kind {
		case "pgid":
			groups[pid] = true
		case "gone":
			delete(groups, pid)
		case "end":
			ended = true
		}
	}
	// The pipe closed: the test process has exited (the kernel closes its
	// end) or has finished and said "end". Either way nothing of the run
	// may remain; a normal end has already stopped everything itself.
	killed := killGroups(groups)
	if id != "" {
		killed += sweepMarked(markerPrefix+id+"=1", parent)
	}
	removed := removeRoot(root)
	switch {
	case !ended:
		fmt.Fprintf(os.Stderr, "companion tests: the test process ended without cleaning up; killed %d leftover processes, removed %s\n", killed, root)
	case killed > 0 || removed:
		fmt.Fprintf(os.Stderr, "companion tests: at the end of the run, killed %d leftover processes and removed %s (removed: %v)\n", killed, root, removed)
	}
	return 0
}

// runID is the run id in a root's name (companion-<id>).
func runID(root string) string {
	id, ok := strings.CutPrefix(filepath.Base(root), "companion-")
	if !ok || len(id) != 8 {
		return ""
	}
	return id
}

// removeRoot removes the run's root, retrying while a dying process may
// still write into it. It reports whether there was anything to remove.
func removeRoot(root string) bool {
	if _, err := os.Stat(root); err != nil {
		return false
	}
	deadline := time.Now().Add(3 * time.Second)
	for os.RemoveAll(root) != nil && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	return true
}
