package play

import (
	"github.com/vttapp/companion/core"
)

// returnSeatsOf puts every seat on map id back on the player screen's map
// screen (map id is being deleted): their holders get that map, everyone
// the seat list. It returns the seats changed, for the seat index.
func (s playPinned) returnSeatsOf(tx core.Tx, id, screen string) ([]*core.Seat, []core.Event, error) {
	seats, err := tx.Seats("")
	if err != nil {
		return nil, nil, err
	}
	var out []*core.Seat
	var events []core.Event
	for _, st := range seats {
		if st.MapID != id {
			continue
		}
		cp := *st
		cp.MapID = ""
		if err := tx.PutSeat(&cp); err != nil {
			return nil, nil, err
		}
		out = append(out, &cp)
		loaded, err := s.SeatMapLoaded(tx, &cp, screen)
		if err != nil {
			return nil, nil, err
		}
		events = append(events, loaded...)
	}
	if len(out) > 0 {
		t, err := s.SeatTable(tx)
		if err != nil {
			return nil, nil, err
		}
		events = append(events, core.Event{Name: core.EventSeatsUpdated, Data: t.List()})
	}
	return out, events, nil
}
