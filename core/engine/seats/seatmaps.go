package seats

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// SeatMapID returns the map of the seat seatHash holds when the game
// master put it on a map of its own, "" when it follows the screen.
func (s *SeatsRoom) SeatMapID(seatHash string) string {
	if seat := s.HeldSeatOf(seatHash); seat != nil {
		return seat.MapID
	}
	return ""
}

// SetSeatMap puts a seat on a map of its own (split party) or, with an
// empty mapID, back on the player screen's map. The seat's holder gets
// mapLoaded with the map they now see (null when the screen shows none);
// everyone gets seatsUpdated.
func (s *SeatsRoom) SetSeatMap(ctx context.Context, seatID, mapID string) error {
	p := s.pin()
	return p.changeSeats(ctx, func(tx core.Tx, t *kernel.SeatTable) ([]*core.Seat, []core.Event, error) {
		if _, err := t.Character(seatID); err != nil {
			return nil, nil, err
		}
		var m *core.Map
		if mapID != "" {
			var err error
			if m, err = kernel.MapByID(tx, mapID); err != nil {
				return nil, nil, err
			}
			if m.GridPending {
				return nil, nil, core.Conflictf("map '%s' waits for its grid: set its grid size and offset before a seat goes on it", core.Clip(m.Name))
			}
		}
		st := *t.Seat(seatID)
		st.MapID = mapID
		screen, err := p.PlayerScreenMap(tx)
		if err != nil {
			return nil, nil, err
		}
		if mapID == screen {
			st.MapID = "" // on the screen's map: it follows the screen from now on
		}
		events, err := p.SeatMapLoaded(tx, &st, screen)
		return []*core.Seat{&st}, events, err
	})
}

// SeatMapChange tells the hub, when a connection's seat token changes
// from before to after (a seat taken, resumed, given, left or freed),
// whether the map it looks at changed because one of the seats was on a
// map of its own, and the map it looks at now. The hub then sends it
// mapLoaded (PlayerMapOn).
func (s *SeatsRoom) SeatMapChange(before, after string) (string, bool) {
	was := ""
	if seat := s.HeldSeatOf(before); seat != nil {
		was = seat.MapID
	} else if before != "" {
		s.SeatsByHash.Mu.Lock()
		was = s.SeatsByHash.Released[before]
		delete(s.SeatsByHash.Released, before)
		s.SeatsByHash.Mu.Unlock()
	}
	return s.ViewerMap(after), was != s.SeatMapID(after)
}

// PlayerMapOn is map id as players see it (PlayerMap, with the fields
// derived from combatants and sights), nil for "".
func (s *SeatsRoom) PlayerMapOn(ctx context.Context, id string) (*core.Map, error) {
	if id == "" {
		return nil, nil
	}
	p := s.pin()
	var out *core.Map
	err := p.Store.View(ctx, func(tx core.Tx) error {
		m, err := kernel.MapByID(tx, id)
		if err != nil {
			return err
		}
		out, err = p.PlayerMapIn(tx, m)
		return err
	})
	return out, err
}
