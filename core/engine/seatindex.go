package engine

import (
	"context"
	"slices"
	"sync"

	"github.com/vttapp/companion/core"
)

// seatIndex keeps the seats held, by the hash of their token, so that a
// drag or a broadcast learns whose seat a connection holds without a
// store read. It is filled from the store on first use, changed after
// each commit that changes a seat (Service.writeThen), and forgotten when
// content is replaced under it (a reload: a campaign imported or deleted
// takes its seats along).
type seatIndex struct {
	mu       sync.RWMutex
	loaded   bool
	byHolder map[string]*core.Seat
	// released keeps, for a holder who lost a seat that was on a map of
	// its own, that map: their connection must be told it looks at the
	// screen's map again (SeatMapChange).
	released map[string]string
	// changes counts set and forget calls: a load whose store read may
	// predate one of them is not installed (loadSeats reads again).
	changes uint64
}

// forget drops the index; the next lookup reads the store again.
func (x *seatIndex) forget() {
	x.mu.Lock()
	x.loaded, x.byHolder = false, nil
	x.changes++
	x.mu.Unlock()
}

// set records seats as stored (held or freed). The caller has committed them.
func (x *seatIndex) set(seats ...*core.Seat) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.changes++
	if !x.loaded {
		return // loaded whole, from the store, on first use
	}
	for _, s := range seats {
		for h, held := range x.byHolder {
			if held.EntityID == s.EntityID {
				if h != s.Holder && held.MapID != "" {
					if x.released == nil || len(x.released) > 256 {
						x.released = map[string]string{}
					}
					x.released[h] = held.MapID
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

// heldSeatOf returns the seat a token hash holds, nil when none (freed,
// given to someone else, or never).
func (s *Kernel) heldSeatOf(hash string) *core.Seat {
	if hash == "" {
		return nil
	}
	s.seatsByHash.mu.RLock()
	if s.seatsByHash.loaded {
		seat := s.seatsByHash.byHolder[hash]
		s.seatsByHash.mu.RUnlock()
		return seat
	}
	s.seatsByHash.mu.RUnlock()
	if err := s.loadSeats(context.Background()); err != nil {
		s.log.Error("seats: cannot read the seats", "err", err)
		return nil
	}
	s.seatsByHash.mu.RLock()
	defer s.seatsByHash.mu.RUnlock()
	return s.seatsByHash.byHolder[hash]
}

// SeatHeld reports whether a seat token's hash (SeatHash) still holds a
// seat: the hub asks it after seatsUpdated, to tell a connection that
// lost its seat.
func (s *seatsRoom) SeatHeld(hash string) bool { return s.heldSeatOf(hash) != nil }

// loadSeats fills the index from the store. A seat changed while it read
// makes it read again (a few times at most: seats change at the pace of
// people).
func (s *Kernel) loadSeats(ctx context.Context) error {
	for range 5 {
		s.seatsByHash.mu.RLock()
		before, loaded := s.seatsByHash.changes, s.seatsByHash.loaded
		s.seatsByHash.mu.RUnlock()
		if loaded {
			return nil
		}
		var seats []*core.Seat
		err := s.store.View(ctx, func(tx core.Tx) error {
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
		s.seatsByHash.mu.Lock()
		if s.seatsByHash.changes == before && !s.seatsByHash.loaded {
			s.seatsByHash.byHolder, s.seatsByHash.loaded = index, true
		}
		done := s.seatsByHash.loaded
		s.seatsByHash.mu.Unlock()
		if done {
			return nil
		}
	}
	return core.Conflictf("the seats kept changing while they were read; try again")
}

// SeatHeldID returns the id of the character whose seat a token hash
// holds, "" when none.
func (s *seatsRoom) SeatHeldID(hash string) string {
	if seat := s.heldSeatOf(hash); seat != nil {
		return seat.EntityID
	}
	return ""
}
