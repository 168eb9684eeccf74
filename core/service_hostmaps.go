package core

import (
	"context"
	"strings"
)

// CreateMap stores an empty map in the primary campaign and returns it.
// Nothing is broadcast: players see a map once it is on the player screen.
func (s *Service) CreateMap(ctx context.Context, n NewMap) (*Map, error) {
	p := s.pin()
	if err := n.Check(); err != nil {
		return nil, err
	}
	m := &Map{Name: strings.TrimSpace(n.Name), Width: n.Width, Height: n.Height, GridType: n.GridType,
		GridSize: n.GridSize, GridVisible: true, Image: n.Image,
		LosVisionLimit: -1} // no limit: 0 would let no token see anything once line of sight is on
	if err := m.Normalize(); err != nil {
		return nil, err
	}
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		m.Owner = c.ID
		return nil, tx.PutMap(m)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// MapChange is what PATCH /host/api/maps/{id} may change: the name and
// the map's line of sight (on or off, daylight 0 to 1, the vision limit
// in grid units, -1 for none). An absent field is kept.
type MapChange struct {
	Name           *string  `json:"name"`
	LineOfSight    *bool    `json:"lineOfSight"`
	LosDaylight    *float64 `json:"losDaylight"`
	LosVisionLimit *int     `json:"losVisionLimit"`
}

func (c MapChange) check() error {
	if c.Name != nil && strings.TrimSpace(*c.Name) == "" {
		return Invalidf("a map needs a 'name'")
	}
	if c.LosDaylight != nil && !(*c.LosDaylight >= 0 && *c.LosDaylight <= 1) {
		return Invalidf("'losDaylight' is from 0 (dark) to 1 (broad daylight)")
	}
	if c.LosVisionLimit != nil && (*c.LosVisionLimit < -1 || *c.LosVisionLimit > MaxLightRadius) {
		return Invalidf("'losVisionLimit' is -1 (no limit) or a distance in grid units up to %d", MaxLightRadius)
	}
	if c == (MapChange{}) {
		return Invalidf("nothing to change: send name, lineOfSight, losDaylight or losVisionLimit")
	}
	return nil
}

// RenameMap renames a map (ChangeMap with a name alone).
func (s *Service) RenameMap(ctx context.Context, id, name string) (*Map, error) {
	return s.ChangeMap(ctx, id, MapChange{Name: &name})
}

// ChangeMap changes a map's name or its line of sight. When it is on the
// player screen, clients get mapUpdated, and lineOfSightUpdated after a
// change of its sight; a map off screen tells the host alone.
func (s *Service) ChangeMap(ctx context.Context, id string, c MapChange) (*Map, error) {
	p := s.pin()
	if err := c.check(); err != nil {
		return nil, err
	}
	var out *Map
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
		m, err := mapByID(tx, id)
		if err != nil {
			return nil, err
		}
		if c.Name != nil {
			m.Name = strings.TrimSpace(*c.Name)
		}
		if c.LineOfSight != nil {
			m.LineOfSight = *c.LineOfSight
		}
		if c.LosDaylight != nil {
			m.LosDaylight = *c.LosDaylight
		}
		if c.LosVisionLimit != nil {
			m.LosVisionLimit = *c.LosVisionLimit
		}
		tokens := m.Tokens
		m.Tokens = nil
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		m.Tokens = tokens
		out = m
		onScreen, err := p.playersSee(tx, id)
		if err != nil {
			return nil, err
		}
		players, err := p.playerMapIn(tx, m)
		if err != nil {
			return nil, err
		}
		host, err := p.hostMapIn(tx, m)
		if err != nil {
			return nil, err
		}
		views := func(forPlayers, forHost any) Views {
			if !onScreen {
				return HostOnly(forHost)
			}
			return Views{Players: forPlayers, Host: forHost, Map: id}
		}
		events := []Event{{Name: EventMapUpdated, Data: views(players, host)}}
		if c.LineOfSight != nil || c.LosDaylight != nil || c.LosVisionLimit != nil {
			events = append(events, Event{Name: EventLineOfSightUpdated, Data: views(sightsIn(players), sightsIn(host))})
		}
		return events, nil
	})
	return out, err
}

// DeleteMap deletes a map of the primary campaign with its tokens (a
// module's maps go with their module). A map on the player screen leaves
// it first: clients get screenUpdated with no map; seats on it return to
// the player screen's map (seatmaps.go). It returns the deleted
// map, for the caller to remove its files.
func (s *Service) DeleteMap(ctx context.Context, id string) (*Map, error) {
	p := s.pin()
	var out *Map
	var returned []*Seat
	err := p.writeThen(ctx, func(tx Tx) ([]Event, error) {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		m, err := mapByID(tx, id)
		if err != nil {
			return nil, err
		}
		if m.Owner != c.ID {
			return nil, Conflictf("map '%s' belongs to a module: delete the module, or copy the map into the campaign", Clip(m.Name))
		}
		if err := tx.DeleteMap(id); err != nil {
			return nil, err
		}
		out = m
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return nil, err
		}
		var events []Event
		if screen.MapID == id {
			screen.MapID = ""
			if err := tx.PutScreen(c.ID, screen); err != nil {
				return nil, err
			}
			p.liveScreen(screen)
			events = append(events, Event{Name: EventScreenUpdated, Data: screen})
		}
		// Seats on the deleted map go back to the player screen's.
		var seatEvents []Event
		if returned, seatEvents, err = p.returnSeatsOf(tx, id, screen.MapID); err != nil {
			return nil, err
		}
		return append(events, seatEvents...), nil
	}, func() { p.seats.set(returned...) })
	return out, err
}
