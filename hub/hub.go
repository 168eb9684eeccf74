package hub

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/redact"
)

// Options tunes the WebSocket hub. Zero values take the defaults below.
type Options struct {
	// AllowOrigins lists Origins a WebSocket may come from besides the
	// server's own host ("https://table.example", a bare host, or "*").
	AllowOrigins []string
	// SendQueue is how many outgoing messages may wait for one client;
	// a client whose queue is full is disconnected (1013). Default 1024:
	// room for a burst (one commit may publish many events), and taken
	// only while messages wait.
	SendQueue int
	// MaxMessageBytes is the largest frame a client may send (close 1009
	// past it). Default 1 MiB.
	MaxMessageBytes int64
	// WriteWait bounds each write to a client. Default 10 s.
	WriteWait time.Duration
	// PongWait is how long a client may stay silent (no message, no pong)
	// before it is dropped; pings go out at half of it. Default 60 s.
	PongWait time.Duration
	// HandlerTimeout bounds the work done for one client message. Default 10 s.
	HandlerTimeout time.Duration

	// Flood limits (limits.go). Zero takes the default, a negative
	// value lifts the limit.

	// MaxConnections caps the simultaneous WebSocket connections; an
	// upgrade past it is answered 503 {"message"}. Default 500: every
	// connection receives every broadcast, so the cap bounds the fan-out.
	MaxConnections int
	// MaxConnectionsPerAddress caps the connections from one remote
	// address (loopback excepted, peraddress.go); past it an upgrade is
	// answered 503 {"message"}. Default 32; negative lifts it.
	MaxConnectionsPerAddress int
	// StreamRate is how many moves a second one client's stream (a token
	// it drags, its pointer, its viewport) is forwarded; faster moves are
	// coalesced, the latest position always goes out. Default 60.
	StreamRate int
	// StreamBurst is how many moves a stream may send at once, ahead of
	// StreamRate (a client's frame jitter). Default 10.
	StreamBurst int
	// RequestRate and RequestBurst are the token bucket of every other
	// request: RequestBurst at once, RequestRate a second. A request past
	// them gets an error reply (kind "rate limited"). Defaults 50 and 100.
	RequestRate  int
	RequestBurst int
}

// Defaults of Options.
const (
	DefaultSendQueue       = 1024
	DefaultMaxMessageBytes = 1 << 20
	DefaultWriteWait       = 10 * time.Second
	DefaultPongWait        = 60 * time.Second
	DefaultHandlerTimeout  = 10 * time.Second
)

func (o *Options) fill() {
	if o.SendQueue <= 0 {
		o.SendQueue = DefaultSendQueue
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if o.WriteWait <= 0 {
		o.WriteWait = DefaultWriteWait
	}
	if o.PongWait <= 0 {
		o.PongWait = DefaultPongWait
	}
	if o.HandlerTimeout <= 0 {
		o.HandlerTimeout = DefaultHandlerTimeout
	}
	if o.MaxConnections == 0 {
		o.MaxConnections = DefaultMaxConnections
	}
	if o.MaxConnectionsPerAddress == 0 {
		o.MaxConnectionsPerAddress = DefaultMaxConnectionsPerAddress
	}
	if o.StreamRate == 0 {
		o.StreamRate = DefaultStreamRate
	}
	if o.StreamBurst <= 0 {
		o.StreamBurst = DefaultStreamBurst
	}
	if o.RequestRate == 0 {
		o.RequestRate = DefaultRequestRate
	}
	if o.RequestBurst <= 0 {
		o.RequestBurst = DefaultRequestBurst
	}
}

// Hub is the WebSocket side of the live game (contract 6). Each connection
// has one reader goroutine (decodes and handles client events in order) and
// one writer goroutine (drains a bounded send queue). Broadcasts come from
// the event bus, inside the core's commit lock (see the package doc): the
// subscriber marshals each event once and queues it for every client, so
// a slow client never slows the service or the other clients.
type Hub struct {
	svc      *engine.Service
	log      *slog.Logger
	opts     Options
	upgrader websocket.Upgrader

	mu          sync.RWMutex
	conns       map[*conn]struct{}
	nextChannel int
	closed      bool
	// slots counts the connections admitted under MaxConnections, from
	// before their upgrade until their reader ends.
	slots atomic.Int64
	// perAddress counts them per remote address (peraddress.go).
	perAddress addressSlots
	// refusals writes the lines of refused upgrades, thinned out
	// (refusallog.go).
	refusals refusalLog
	// hostCount is how many host console sockets are open (host.go):
	// without one, no host frame is encoded.
	hostCount atomic.Int64
	// gone remembers who recently closed connections were (recentlygone.go),
	// so that a kick of a row the console still shows reaches the device
	// that reconnected meanwhile.
	gone recentlyGone

	unsubscribe func()
	running     sync.WaitGroup // reader and writer goroutines
	stop        chan struct{}  // ends the pinger
}

// New returns a hub that broadcasts every event published on bus and
// hands client events to svc.
func New(svc *engine.Service, bus *core.Bus, log *slog.Logger, opts Options) *Hub {
	opts.fill()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Hub{
		svc:      svc,
		log:      log,
		opts:     opts,
		conns:    map[*conn]struct{}{},
		refusals: refusalLog{log: log},
	}
	h.upgrader = websocket.Upgrader{
		HandshakeTimeout: 10 * time.Second,
		CheckOrigin:      h.checkOrigin,
		// Write buffers are taken from a pool per message and given back,
		// so an idle connection holds none.
		WriteBufferPool: &sync.Pool{},
	}
	h.unsubscribe = bus.Subscribe(h.broadcast)
	h.stop = make(chan struct{})
	go h.pinger()
	return h
}

// pinger asks every writer to ping its client at half of PongWait (a
// client has the other half to answer, even on a busy machine): one
// timer for the hub rather than one per connection.
func (h *Hub) pinger() {
	t := time.NewTicker(h.opts.PongWait / 2)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
			h.mu.RLock()
			for c := range h.conns {
				c.queue.signal(signalPing)
			}
			h.mu.RUnlock()
		}
	}
}

// ServeHTTP upgrades a request on any path to a WebSocket connection.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.refuseWhenClosed(w) {
		return
	}
	address := remoteHost(r.RemoteAddr)
	if !h.takeSlot() {
		h.refusals.write(slog.LevelWarn, "websocket refused: too many connections", "remote", r.RemoteAddr, "max", h.opts.MaxConnections)
		refuse(w, http.StatusServiceUnavailable,
			"too many live connections ("+strconv.Itoa(h.opts.MaxConnections)+"): try again when a player leaves")
		return
	}
	if !h.perAddress.take(address, h.opts.MaxConnectionsPerAddress) {
		h.slots.Add(-1)
		h.refusals.write(slog.LevelWarn, "websocket refused: too many connections from one address", "remote", r.RemoteAddr, "max", h.opts.MaxConnectionsPerAddress)
		refuse(w, http.StatusServiceUnavailable,
			"too many live connections from "+address+" ("+strconv.Itoa(h.opts.MaxConnectionsPerAddress)+"): close some, or start the server with a higher --max-clients-per-address")
		return
	}
	bw := &hijackWriter{ResponseWriter: w}
	ws, err := h.upgrader.Upgrade(bw, r, nil)
	if err != nil {
		h.releaseSlot(address)
		// The upgrader has answered the request (403 for a foreign Origin,
		// 400 for a bad handshake).
		h.refusals.write(slog.LevelInfo, "websocket upgrade refused", "remote", r.RemoteAddr, "origin", r.Header.Get("Origin"), "err", err)
		return
	}
	c := h.serve(ws, bw.conn, address, false, numericStatesAsked(r.Context()), admissionOf(r.Context()))
	if c == nil {
		return
	}
	if token, _ := r.Context().Value(seatTokenKey{}).(string); token != "" {
		// A seat link's cookie: the connection holds that seat, and is told
		// which (the token itself is its browser's already).
		ctx, cancel := context.WithTimeout(r.Context(), h.opts.HandlerTimeout)
		defer cancel()
		if taken, err := h.svc.ResumeSeat(ctx, c.actor(), token); err == nil {
			c.setSeat(core.SeatHash(token))
			c.send1(core.EventSeatChanged, taken)
		}
	}
}

// serve registers a connection, greets it and runs its two goroutines.
// numericStates starts it on integer drag states (routes/client_kind.go).
func (h *Hub) serve(ws *websocket.Conn, bc *batchConn, address string, host, numericStates bool, grant core.Grant) *conn {
	c := newConn(h, ws, bc)
	c.address = address
	c.host = host
	c.grant = grant
	c.numericDragStates.Store(numericStates)
	// app goes first in the queue, before any broadcast can reach it.
	app, _ := json.Marshal(outEnvelope{Name: core.EventApp, Data: map[string]any{"version": core.Version, "build": core.Build}})
	c.queue.push(outMsg{data: app})

	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		ws.Close()
		if !host {
			h.releaseSlot(address)
		}
		return nil
	}
	h.nextChannel++
	c.client = core.Client{Channel: h.nextChannel, Address: address, RunMode: core.RunModeNormal}
	c.id = "client-" + strconv.Itoa(h.nextChannel)
	if host {
		c.id = "host-" + strconv.Itoa(h.nextChannel)
		c.client.Name = hostClientName
		h.hostCount.Add(1)
	}
	h.conns[c] = struct{}{}
	h.running.Add(2)
	h.mu.Unlock()
	if host {
		go c.writeLoop()
		h.log.Info("host console socket opened", "id", c.id)
		go c.readLoop()
		return c
	}

	client := c.client
	c.tellDrags()
	go c.writeLoop()
	h.svc.Publish(core.Event{Name: core.EventClientConnected, Data: client})
	h.log.Info("websocket client connected", "channel", client.Channel, "address", address)
	go c.readLoop() // a fresh goroutine: its stack stays smaller than the HTTP one
	return c
}

// takeSlot admits one more connection under MaxConnections.
func (h *Hub) takeSlot() bool {
	if n := h.slots.Add(1); h.opts.MaxConnections > 0 && n > int64(h.opts.MaxConnections) {
		h.slots.Add(-1)
		return false
	}
	return true
}

// releaseSlot gives back the slots of a connection from address.
func (h *Hub) releaseSlot(address string) {
	h.perAddress.release(address, h.opts.MaxConnectionsPerAddress)
	h.slots.Add(-1)
}

// unregister removes a connection that ended and tells everyone.
func (h *Hub) unregister(c *conn) {
	h.mu.Lock()
	_, ok := h.conns[c]
	delete(h.conns, c)
	h.mu.Unlock()
	if !ok {
		return
	}
	h.svc.Drags().Release(c.id) // its drags go back to where they started
	// and its marks' moves end: a ruler it stretched goes, a template or a pin goes back
	h.svc.ReleaseMarkMoves(context.Background(), c.id)
	if c.host {
		h.hostCount.Add(-1)
		h.log.Info("host console socket closed", "id", c.id)
		return // the host console is no player: nobody was told it came
	}
	client := c.snapshot()
	c.mu.Lock()
	seat, pass := c.seat, c.grant.Pass
	c.mu.Unlock()
	h.gone.remember(client.Channel, seat, pass, client.Address, time.Now())
	h.svc.Publish(core.Event{Name: core.EventClientDisconnected, Data: client})
	h.log.Info("websocket client disconnected", "channel", client.Channel, "address", client.Address)
}

// Clients lists the connected clients by channel.
func (h *Hub) Clients() []core.Client {
	h.mu.RLock()
	out := make([]core.Client, 0, len(h.conns))
	for c := range h.conns {
		if !c.host {
			out = append(out, c.snapshot())
		}
	}
	h.mu.RUnlock()
	slices.SortFunc(out, func(a, b core.Client) int { return a.Channel - b.Channel })
	return out
}

// broadcast is the bus subscriber. It runs inside the core's commit lock
// (engine.Service publishes while it holds its write lock; see the package
// doc), which is what gives every connection the events in commit order.
// So it must never wait for a client: each event is marshalled once, then
// appended to every connection's bounded queue, the originator included;
// the connections' writers send it. A full queue closes that connection (1013); nothing here
// blocks on a socket.
func (h *Hub) broadcast(events []core.Event) {
	msgs := make([]outMsg, len(events))
	var only [][]string // per event: the seats it is for, nil for every player (a whisper: core.Views.Seats)
	var onMap []string  // per event: the map it is about, "" for any (a split party: core.EventMap)
	hosts := h.hostCount.Load() > 0
	var host *hostFrames
	if hosts {
		host = newHostFrames(len(events))
	}
	for i, e := range events {
		players, forPlayersToo := redact.PlayersPayload(e.Data)
		if host != nil {
			host.encode(h, i, e, forPlayersToo) // the game master's own frame, when it differs (host.go)
		}
		if !forPlayersToo {
			continue
		}
		b, err := json.Marshal(outEnvelope{Name: e.Name, Data: players})
		if err != nil {
			h.log.Error("websocket: event not sent, cannot encode it", "event", e.Name, "err", err)
			continue
		}
		msgs[i] = broadcastMsg(b) // framed once for every client
		if id := redact.EventMap(e.Data); id != "" {
			if onMap == nil {
				onMap = make([]string, len(events))
			}
			onMap[i] = id
		}
		if seats := redact.PlayersSeats(e.Data); seats != nil {
			if only == nil {
				only = make([][]string, len(events))
			}
			only[i] = seats
		}
	}
	numMsgs := h.numericFrames(events) // tokenMoved with integer states (dragstate.go)
	h.mu.RLock()
	defer h.mu.RUnlock()
	for c := range h.conns {
		if c.host {
			if host == nil {
				// A host socket joined after hostCount was read: its
				// frames are encoded now (rare; the lock keeps the rest
				// of the broadcast in order).
				host = h.hostFramesOf(events)
			}
			host.send(c, msgs)
			continue
		}
		numeric := numMsgs != nil && c.numericDragStates.Load()
		looksAt, looked := "", false
		for i, m := range msgs {
			if m.data == nil || only != nil && only[i] != nil && !c.holdsOneOf(only[i]) {
				continue
			}
			if onMap != nil && onMap[i] != "" {
				if !looked { // once per connection and broadcast, from memory
					looksAt, looked = h.svc.ViewerMap(c.seatHash()), true
				}
				if onMap[i] != looksAt {
					continue // about a map this client does not look at
				}
			}
			if numeric && numMsgs[i].data != nil {
				m = numMsgs[i]
			}
			if !c.send(m) {
				break
			}
		}
	}
	h.afterBroadcastLocked(events)
}

// Close sends a close frame (1001, going away) to every client and stops
// the hub; it waits a few seconds at most for the connections to end.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	close(h.stop)
	conns := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	h.unsubscribe()
	for _, c := range conns {
		c.close(websocket.CloseGoingAway, "server shutting down")
	}
	done := make(chan struct{})
	go func() { h.running.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		h.log.Warn("websocket: connections still open 5s after close")
	}
}

func remoteHost(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return host
}

// refuseWhenClosed answers 503 once Close has begun, and reports whether it did.
func (h *Hub) refuseWhenClosed(w http.ResponseWriter) bool {
	h.mu.RLock()
	closed := h.closed
	h.mu.RUnlock()
	if closed {
		refuse(w, http.StatusServiceUnavailable, "the server is shutting down")
	}
	return closed
}

// refuse answers an upgrade the hub will not take with status and
// {"message": text}, the error body of the whole public interface (the
// body routes/httpkit/errors.go writes; the hub does not import routes).
func refuse(w http.ResponseWriter, status int, text string) {
	body, _ := json.Marshal(map[string]string{"message": text})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
