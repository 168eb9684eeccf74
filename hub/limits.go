package hub

// Flood protection (contract 6 sets no rate limits; these are ours). Every
// client message that changes something is fanned out to every client, so
// one client could otherwise make the server send without bound. Each
// connection has:
//
//   - A coalescer for the live streams (the events whose row in events.go
//     has a stream): tokenMoved in state control, pointerUpdated in state
//     control or none, and mapViewportUpdated. Each object a
//     client moves (one token, one pointer, its viewport) is a stream that
//     goes out at most StreamRate times a second (default 60, a display's
//     frame rate) with a burst of StreamBurst (default 10) that absorbs the
//     jitter of a client sending at its frame rate. A move that finds the
//     stream's budget spent is held, and a newer move replaces it, so the
//     latest position always goes out, at most 1/StreamRate later. The
//     states start, end, cancel and block are never coalesced: they go out
//     in order, after the held move of their stream.
//   - A token bucket for every other request (and the stream states):
//     RequestBurst (default 100) at once, RequestRate (default 50) a
//     second. A request past it is not acted on and is answered with an
//     error (kind "rate limited") on its requestId, or without one when it
//     has none: nothing, a createMessage least of all, is dropped silently.
//
// A real client stays far inside both: a drag or a pointer at the screen's
// frame rate passes untouched, and a person does not make 50 changes a
// second. Unknown and malformed messages cost the sender alone (they are
// ignored or answered to it) and are not counted.

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// Defaults of the flood limits (see Options).
const (
	DefaultMaxConnections = 500
	DefaultStreamRate     = 60
	DefaultStreamBurst    = 10
	DefaultRequestRate    = 50
	DefaultRequestBurst   = 100
)

// maxStreams bounds the streams one connection may have coalesced at
// once (the tokens, pointers and viewport it moves). A move that would open
// one more is charged to the request bucket instead, so a client cannot
// grow the table by inventing ids.
const maxStreams = 64

// maxStreamKey bounds the id that names a stream, for the same reason.
const maxStreamKey = 256

// kindRateLimited is the error kind of a request refused by the limits.
const kindRateLimited = "rate limited"

// bucket is a token bucket: burst tokens at most, rate tokens a second.
type bucket struct {
	tokens float64
	last   time.Time
}

func (b *bucket) refill(now time.Time, rate, burst float64) {
	if b.last.IsZero() {
		b.tokens = burst
	} else if d := now.Sub(b.last); d > 0 {
		b.tokens = min(burst, b.tokens+d.Seconds()*rate)
	}
	b.last = now
}

// take spends a token if one is there.
func (b *bucket) take(now time.Time, rate, burst float64) bool {
	b.refill(now, rate, burst)
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

// wait is how long until the next token (after a failed take).
func (b *bucket) wait(rate float64) time.Duration {
	return time.Duration((1 - b.tokens) / rate * float64(time.Second))
}

// full reports whether the bucket has refilled: a stream in that state
// holds nothing a new one would not.
func (b *bucket) full(now time.Time, rate, burst float64) bool {
	return b.last.IsZero() || b.tokens+now.Sub(b.last).Seconds()*rate >= burst
}

// moveStream is one coalesced stream of a connection.
type moveStream struct {
	bucket  bucket
	pending *inEnvelope // the latest move held back, nil when none
	timer   *time.Timer // sends pending when the budget allows
}

// limiter holds a connection's limits. Handling is serialised by
// handling: the reader holds it while it acts on a message, a stream's
// timer while it sends a held move, so a stream's messages are handled in
// the order they were sent.
type limiter struct {
	handling sync.Mutex
	stopped  bool // under handling: the connection ended, held moves are moot

	mu       sync.Mutex
	requests bucket
	streams  map[string]*moveStream
}

// streamKey names the stream of a message whose event is a stream
// (events.go), and tells whether the message is a move that may be
// coalesced. A payload that cannot be read, or names an id past
// maxStreamKey, makes no stream: the handler reports the error, and the
// message is counted as a request.
func streamKey(env *inEnvelope) (key string, coalesce, stream bool) {
	if env.event == nil || env.event.stream == nil {
		return "", false, false
	}
	var f struct {
		ID    string    `json:"id"`
		State dragState `json:"state"` // a name, or 0-4 from the real web client
	}
	if len(env.Data) == 0 || json.Unmarshal(env.Data, &f) != nil || len(f.ID) > maxStreamKey {
		return "", false, false
	}
	key, coalesce = env.event.stream(f.ID, string(f.State))
	return env.Name + "\x00" + key, coalesce, true
}

// admit decides what happens to a client message that has a handler. It
// returns the messages to handle now, in order (a stream's held move goes
// before the state that ends it), and whether the request bucket refused
// env. A coalesced move may be held: then nothing is handled now.
func (h *Hub) admit(c *conn, env *inEnvelope) (now []*inEnvelope, refused bool) {
	l := &c.limits
	o := &h.opts
	t := time.Now()
	key, coalesce, isStream := streamKey(env)
	l.mu.Lock()
	defer l.mu.Unlock()
	if isStream && coalesce && o.StreamRate < 0 {
		return []*inEnvelope{env}, false // streams unlimited (benchmarks of the fan-out itself)
	}
	var s *moveStream
	if isStream && o.StreamRate > 0 {
		s = l.stream(key, t, float64(o.StreamRate), float64(o.StreamBurst))
	}
	if s != nil && coalesce {
		if s.pending != nil {
			h.superseded(c, s.pending)
			s.pending = env // the timer sends the latest
			return nil, false
		}
		if s.bucket.take(t, float64(o.StreamRate), float64(o.StreamBurst)) {
			return []*inEnvelope{env}, false
		}
		s.pending = env
		s.timer = time.AfterFunc(s.bucket.wait(float64(o.StreamRate)), func() { h.sendHeld(c, key) })
		return nil, false
	}
	if s != nil && s.pending != nil {
		// A state (start, end...) ends what was held: the held move goes
		// first, now, and is charged to the stream as if sent on time.
		s.timer.Stop()
		now = append(now, s.pending)
		s.pending, s.timer = nil, nil
		s.bucket.take(t, float64(o.StreamRate), float64(o.StreamBurst))
	}
	if o.RequestRate > 0 && !l.requests.take(t, float64(o.RequestRate), float64(o.RequestBurst)) {
		return now, true
	}
	return append(now, env), false
}

// stream returns the stream named key, opening it when there is room.
func (l *limiter) stream(key string, t time.Time, rate, burst float64) *moveStream {
	if s := l.streams[key]; s != nil {
		return s
	}
	if len(l.streams) >= maxStreams {
		for k, s := range l.streams { // forget the streams at rest
			if s.pending == nil && s.bucket.full(t, rate, burst) {
				delete(l.streams, k)
			}
		}
		if len(l.streams) >= maxStreams {
			return nil
		}
	}
	if l.streams == nil {
		l.streams = map[string]*moveStream{}
	}
	s := &moveStream{}
	l.streams[key] = s
	return s
}

// superseded answers a held move that a newer one replaced, when it asked
// for an answer: it was not lost, the newer position went out instead.
func (h *Hub) superseded(c *conn, env *inEnvelope) {
	if len(env.RequestID) > 0 {
		c.reply(env.Name, env.RequestID, map[string]any{"ok": true, "coalesced": true})
	}
}

// sendHeld is a stream's timer: it handles the held move, in turn with the
// reader.
func (h *Hub) sendHeld(c *conn, key string) {
	l := &c.limits
	l.handling.Lock()
	defer l.handling.Unlock()
	if l.stopped {
		return
	}
	l.mu.Lock()
	s := l.streams[key]
	if s == nil || s.pending == nil {
		l.mu.Unlock()
		return // a state message sent it meanwhile
	}
	env := s.pending
	s.pending, s.timer = nil, nil
	s.bucket.refill(time.Now(), float64(h.opts.StreamRate), float64(h.opts.StreamBurst))
	s.bucket.tokens-- // due now: the timer waited for this token
	l.mu.Unlock()
	h.handle(c, env)
}

// stop ends the limiter with the connection: held moves are dropped (their
// sender is gone) and no timer acts after it returns.
func (l *limiter) stop() {
	l.handling.Lock()
	l.stopped = true
	l.handling.Unlock()
	l.mu.Lock()
	for _, s := range l.streams {
		if s.timer != nil {
			s.timer.Stop()
		}
		s.pending = nil
	}
	l.mu.Unlock()
}

// rateLimitedData is the error reply to a refused request.
func (h *Hub) rateLimitedData(name string) map[string]any {
	return map[string]any{
		"message": "too many requests: at most " + strconv.Itoa(h.opts.RequestBurst) + " at once and " +
			strconv.Itoa(h.opts.RequestRate) + " a second per connection; this one was not acted on, send it again later",
		"kind":    kindRateLimited,
		"request": name,
	}
}
