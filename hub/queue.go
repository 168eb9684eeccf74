package hub

import (
	"sync"
	"sync/atomic"
)

// Signals for the writer besides queued messages.
const (
	signalPing  uint32 = 1 << iota // time to ping
	signalClose                    // the connection is closing
	signalFlush                    // a direct write left the rest of a frame to send
)

// sendQueue is a connection's bounded send queue. Unlike a buffered channel
// it allocates only while messages wait, so an idle connection holds no
// queue memory, and the writer takes everything waiting in one go, which
// is what lets it batch the writes.
type sendQueue struct {
	mu    sync.Mutex
	items [][]byte
	limit int
	// ready has room for one wake-up: "there is something to take or a
	// signal to read". The writer blocks on it alone, which is cheaper
	// than a select over several channels and needs no timer per
	// connection.
	ready   chan struct{}
	signals atomic.Uint32
	// writing is set while the writer writes what it took: a direct
	// write (direct.go) must then wait its turn in the queue.
	writing bool
}

func newSendQueue(limit int) *sendQueue {
	return &sendQueue{limit: limit, ready: make(chan struct{}, 1)}
}

// push adds msg unless limit messages are already waiting; it never blocks.
func (q *sendQueue) push(msg []byte) bool {
	q.mu.Lock()
	if len(q.items) >= q.limit {
		q.mu.Unlock()
		return false
	}
	q.items = append(q.items, msg)
	q.mu.Unlock()
	q.wake()
	return true
}

// signal raises a signal for the writer and wakes it.
func (q *sendQueue) signal(s uint32) {
	q.signals.Or(s)
	q.wake()
}

// takeSignals returns the raised signals and lowers them.
func (q *sendQueue) takeSignals() uint32 { return q.signals.Swap(0) }

func (q *sendQueue) wake() {
	select {
	case q.ready <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// take moves every waiting message into dst (reused by the caller) and
// returns it.
func (q *sendQueue) take(dst [][]byte) [][]byte {
	q.mu.Lock()
	dst = append(dst, q.items...)
	q.writing = len(q.items) > 0
	clear(q.items)
	if cap(q.items) > 16 {
		q.items = nil // a burst is over: give its memory back
	} else {
		q.items = q.items[:0]
	}
	q.mu.Unlock()
	return dst
}

// len reports how many messages wait.
func (q *sendQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// written tells the queue the writer has written what it took.
func (q *sendQueue) written() {
	q.mu.Lock()
	q.writing = false
	q.mu.Unlock()
}

// direct runs write, a direct write of the next message, if the message
// may skip the queue: nothing waits in it and the writer is idle, so the
// order of the messages is kept. It reports whether write sent it.
func (q *sendQueue) direct(write func() bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) > 0 || q.writing {
		return false
	}
	return write()
}
