package scripting

import (
	"context"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// callDeadline is the deadline of the calls made on one state (a timer, not
// a file watcher): the context gopher-lua checks before every instruction. It is armed for each call
// and reused, so a call does not pay for a new context, timer and channel
// (context.WithTimeout allocates all three).
//
// The channel is closed when the call has used its time or the caller's
// context ends, whichever comes first; gopher-lua then raises the error
// Err returns at the instruction it was about to run, so an endless loop
// stops with its file and line. A closed channel is replaced when the
// state is armed again (in practice a state that timed out is discarded).
//
// The time a call may use is CPU time where the platform counts it per
// thread (callclock_linux.go): on a machine shared with other work a call
// is slowed, and a wall-clock limit made a large import fail at random
// entries. A call is still stopped after wallFactor times its time of
// wall clock, whatever it ran, so nothing outlives its caller for long.
// Elsewhere the limit is wall time.
type callDeadline struct {
	mu       sync.Mutex
	done     chan struct{}
	closed   bool
	err      error
	armed    bool
	gen      uint64 // calls armed so far; tells a late cancellation from a current one
	deadline time.Time
	timer    *time.Timer

	// The CPU time of the call (callclock_*.go): timeout is its budget,
	// and deadline is then the wall-clock backstop (wallFactor times it).
	clock   callClock
	cpu     bool
	timeout time.Duration

	parent     context.Context
	stopParent func() bool

	// The memory watchdog (see memory.go): while a call runs, the timer
	// also fires every sampleEvery and reads how much the process has
	// allocated; past limit bytes since the last look it sets suspect,
	// and the Lua goroutine, at its next instruction, measures what the
	// call itself holds (measure) and stops it when that is over limit.
	limit        int64
	measure      func() int64
	suspect      atomic.Bool
	sample       []metrics.Sample
	baseline     uint64
	haveBaseline bool
}

func newCallDeadline() *callDeadline {
	w := &callDeadline{done: make(chan struct{}), sample: []metrics.Sample{{Name: allocsMetric}}}
	w.timer = time.AfterFunc(time.Hour, w.expire)
	w.timer.Stop()
	return w
}

// wallFactor times a call's time is the wall clock it may take at most
// when its time is counted in CPU time.
const wallFactor = 20

// arm starts a call bounded by timeout (of CPU time where it is counted)
// and by parent. The call runs on the goroutine that arms it, until it
// disarms.
func (w *callDeadline) arm(parent context.Context, timeout time.Duration) {
	clock, cpu := startCallClock()
	w.mu.Lock()
	if w.closed {
		w.done = make(chan struct{})
		w.closed, w.err = false, nil
	}
	w.gen++
	gen := w.gen
	w.armed = true
	w.parent = parent
	w.clock, w.cpu, w.timeout = clock, cpu, timeout
	w.deadline = time.Now().Add(timeout)
	if cpu {
		w.deadline = time.Now().Add(wallFactor * timeout)
	}
	w.haveBaseline = false
	w.suspect.Store(false)
	w.mu.Unlock()
	w.timer.Reset(w.nextTick(timeout))
	if parent.Done() != nil {
		w.stopParent = context.AfterFunc(parent, func() { w.cancel(gen) })
	}
}

// disarm ends the call (on the goroutine that armed it).
func (w *callDeadline) disarm() {
	w.timer.Stop()
	if w.stopParent != nil {
		w.stopParent()
		w.stopParent = nil
	}
	w.mu.Lock()
	w.armed = false
	w.parent = nil
	cpu := w.cpu
	w.cpu = false
	w.mu.Unlock()
	if cpu {
		w.clock.stop() // after armed is false: expire no longer reads the clock
	}
}

// remaining is the time the call has left at now: its CPU budget less
// what it has used, within the wall-clock backstop; or, without a CPU
// clock, the wall time to its deadline. The caller holds w.mu.
func (w *callDeadline) remaining(now time.Time) time.Duration {
	wall := w.deadline.Sub(now)
	if !w.cpu {
		return wall
	}
	return min(w.timeout-w.clock.used(), wall)
}

// nextTick is when the timer fires next: at the deadline, or sooner to
// sample memory.
func (w *callDeadline) nextTick(remaining time.Duration) time.Duration {
	if w.limit > 0 && remaining > sampleEvery {
		return sampleEvery
	}
	return remaining
}

// expire runs when the timer fires: it stops a call that has used its
// time, samples memory otherwise and fires again when the rest may be
// used. A firing left over from an earlier call finds the current call's
// time not used and only samples.
func (w *callDeadline) expire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.armed || w.closed {
		return
	}
	left := w.remaining(time.Now())
	if left <= 0 {
		w.stop(context.DeadlineExceeded)
		return
	}
	if w.limit > 0 {
		w.sampleAllocs()
	}
	w.timer.Reset(w.nextTick(max(left, time.Millisecond)))
}

// cancel runs when the caller's context of call gen ends.
func (w *callDeadline) cancel(gen uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.armed && !w.closed && gen == w.gen {
		w.stop(w.parent.Err())
	}
}

func (w *callDeadline) stop(err error) {
	w.err = err
	w.closed = true
	close(w.done)
}

func (w *callDeadline) close() { w.timer.Stop() }

// The context.Context methods; gopher-lua calls Done before each
// instruction and Err when Done is closed.

func (w *callDeadline) Done() <-chan struct{} {
	if w.suspect.Load() {
		w.checkMemory()
	}
	return w.done
}

func (w *callDeadline) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *callDeadline) Deadline() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.parent == nil {
		return w.deadline, true
	}
	if d, ok := w.parent.Deadline(); ok && d.Before(w.deadline) {
		return d, true
	}
	return w.deadline, true
}

func (w *callDeadline) Value(key any) any {
	w.mu.Lock()
	p := w.parent
	w.mu.Unlock()
	if p == nil {
		return nil
	}
	return p.Value(key)
}
