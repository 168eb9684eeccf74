package hub

import (
	"encoding/binary"
)

// Direct writes: the fast path of a broadcast. A connection whose writer
// is idle (nothing queued, no batch being written) gets each broadcast
// frame written to its socket right away, by the broadcaster, with one
// non-blocking write. That spares the wake-up of its writer goroutine (a
// channel operation, a park and often a thread wake-up), which cost about
// as much as the write itself. The write never waits: when the socket
// buffer cannot take the frame (a slow client) the frame is queued as
// before, and the writer goroutine deals with it under its deadline. The
// frame is built once per broadcast and written as is to every client
// (a server's frames are not masked); envelopes are never merged.

// textFrame returns msg as one final, unmasked, uncompressed text frame
// (RFC 6455 5.2), the bytes gorilla would write for it.
func textFrame(msg []byte) []byte {
	n := len(msg)
	var hdr [10]byte
	hdr[0] = 0x80 | 0x1 // FIN, text
	h := 2
	switch {
	case n < 126:
		hdr[1] = byte(n)
	case n <= 0xffff:
		hdr[1] = 126
		binary.BigEndian.PutUint16(hdr[2:], uint16(n))
		h = 4
	default:
		hdr[1] = 127
		binary.BigEndian.PutUint64(hdr[2:], uint64(n))
		h = 10
	}
	out := make([]byte, 0, h+n)
	return append(append(out, hdr[:h]...), msg...)
}

// tryWrite writes frame to the socket now if it can without waiting, and
// reports whether the frame is sent. A frame the socket took in part is
// sent too: its rest is kept in tail, which goes out before any other
// byte, and needFlush asks the caller to have the writer send it. It is
// not sent (the caller queues it) when the connection is closing (done),
// while another write holds the connection, a batch is open or a tail
// waits, or when the socket is full.
func (b *batchConn) tryWrite(frame []byte, done <-chan struct{}) (sent, needFlush bool) {
	if b.raw == nil || b.dropped.Load() {
		return false, false
	}
	// Never wait, not even for the lock: the writer or the reader may hold
	// it for a write that blocks on a client that does not read (a tail,
	// a ping, a pong), and the broadcaster must never wait for a client.
	if !b.mu.TryLock() {
		return false, false
	}
	defer b.mu.Unlock()
	select {
	case <-done: // the close frame may follow at any moment: nothing after it
		return false, false
	default:
	}
	if b.batching || len(b.tail) > 0 {
		return false, false
	}
	var n int
	var werr error
	err := b.raw.Write(func(fd uintptr) bool {
		n, werr = writeNow(fd, frame)
		return true // never wait for the socket: that is the writer's job
	})
	if err != nil || werr != nil || n <= 0 {
		// Full (EAGAIN), a passed deadline or a broken connection: the
		// writer finds out and acts, under its deadline.
		return false, false
	}
	if n < len(frame) {
		b.tail = append(b.tail[:0], frame[n:]...)
		return true, true
	}
	return true, false
}

// writeTailLocked sends the rest of a frame a direct write left behind;
// nothing may be written before it.
func (b *batchConn) writeTailLocked() error {
	if len(b.tail) == 0 {
		return nil
	}
	var err error
	if b.batching {
		*b.buf = append(*b.buf, b.tail...)
	} else {
		_, err = b.Conn.Write(b.tail)
	}
	b.tail = nil
	return err
}

// flushTail sends the tail, if any, after setting the write deadline.
func (b *batchConn) flushTail(deadline func() error) error {
	b.mu.Lock()
	empty := len(b.tail) == 0
	b.mu.Unlock()
	if empty {
		return nil
	}
	if err := deadline(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.expired() {
		return errInterrupted
	}
	return b.writeTailLocked()
}
