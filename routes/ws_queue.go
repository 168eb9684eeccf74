package routes

import "sync"

// wsQueue is a connection's bounded send queue. Unlike a buffered channel
// it allocates only while messages wait, so an idle connection holds no
// queue memory, and the writer takes everything waiting in one go, which
// is what lets it batch the writes.
type wsQueue struct {
	mu    sync.Mutex
	items [][]byte
	limit int
	// ready has room for one signal: "there is something to take".
	ready chan struct{}
}

func newWSQueue(limit int) *wsQueue {
	return &wsQueue{limit: limit, ready: make(chan struct{}, 1)}
}

// push adds msg unless limit messages are already waiting; it never blocks.
func (q *wsQueue) push(msg []byte) bool {
	q.mu.Lock()
	if len(q.items) >= q.limit {
		q.mu.Unlock()
		return false
	}
	q.items = append(q.items, msg)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default: // a signal is already pending
	}
	return true
}

// take moves every waiting message into dst (reused by the caller) and
// returns it.
func (q *wsQueue) take(dst [][]byte) [][]byte {
	q.mu.Lock()
	dst = append(dst, q.items...)
	clear(q.items)
	if cap(q.items) > 64 {
		q.items = nil // a burst is over: give its memory back
	} else {
		q.items = q.items[:0]
	}
	q.mu.Unlock()
	return dst
}

// len reports how many messages wait.
func (q *wsQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}
