package engine

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/vttapp/companion/core/redact"

	"github.com/vttapp/companion/core"
)

// playerMaps is who looks at which map: the map on the primary campaign's
// player screen, and the seats the game master put on other maps.
type playerMaps struct {
	screen string
	// seats are the primary campaign's seats that have a map of their own.
	seats []*core.Seat
}

// sees reports whether some player looks at map id.
func (m playerMaps) sees(id string) bool {
	if id == "" {
		return false
	}
	if id == m.screen {
		return true
	}
	for _, s := range m.seats {
		if s.MapID == id {
			return true
		}
	}
	return false
}

// of returns the map the holder of a seat token hash looks at: their
// seat's own map, else the screen's ("" when there is none).
func (m playerMaps) of(seatHash string) string {
	if seatHash != "" {
		for _, s := range m.seats {
			if s.Holder == seatHash {
				return s.MapID
			}
		}
	}
	return m.screen
}

// tokenShown reports whether some player sees a token: it is not hidden
// and stands on a map some player looks at.
func (m playerMaps) tokenShown(t *core.Token) bool {
	return t != nil && !t.Hidden && m.sees(t.MapID)
}

// playerMapsIn reads who looks at which map.
func (s pinned) playerMapsIn(tx core.Tx) (playerMaps, error) {
	screen, err := s.playerScreenMap(tx)
	if err != nil || s.rules == nil {
		return playerMaps{screen: screen}, err
	}
	c, err := s.primaryCampaign(tx)
	if core.IsNotFound(err) {
		return playerMaps{screen: screen}, nil
	}
	if err != nil {
		return playerMaps{}, err
	}
	seats, err := tx.Seats(c.ID)
	if err != nil {
		return playerMaps{}, err
	}
	out := playerMaps{screen: screen}
	for _, st := range seats {
		if st.MapID != "" && st.MapID != screen {
			out.seats = append(out.seats, st)
		}
	}
	return out, nil
}

// playersSee reports whether some player looks at map id: events about it
// are built for players (the hub narrows them to those who look at it).
func (s pinned) playersSee(tx core.Tx, id string) (bool, error) {
	maps, err := s.playerMapsIn(tx)
	return maps.sees(id), err
}

// viewerMapIn is the map the holder of seatHash looks at (playerMaps.of).
func (s pinned) viewerMapIn(tx core.Tx, seatHash string) (string, error) {
	maps, err := s.playerMapsIn(tx)
	return maps.of(seatHash), err
}

// ViewerMap returns the map a connection holding seatHash ("" for none)
// looks at, from memory: the hub asks it for every broadcast, inside the
// commit lock, so it reads the seat index and the cached screen map, both
// changed by the commits that change them before their events go out.
func (s *Kernel) ViewerMap(seatHash string) string {
	if seat := s.heldSeatOf(seatHash); seat != nil && seat.MapID != "" {
		return seat.MapID
	}
	return s.screenMapNow()
}

// SeatMapID returns the map of the seat seatHash holds when the game
// master put it on a map of its own, "" when it follows the screen.
func (s *seatsRoom) SeatMapID(seatHash string) string {
	if seat := s.heldSeatOf(seatHash); seat != nil {
		return seat.MapID
	}
	return ""
}

// screenMapCache keeps the id of the map on the primary campaign's player
// screen. It is read from the store on first use and forgotten after
// every commit that writes a screen (writeThen watches the transaction)
// and when content or the system is replaced (a reload).
type screenMapCache struct {
	mu      sync.RWMutex
	loaded  bool
	id      string
	changes uint64
}

func (c *screenMapCache) forget() {
	c.mu.Lock()
	c.loaded, c.id = false, ""
	c.changes++
	c.mu.Unlock()
}

// screenMapNow returns the map on the player screen, from the cache.
func (s *Kernel) screenMapNow() string {
	c := &s.screenMap
	c.mu.RLock()
	if c.loaded {
		id := c.id
		c.mu.RUnlock()
		return id
	}
	before := c.changes
	c.mu.RUnlock()
	p := s.pin()
	var id string
	err := p.store.View(context.Background(), func(tx core.Tx) error {
		var err error
		id, err = p.playerScreenMap(tx)
		return err
	})
	if err != nil {
		s.log.Error("screen: cannot read the player screen", "err", err)
		return ""
	}
	c.mu.Lock()
	if c.changes == before {
		c.loaded, c.id = true, id
	}
	c.mu.Unlock()
	return id
}

// SetSeatMap puts a seat on a map of its own (split party) or, with an
// empty mapID, back on the player screen's map. The seat's holder gets
// mapLoaded with the map they now see (null when the screen shows none);
// everyone gets seatsUpdated.
func (s *seatsRoom) SetSeatMap(ctx context.Context, seatID, mapID string) error {
	p := s.pin()
	return p.changeSeats(ctx, func(tx core.Tx, t *seatTable) ([]*core.Seat, []core.Event, error) {
		if _, err := t.character(seatID); err != nil {
			return nil, nil, err
		}
		var m *core.Map
		if mapID != "" {
			var err error
			if m, err = mapByID(tx, mapID); err != nil {
				return nil, nil, err
			}
			if m.GridPending {
				return nil, nil, core.Conflictf("map '%s' waits for its grid: set its grid size and offset before a seat goes on it", core.Clip(m.Name))
			}
		}
		st := *t.seat(seatID)
		st.MapID = mapID
		screen, err := p.playerScreenMap(tx)
		if err != nil {
			return nil, nil, err
		}
		if mapID == screen {
			st.MapID = "" // on the screen's map: it follows the screen from now on
		}
		events, err := p.seatMapLoaded(tx, &st, screen)
		return []*core.Seat{&st}, events, err
	})
}

// seatMapLoaded tells the holder of a seat whose map changed the map it
// now looks at: mapLoaded, to them alone (Seats), with the map as players
// see it, or null when it follows a screen that shows none.
func (s pinned) seatMapLoaded(tx core.Tx, st *core.Seat, screen string) ([]core.Event, error) {
	if st.Holder == "" {
		return nil, nil
	}
	shown := st.MapID
	if shown == "" {
		shown = screen
	}
	var players any
	if shown != "" {
		m, err := mapByID(tx, shown)
		if err != nil {
			return nil, err
		}
		if players, err = s.playerMapIn(tx, m); err != nil {
			return nil, err
		}
	}
	return []core.Event{{Name: core.EventMapLoaded, Data: redact.Views{Players: orNull(players), Seats: []string{st.Holder}, Map: shown}}}, nil
}

// orNull is v, or JSON null for nothing (a Views' Players cannot be nil:
// that would be an event for the game master alone).
func orNull(v any) any {
	if v == nil {
		return json.RawMessage("null")
	}
	return v
}

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
		loaded, err := s.seatMapLoaded(tx, &cp, screen)
		if err != nil {
			return nil, nil, err
		}
		events = append(events, loaded...)
	}
	if len(out) > 0 {
		t, err := s.seatTable(tx)
		if err != nil {
			return nil, nil, err
		}
		events = append(events, core.Event{Name: core.EventSeatsUpdated, Data: t.list()})
	}
	return out, events, nil
}

// onViewerMap refuses a player's request about a token that is not on the
// map they look at, as a token that does not exist.
func (s pinned) onViewerMap(tx core.Tx, who core.Actor, t *core.Token) error {
	vm, err := s.viewerMapIn(tx, who.Seat)
	if err != nil {
		return err
	}
	if t != nil && t.MapID != vm {
		return core.NotFoundf("no token with id '%s'", core.Clip(t.ID))
	}
	return nil
}

// SeatMapChange tells the hub, when a connection's seat token changes
// from before to after (a seat taken, resumed, given, left or freed),
// whether the map it looks at changed because one of the seats was on a
// map of its own, and the map it looks at now. The hub then sends it
// mapLoaded (PlayerMapOn).
func (s *seatsRoom) SeatMapChange(before, after string) (string, bool) {
	was := ""
	if seat := s.heldSeatOf(before); seat != nil {
		was = seat.MapID
	} else if before != "" {
		s.seatsByHash.mu.Lock()
		was = s.seatsByHash.released[before]
		delete(s.seatsByHash.released, before)
		s.seatsByHash.mu.Unlock()
	}
	return s.ViewerMap(after), was != s.SeatMapID(after)
}

// PlayerMapOn is map id as players see it (PlayerMap, with the fields
// derived from combatants and sights), nil for "".
func (s *seatsRoom) PlayerMapOn(ctx context.Context, id string) (*core.Map, error) {
	if id == "" {
		return nil, nil
	}
	p := s.pin()
	var out *core.Map
	err := p.store.View(ctx, func(tx core.Tx) error {
		m, err := mapByID(tx, id)
		if err != nil {
			return err
		}
		out, err = p.playerMapIn(tx, m)
		return err
	})
	return out, err
}
