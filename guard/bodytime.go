package guard

import (
	"errors"
	"io"
	"net"
	"net/http"
	"time"
)

// How long a request body may take to arrive. The headers are bounded by the
// server's ReadHeaderTimeout; a body is bounded by two rules, so that a
// stalled or trickled body cannot hold its connection (and the memory its
// handler buffers) for ever, while a large body from a slow phone still
// arrives:
//
//   - it may not go quiet: each read waits at most BodyIdle for a byte;
//   - it must keep an average pace: its first n bytes must have arrived
//     within BodyGrace + n / BodyMinRate of the request's start.
//
// A body that breaks either rule is cut: the handler's read fails, the
// request is answered 408 and the connection closed. There is no absolute
// limit: a 2 GiB archive upload arriving at 1 MB/s takes 35 minutes and is
// never cut, a body trickled at 1 byte every 2 s is cut after BodyGrace.
const (
	DefaultBodyIdle    = 15 * time.Second
	DefaultBodyGrace   = 10 * time.Second
	DefaultBodyMinRate = 8 << 10 // bytes a second
)

// BodyTimes configures the body rules (zero fields take the defaults).
type BodyTimes struct {
	Idle    time.Duration
	Grace   time.Duration
	MinRate int64 // bytes a second
}

func (b BodyTimes) withDefaults() BodyTimes {
	if b.Idle <= 0 {
		b.Idle = DefaultBodyIdle
	}
	if b.Grace <= 0 {
		b.Grace = DefaultBodyGrace
	}
	if b.MinRate <= 0 {
		b.MinRate = DefaultBodyMinRate
	}
	return b
}

// ErrBodyTooSlow is the error of a body read cut by the rules.
var ErrBodyTooSlow = errors.New("the request body arrived too slowly and was cut off")

// BoundBodyTimes applies the rules to every request that has a body. The
// connection's read deadline is set before the handler runs, so a body the
// handler never reads (a refused write, an unknown path) is bounded too:
// the server reads what is left of it after the handler, under the same
// deadline.
func BoundBodyTimes(times BodyTimes, next http.Handler) http.Handler {
	times = times.withDefaults()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		b := &timedBody{body: r.Body, rc: http.NewResponseController(w), start: time.Now(), times: times}
		if b.arm() != nil {
			// The connection takes no deadline (not a network
			// connection, as in some tests): nothing to bound.
			next.ServeHTTP(w, r)
			return
		}
		r.Body = b
		next.ServeHTTP(w, r)
	})
}

// timedBody moves the connection's read deadline as the body arrives.
type timedBody struct {
	body  io.ReadCloser
	rc    *http.ResponseController
	start time.Time
	read  int64
	times BodyTimes
	done  bool
}

// arm sets the deadline of the next read: the sooner of the two rules.
func (b *timedBody) arm() error {
	deadline := time.Now().Add(b.times.Idle)
	paced := b.start.Add(b.times.Grace + time.Duration(float64(b.read)/float64(b.times.MinRate)*float64(time.Second)))
	if paced.Before(deadline) {
		deadline = paced
	}
	return b.rc.SetReadDeadline(deadline)
}

func (b *timedBody) Read(p []byte) (int, error) {
	if b.done {
		return b.body.Read(p)
	}
	_ = b.arm()
	n, err := b.body.Read(p)
	b.read += int64(n)
	var ne net.Error
	switch {
	case errors.Is(err, io.EOF):
		// The whole body is in: the server reads on in the background
		// (to see the client go away) and must not hit our deadline
		// while the handler works.
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	case errors.As(err, &ne) && ne.Timeout():
		err = ErrBodyTooSlow
	}
	return n, err
}

func (b *timedBody) Close() error { return b.body.Close() }
