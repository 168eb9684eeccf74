// Package ratelog thins out a log line that a client can trigger at will:
// a refused connection or upgrade is logged once per interval, with the
// count of those left out since, so that a flood is a line every few
// seconds rather than a line per attempt.
package ratelog

import (
	"sync"
	"time"
)

// DefaultEvery is the interval the server uses for its refusal lines.
const DefaultEvery = 10 * time.Second

// Limiter lets one line through per interval. The zero value lets every
// line through; use New. It is safe for concurrent use.
type Limiter struct {
	every time.Duration

	mu      sync.Mutex
	next    time.Time
	dropped int
}

// New returns a limiter letting one line through every interval.
func New(every time.Duration) *Limiter { return &Limiter{every: every} }

// Allow reports whether a line may be written now, and how many were left
// out since the last one written.
func (l *Limiter) Allow() (ok bool, leftOut int) {
	if l == nil || l.every <= 0 {
		return true, 0
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Before(l.next) {
		l.dropped++
		return false, 0
	}
	l.next = now.Add(l.every)
	leftOut, l.dropped = l.dropped, 0
	return true, leftOut
}
