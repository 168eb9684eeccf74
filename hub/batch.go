package hub

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// batchConn wraps a hijacked connection so that the writer can write
// several frames and hand them to the kernel in one system call. gorilla
// writes every frame straight to its net.Conn; while a batch is open, these
// writes land in a buffer that flush sends. Envelopes are never merged: the
// buffer holds whole, separate frames. Outside a batch it writes through.
type batchConn struct {
	net.Conn

	mu       sync.Mutex
	batching bool
	buf      *[]byte

	// dropped is set when the connection is dropped for being too slow
	// (1013). From then on no write may end later than dropBy (unix
	// nanoseconds): time enough for the frame under way and the close
	// frame to reach a client that still reads, and no more for one that
	// does not.
	dropped atomic.Bool
	dropBy  atomic.Int64
	// deadline is the write deadline last given to the socket.
	deadline time.Time
}

// deadlineSlack is the share of a write's time allowance by which a new
// deadline may lag behind the one asked for. gorilla sets the deadline
// before every frame; each set moves a runtime timer, a cost paid per
// client per message. The deadline is a safety net (WriteWait, 10 s by
// default): a write still gets at least 9/10 of its allowance.
const deadlineSlack = 10

var errInterrupted = errors.New("websocket: connection dropped")

// batchFlushAt bounds a batch's buffer: past it, the batch is written out
// early so a burst never grows memory without limit.
const batchFlushAt = 64 << 10

var batchBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

func (b *batchConn) Write(p []byte) (int, error) {
	if b.expired() {
		return 0, errInterrupted
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.batching {
		return b.Conn.Write(p)
	}
	*b.buf = append(*b.buf, p...)
	if len(*b.buf) >= batchFlushAt {
		if err := b.writeOutLocked(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// beginBatch starts collecting writes. Control frames written meanwhile by
// the reader (pongs) join the batch in order; gorilla serialises frames.
func (b *batchConn) beginBatch() {
	b.mu.Lock()
	b.batching = true
	if b.buf == nil {
		b.buf = batchBuffers.Get().(*[]byte)
	}
	b.mu.Unlock()
}

// flush ends the batch and writes what it collected before deadline.
func (b *batchConn) flush(deadline time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.batching = false
	if b.buf == nil {
		return nil
	}
	err := errInterrupted
	if !b.expired() {
		deadline = b.clamp(deadline)
		if err = b.Conn.SetWriteDeadline(deadline); err == nil {
			b.deadline = deadline
			err = b.writeOutLocked()
		}
	}
	*b.buf = (*b.buf)[:0]
	if cap(*b.buf) <= 4*batchFlushAt {
		batchBuffers.Put(b.buf)
	}
	b.buf = nil
	return err
}

func (b *batchConn) writeOutLocked() error {
	if len(*b.buf) == 0 {
		return nil
	}
	_, err := b.Conn.Write(*b.buf)
	*b.buf = (*b.buf)[:0]
	return err
}

// SetWriteDeadline passes a deadline on unless the socket's current one
// is at most a tenth of the allowance earlier (see deadlineSlack); it
// keeps a dropped connection's deadline at dropBy at the latest.
func (b *batchConn) SetWriteDeadline(t time.Time) error {
	if b.expired() {
		return errInterrupted
	}
	t = b.clamp(t)
	b.mu.Lock()
	defer b.mu.Unlock()
	if !t.IsZero() && !b.deadline.IsZero() && !t.Before(b.deadline) &&
		t.Sub(b.deadline) < time.Until(t)/deadlineSlack {
		return nil
	}
	b.deadline = t
	return b.Conn.SetWriteDeadline(t)
}

// drop marks the connection dropped for being too slow: writes may go on
// until by (the frame under way, then the close frame), never later. The
// write under way already ends by its own deadline, no later than by.
func (b *batchConn) drop(by time.Time) {
	b.dropBy.Store(by.UnixNano())
	b.dropped.Store(true)
}

// expired reports that a dropped connection's time to write is over.
func (b *batchConn) expired() bool {
	return b.dropped.Load() && time.Now().UnixNano() >= b.dropBy.Load()
}

// clamp brings a write deadline of a dropped connection back to its dropBy.
func (b *batchConn) clamp(t time.Time) time.Time {
	if !b.dropped.Load() {
		return t
	}
	by := time.Unix(0, b.dropBy.Load())
	if t.IsZero() || t.After(by) {
		return by
	}
	return t
}

// hijackWriter hands gorilla a batchConn in place of the hijacked
// connection.
type hijackWriter struct {
	http.ResponseWriter
	conn *batchConn
}

func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	// The controller also finds a Hijacker behind middleware that wraps
	// the writer (Unwrap).
	nc, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, errors.New("websocket: the response cannot be hijacked: " + err.Error())
	}
	w.conn = &batchConn{Conn: nc}
	return w.conn, brw, nil
}
