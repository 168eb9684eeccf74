//go:build linux

package scripting

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// callClock measures the CPU time a call spends on its own thread: the
// calling goroutine is locked to its OS thread for the call, and the
// thread's CPU clock (Linux's per-thread CLOCK_THREAD_CPUTIME_ID, read by
// thread id so that the deadline's timer can read it from another
// thread) counts only what this thread ran. A busy machine slows the
// call's wall time, never its CPU time: the limit no longer fails at
// random under load.
type callClock struct {
	clock int32 // the thread's CPU clock id; 0: not started
	start time.Duration
}

// startCallClock locks the calling goroutine to its thread and starts
// counting; ok is false where the platform cannot (then the deadline is
// wall time).
func startCallClock() (callClock, bool) {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) of the kernel's headers.
	c := callClock{clock: ^int32(tid)<<3 | 6}
	start, ok := c.read()
	if !ok {
		runtime.UnlockOSThread()
		return callClock{}, false
	}
	c.start = start
	return c, true
}

// used is the CPU time the thread has run since the call started.
func (c callClock) used() time.Duration {
	now, ok := c.read()
	if !ok {
		return 0
	}
	return now - c.start
}

func (c callClock) read() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(c.clock), uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// stop unlocks the goroutine from its thread (on the goroutine that
// started the clock).
func (c callClock) stop() { runtime.UnlockOSThread() }
