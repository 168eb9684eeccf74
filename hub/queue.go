package hub

import (
	"sync"
	"sync/atomic"

	"github.com/gorilla/websocket"
)

// Signals for the writer besides queued messages.
const (
	signalPing  uint32 = 1 << iota // time to ping
	signalClose                    // the connection is closing
)

// outMsg is one message for a connection: its bytes and, for a broadcast,
// the frame gorilla prepared once for every connection it goes to.
type outMsg struct {
	data     []byte
	prepared *websocket.PreparedMessage
}

// sendQueue is a connection's bounded send queue. Unlike a buffered channel
// it allocates only while messages wait, so an idle connection holds no
// queue memory, and the writer takes everything waiting in one go, which
// is what lets it batch the writes.
type sendQueue struct {
	mu    sync.Mutex
	items []outMsg
	limit int
	// ready has room for one wake-up: "there is something to take or a
	// signal to read". The writer blocks on it alone, which is cheaper
	// than a select over several channels and needs no timer per
	// connection.
	ready   chan struct{}
	signals atomic.Uint32
}

func (m outMsg) String() string { return string(m.data) }

// broadcastMsg is msg as it goes to many connections. A large one is
// framed once by gorilla (a PreparedMessage), and each connection's writer
// writes that frame in one piece. A small one is not: gorilla copies it
// into the connection's write buffer behind the header for less than a
// prepared message costs (its build, and a lock at every write); the
// hub does not compress, where preparing would pay most. Measured with
// BenchmarkWSFanout60 (tests/perf), whose moves are about 100 bytes.
func broadcastMsg(msg []byte) outMsg {
	if len(msg) < prepareFrom {
		return outMsg{data: msg}
	}
	pm, err := websocket.NewPreparedMessage(websocket.TextMessage, msg)
	if err != nil { // cannot happen for an uncompressed text message
		return outMsg{data: msg}
	}
	return outMsg{data: msg, prepared: pm}
}

// prepareFrom is the size from which a broadcast is prepared: gorilla's
// write buffer (4 KiB by default), past which a plain write is two pieces.
const prepareFrom = 4 << 10

func newSendQueue(limit int) *sendQueue {
	return &sendQueue{limit: limit, ready: make(chan struct{}, 1)}
}

// push adds msg unless limit messages are already waiting; it never blocks.
func (q *sendQueue) push(msg outMsg) bool {
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
func (q *sendQueue) take(dst []outMsg) []outMsg {
	q.mu.Lock()
	dst = append(dst, q.items...)
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
