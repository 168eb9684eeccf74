package kernel

import (
	"context"
	"sync"
	"time"

	"github.com/vttapp/companion/core"
)

// seatsUpdated, coalesced. Every seat taken, left, given or freed changes
// the list everyone reads, and a player taking and leaving a seat five
// hundred times sent a thousand lists to every client. So the list goes
// out with the first change, and the changes that follow within
// seatNewsEvery go out together once that time has passed, as the list
// then stands: at most a few lists a second, the last one always the
// list as it is.

// seatNewsEvery is the least time between two seatsUpdated.
const seatNewsEvery = 250 * time.Millisecond

// seatNews paces seatsUpdated.
type seatNews struct {
	mu    sync.Mutex
	last  time.Time
	timer *time.Timer // the publication of the changes held back, once armed
}

// SeatListDue reports whether a seat change committing now may carry the list
// (none went out within seatNewsEvery, and none is held back); otherwise
// the change is held back and published with the list as it then stands.
// The caller holds the commit lock.
func (s *Kernel) SeatListDue() bool {
	n := &s.seatNews
	n.mu.Lock()
	defer n.mu.Unlock()
	now := time.Now()
	if n.timer == nil && now.Sub(n.last) >= seatNewsEvery {
		n.last = now
		return true
	}
	if n.timer == nil {
		n.timer = time.AfterFunc(seatNewsEvery-now.Sub(n.last), s.publishHeldSeatList)
	}
	return false
}

// publishHeldSeatList publishes the seat list as it stands, for the
// changes held back. It reads the list under the commit lock, so no
// newer list can go out before it.
func (s *Kernel) publishHeldSeatList() {
	n := &s.seatNews
	n.mu.Lock()
	n.timer, n.last = nil, time.Now()
	n.mu.Unlock()
	p := s.Pin()
	err := p.Write(context.Background(), func(tx core.Tx) ([]core.Event, error) {
		t, err := p.SeatTable(tx)
		if err != nil {
			return nil, err
		}
		return []core.Event{{Name: core.EventSeatsUpdated, Data: t.List()}}, nil
	})
	if err != nil && !core.IsNotFound(err) {
		s.Log.Error("seats: the seat list was not sent", "err", err)
	}
}
