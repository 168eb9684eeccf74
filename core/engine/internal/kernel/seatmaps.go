package kernel

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// PlayerMaps is who looks at which map: the map on the primary campaign's
// player screen, and the seats the game master put on other maps.
type PlayerMaps struct {
	screen string
	// seats are the primary campaign's seats that have a map of their own.
	seats []*core.Seat
}

// Sees reports whether some player looks at map id.
func (m PlayerMaps) Sees(id string) bool {
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

// Of returns the map the holder of a seat token hash looks at: their
// seat's own map, else the screen's ("" when there is none).
func (m PlayerMaps) Of(seatHash string) string {
	if seatHash != "" {
		for _, s := range m.seats {
			if s.Holder == seatHash {
				return s.MapID
			}
		}
	}
	return m.screen
}

// TokenShown reports whether some player sees a token: it is not hidden
// and stands on a map some player looks at.
func (m PlayerMaps) TokenShown(t *core.Token) bool {
	return t != nil && !t.Hidden && m.Sees(t.MapID)
}

// PlayerMapsIn reads who looks at which map.
func (s Pinned) PlayerMapsIn(tx core.Tx) (PlayerMaps, error) {
	screen, err := s.PlayerScreenMap(tx)
	if err != nil || s.Rules == nil {
		return PlayerMaps{screen: screen}, err
	}
	c, err := s.PrimaryCampaign(tx)
	if core.IsNotFound(err) {
		return PlayerMaps{screen: screen}, nil
	}
	if err != nil {
		return PlayerMaps{}, err
	}
	seats, err := tx.Seats(c.ID)
	if err != nil {
		return PlayerMaps{}, err
	}
	out := PlayerMaps{screen: screen}
	for _, st := range seats {
		if st.MapID != "" && st.MapID != screen {
			out.seats = append(out.seats, st)
		}
	}
	return out, nil
}

// PlayersSee reports whether some player looks at map id: events about it
// are built for players (the hub narrows them to those who look at it).
func (s Pinned) PlayersSee(tx core.Tx, id string) (bool, error) {
	maps, err := s.PlayerMapsIn(tx)
	return maps.Sees(id), err
}

// ViewerMapIn is the map the holder of seatHash looks at (playerMaps.of).
func (s Pinned) ViewerMapIn(tx core.Tx, seatHash string) (string, error) {
	maps, err := s.PlayerMapsIn(tx)
	return maps.Of(seatHash), err
}

// ViewerMap returns the map a connection holding seatHash ("" for none)
// looks at, from memory: the hub asks it for every broadcast, inside the
// commit lock, so it reads the seat index and the cached screen map, both
// changed by the commits that change them before their events go out.
func (s *Kernel) ViewerMap(seatHash string) string {
	if seat := s.HeldSeatOf(seatHash); seat != nil && seat.MapID != "" {
		return seat.MapID
	}
	return s.ScreenMapNow()
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

// ScreenMapNow returns the map on the player screen, from the cache.
func (s *Kernel) ScreenMapNow() string {
	c := &s.screenMap
	c.mu.RLock()
	if c.loaded {
		id := c.id
		c.mu.RUnlock()
		return id
	}
	before := c.changes
	c.mu.RUnlock()
	p := s.Pin()
	var id string
	err := p.Store.View(context.Background(), func(tx core.Tx) error {
		var err error
		id, err = p.PlayerScreenMap(tx)
		return err
	})
	if err != nil {
		s.Log.Error("screen: cannot read the player screen", "err", err)
		return ""
	}
	c.mu.Lock()
	if c.changes == before {
		c.loaded, c.id = true, id
	}
	c.mu.Unlock()
	return id
}

// SeatMapLoaded tells the holder of a seat whose map changed the map it
// now looks at: mapLoaded, to them alone (Seats), with the map as players
// see it, or null when it follows a screen that shows none.
func (s Pinned) SeatMapLoaded(tx core.Tx, st *core.Seat, screen string) ([]core.Event, error) {
	if st.Holder == "" {
		return nil, nil
	}
	shown := st.MapID
	if shown == "" {
		shown = screen
	}
	var players any
	if shown != "" {
		m, err := MapByID(tx, shown)
		if err != nil {
			return nil, err
		}
		if players, err = s.PlayerMapIn(tx, m); err != nil {
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

// OnViewerMap refuses a player's request about a token that is not on the
// map they look at, as a token that does not exist.
func (s Pinned) OnViewerMap(tx core.Tx, who core.Actor, t *core.Token) error {
	vm, err := s.ViewerMapIn(tx, who.Seat)
	if err != nil {
		return err
	}
	if t != nil && t.MapID != vm {
		return core.NotFoundf("no token with id '%s'", core.Clip(t.ID))
	}
	return nil
}
