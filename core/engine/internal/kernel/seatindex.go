package kernel

import (
	"context"
	"slices"
	"sync"

	"github.com/vttapp/companion/core"
)

// seatIndex keeps the seats held, by the hash of their token, so that a
// drag or a broadcast learns whose seat a connection holds without a
// store read. It is filled from the store on first use, changed after
// each commit that changes a seat (Kernel.WriteThen), and forgotten when
// content is replaced under it (a reload: a campaign imported or deleted
// takes its seats along).
type seatIndex struct {
	Mu       sync.RWMutex
	loaded   bool
	byHolder map[string]*core.Seat
	// Released keeps, for a holder who lost a seat that was on a map of
	// its own, that map: their connection must be told it looks at the
	// screen's map again (SeatMapChange).
	Released map[string]string
	// changes counts set and forget calls: a load whose store read may
	// predate one of them is not installed (loadSeats reads again).
	changes uint64
}

// forget drops the index; the next lookup reads the store again.
func (x *seatIndex) forget() {
	x.Mu.Lock()
	x.loaded, x.byHolder = false, nil
	x.changes++
	x.Mu.Unlock()
}

// Set records seats as stored (held or freed). The caller has committed them.
func (x *seatIndex) Set(seats ...*core.Seat) {
	x.Mu.Lock()
	defer x.Mu.Unlock()
	x.changes++
	if !x.loaded {
		return // loaded whole, from the store, on first use
	}
	for _, s := range seats {
		for h, held := range x.byHolder {
			if held.EntityID == s.EntityID {
				if h != s.Holder && held.MapID != "" {
					if x.Released == nil || len(x.Released) > 256 {
						x.Released = map[string]string{}
					}
					x.Released[h] = held.MapID
				}
				delete(x.byHolder, h)
			}
		}
		if s.Holder != "" {
			cp := *s
			cp.Controls = slices.Clone(s.Controls)
			x.byHolder[s.Holder] = &cp
		}
	}
}

// HeldSeatOf returns the seat a token hash holds, nil when none (freed,
// given to someone else, or never).
func (s *Kernel) HeldSeatOf(hash string) *core.Seat {
	if hash == "" {
		return nil
	}
	s.SeatsByHash.Mu.RLock()
	if s.SeatsByHash.loaded {
		seat := s.SeatsByHash.byHolder[hash]
		s.SeatsByHash.Mu.RUnlock()
		return seat
	}
	s.SeatsByHash.Mu.RUnlock()
	if err := s.loadSeats(context.Background()); err != nil {
		s.Log.Error("seats: cannot read the seats", "err", err)
		return nil
	}
	s.SeatsByHash.Mu.RLock()
	defer s.SeatsByHash.Mu.RUnlock()
	return s.SeatsByHash.byHolder[hash]
}

// loadSeats fills the index from the store. A seat changed while it read
// makes it read again (a few times at most: seats change at the pace of
// people).
func (s *Kernel) loadSeats(ctx context.Context) error {
	for range 5 {
		s.SeatsByHash.Mu.RLock()
		before, loaded := s.SeatsByHash.changes, s.SeatsByHash.loaded
		s.SeatsByHash.Mu.RUnlock()
		if loaded {
			return nil
		}
		var seats []*core.Seat
		err := s.Store.View(ctx, func(tx core.Tx) error {
			var err error
			seats, err = tx.Seats("")
			return err
		})
		if err != nil {
			return err
		}
		index := map[string]*core.Seat{}
		for _, seat := range seats {
			if seat.Holder != "" {
				index[seat.Holder] = seat
			}
		}
		s.SeatsByHash.Mu.Lock()
		if s.SeatsByHash.changes == before && !s.SeatsByHash.loaded {
			s.SeatsByHash.byHolder, s.SeatsByHash.loaded = index, true
		}
		done := s.SeatsByHash.loaded
		s.SeatsByHash.Mu.Unlock()
		if done {
			return nil
		}
	}
	return core.Conflictf("the seats kept changing while they were read; try again")
}
