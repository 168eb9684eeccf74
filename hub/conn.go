package hub

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
)

// conn is one WebSocket client: its registration, its bounded send queue
// and the signal that ends it.
type conn struct {
	hub   *Hub
	ws    *websocket.Conn
	bc    *batchConn
	id    string // "client-<channel>", the source of its drags and pointer
	queue *sendQueue
	// limits keeps this client from flooding the others (limits.go).
	limits limiter
	// address is the remote address whose slot the connection holds.
	address string
	// host marks the game master's console socket (host.go): it gets
	// the unredacted frames and is never limited or refused.
	host bool

	// numericDragStates: this client sent a tokenMoved state as an
	// integer, or its page is an installed client's (routes/client_kind.go), and
	// receives them so (dragstate.go).
	numericDragStates atomic.Bool

	mu     sync.Mutex
	client core.Client
	// Who the connection is (seats.go): the join key's grant at the
	// upgrade, the hash of the seat token it presented, whether it asked
	// to be a spectator and whether the game master made it one.
	grant                  core.Grant
	seat                   string
	spectator, gmSpectator bool

	closeOnce   sync.Once
	done        chan struct{}
	closeCode   int
	closeReason string
	// readEnded is closed when the reader stops: the writer, having sent
	// the close frame, waits for it (closeGrace at most) before closing the
	// socket, so that what the client sent meanwhile is read, not left in
	// the kernel's buffer; a socket closed with unread data resets the
	// connection, and the client loses the frames still on their way and
	// the close frame that says why.
	readEnded chan struct{}
}

// closeGrace is how long the writer waits, after its close frame, for the
// client's answer (or for the reader to drain what it still sends) before
// closing the socket.
const closeGrace = 5 * time.Second

func newConn(h *Hub, ws *websocket.Conn, bc *batchConn) *conn {
	return &conn{hub: h, ws: ws, bc: bc, queue: newSendQueue(h.opts.SendQueue), done: make(chan struct{}), readEnded: make(chan struct{})}
}

// snapshot returns the client's registration.
func (c *conn) snapshot() core.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.client
}

// source names the client in the drags and pointers it sends.
func (c *conn) source() core.EventSource {
	cl := c.snapshot()
	return core.EventSource{ID: c.id, Name: cl.Name, Color: cl.Color}
}

// enqueue adds a message for this connection alone to its send queue.
func (c *conn) enqueue(msg []byte) bool { return c.send(outMsg{data: msg}) }

// send adds msg to the send queue without ever waiting; the writer
// goroutine writes it. A client whose queue is full is too slow to follow
// the game: it is disconnected (1013, try again later) so that it never
// holds anyone else up.
func (c *conn) send(msg outMsg) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	if c.queue.push(msg) {
		return true
	}
	c.close(websocket.CloseTryAgainLater, "send queue full: client too slow")
	cl := c.snapshot()
	c.hub.log.Warn("websocket client too slow: send queue full, disconnecting",
		"channel", cl.Channel, "address", cl.Address, "queue", c.hub.opts.SendQueue)
	return false
}

// close ends the connection once with a close code; the writer sends the
// close frame. A client dropped for being too slow (1013) gets one write
// allowance (WriteWait) for the frame under way and the close frame: a
// client that still reads, only slowly, learns why it was dropped and
// may come back (a close frame after a frame cut in the middle would be
// read as its payload, so the frame under way is finished, not cut); one
// that does not read is closed when the allowance ends.
func (c *conn) close(code int, reason string) {
	c.closeOnce.Do(func() {
		c.closeCode, c.closeReason = code, reason
		if code == websocket.CloseTryAgainLater {
			c.bc.drop(time.Now().Add(c.hub.opts.WriteWait))
		}
		close(c.done)
		c.queue.signal(signalClose)
	})
}

// writeLoop is the connection's only writer: queued messages, pings (the
// hub's pinger raises the signal) and the final close frame.
func (c *conn) writeLoop() {
	h := c.hub
	defer func() {
		c.ws.Close() // unblocks the reader
		h.running.Done()
	}()
	var batch []outMsg
	for range c.queue.ready {
		signals := c.queue.takeSignals()
		if signals&signalClose != 0 {
			if c.sendClose() {
				// A lingering close: the reader drains until the client
				// answers the close frame or the grace ends.
				select {
				case <-c.readEnded:
				case <-time.After(closeGrace):
				}
			}
			return
		}
		batch = c.queue.take(batch[:0])
		if len(batch) > 0 {
			err := c.writeBatch(batch)
			clear(batch)
			if cap(batch) > 16 {
				batch = nil // an idle connection keeps no burst-sized slice
			}
			if err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				if !errors.Is(err, websocket.ErrCloseSent) && !errors.Is(err, errInterrupted) {
					h.log.Info("websocket write failed", "channel", c.snapshot().Channel, "err", err)
				}
				return
			}
		}
		if signals&signalPing != 0 {
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(h.opts.WriteWait)); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		}
	}
}

// writeBatch writes the messages, one frame each, and hands them to the
// socket together.
func (c *conn) writeBatch(msgs []outMsg) error {
	if err := c.ws.SetWriteDeadline(time.Now().Add(c.hub.opts.WriteWait)); err != nil {
		return err
	}
	if len(msgs) == 1 {
		return c.write(msgs[0])
	}
	c.bc.beginBatch()
	var err error
	for _, m := range msgs {
		select {
		case <-c.done:
			return c.bc.flush(time.Now().Add(c.hub.opts.WriteWait)) // closing: the rest is moot
		default:
		}
		if err = c.write(m); err != nil {
			break
		}
	}
	if ferr := c.bc.flush(time.Now().Add(c.hub.opts.WriteWait)); err == nil {
		err = ferr
	}
	return err
}

// write hands one message to gorilla: its prepared frame when the
// broadcast made one, its bytes otherwise.
func (c *conn) write(m outMsg) error {
	if m.prepared != nil {
		return c.ws.WritePreparedMessage(m.prepared)
	}
	return c.ws.WriteMessage(websocket.TextMessage, m.data)
}

// sendClose writes the close frame; it reports whether one went out.
func (c *conn) sendClose() bool {
	if c.closeCode == websocket.CloseAbnormalClosure {
		return false // 1006 is never sent on the wire
	}
	msg := websocket.FormatCloseMessage(c.closeCode, c.closeReason)
	return c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(c.hub.opts.WriteWait)) == nil
}

// readLoop is the connection's only reader: it handles client events one
// at a time, in the order they were sent.
func (c *conn) readLoop() {
	h := c.hub
	defer func() {
		close(c.readEnded)
		c.close(websocket.CloseNormalClosure, "")
		c.limits.stop() // no held move acts for a client that is gone
		if !c.host {
			h.releaseSlot(c.address) // the host console never took one
		}
		h.unregister(c)
		h.running.Done()
	}()
	c.ws.SetReadLimit(h.opts.MaxMessageBytes)
	alive := func() { c.ws.SetReadDeadline(time.Now().Add(h.opts.PongWait)) }
	alive()
	c.ws.SetPongHandler(func(string) error { alive(); return nil })
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			c.logReadEnd(err)
			return
		}
		select {
		case <-c.done:
			// Closed (dropped as too slow, say) while its writer still
			// delivers the close frame: what it sends now is read and
			// not acted on, until its answer to the close frame ends the
			// read (or the writer's grace closes the socket).
			continue
		default:
		}
		alive()
		h.dispatch(c, data)
	}
}

func (c *conn) logReadEnd(err error) {
	cl := c.snapshot()
	var ce *websocket.CloseError
	switch {
	case errors.Is(err, websocket.ErrReadLimit):
		c.close(websocket.CloseMessageTooBig, "") // gorilla has sent 1009 already
		c.hub.log.Warn("websocket client sent a frame over the size limit, disconnected (1009)",
			"channel", cl.Channel, "address", cl.Address, "limit", c.hub.opts.MaxMessageBytes)
	case errors.As(err, &ce):
		c.hub.log.Debug("websocket client closed", "channel", cl.Channel, "code", ce.Code)
	default:
		select {
		case <-c.done: // we closed it
		default:
			c.hub.log.Info("websocket read ended", "channel", cl.Channel, "err", err)
		}
	}
}
