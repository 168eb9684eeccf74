package hub

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
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

	// interrupted is set when the connection is dropped for being too
	// slow: no further write may wait on the client.
	interrupted atomic.Bool
	// deadline is the write deadline last given to the socket.
	deadline time.Time

	// raw is the socket for direct writes (direct.go); nil when the
	// connection has none, and then every frame goes through the writer.
	raw syscall.RawConn
	// tail is the rest of a frame a direct write sent in part: it goes
	// out before any other byte.
	tail []byte
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
	if b.interrupted.Load() {
		return 0, errInterrupted
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.writeTailLocked(); err != nil {
		return 0, err
	}
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
	var err error
	if b.interrupted.Load() {
		err = errInterrupted
	} else if err = b.Conn.SetWriteDeadline(deadline); err == nil {
		b.deadline = deadline
		err = b.writeOutLocked()
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
// keeps a dropped connection's deadline in the past.
func (b *batchConn) SetWriteDeadline(t time.Time) error {
	if b.interrupted.Load() {
		return errInterrupted
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !t.IsZero() && !b.deadline.IsZero() && !t.Before(b.deadline) &&
		t.Sub(b.deadline) < time.Until(t)/deadlineSlack {
		return nil
	}
	b.deadline = t
	return b.Conn.SetWriteDeadline(t)
}

// interruptWrite makes a write blocked on a client that stopped reading
// fail now rather than at its deadline.
func (b *batchConn) interruptWrite() {
	b.interrupted.Store(true)
	_ = b.Conn.SetWriteDeadline(time.Unix(1, 0))
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
	if sc, ok := nc.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			w.conn.raw = raw
		}
	}
	return w.conn, brw, nil
}
