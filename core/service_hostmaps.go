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
		GridSize: n.GridSize, GridVisible: true, Image: n.Image}
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

// RenameMap renames a map. When it is on the player screen, clients get
// mapUpdated.
func (s *Service) RenameMap(ctx context.Context, id, name string) (*Map, error) {
	p := s.pin()
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, Invalidf("a map needs a 'name'")
	}
	var out *Map
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
		m, err := mapByID(tx, id)
		if err != nil {
			return nil, err
		}
		m.Name = name
		tokens := m.Tokens
		m.Tokens = nil
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		m.Tokens = tokens
		out = m
		onScreen, err := p.onPlayerScreen(tx, id)
		if err != nil || !onScreen {
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
		return []Event{{Name: EventMapUpdated, Data: Views{Players: players, Host: host}}}, nil
	})
	return out, err
}

// DeleteMap deletes a map of the primary campaign with its tokens (a
// module's maps go with their module). A map on the player screen leaves
// it first: clients get screenUpdated with no map. It returns the deleted
// map, for the caller to remove its files.
func (s *Service) DeleteMap(ctx context.Context, id string) (*Map, error) {
	p := s.pin()
	var out *Map
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
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
		if screen.MapID != id {
			return nil, nil
		}
		screen.MapID = ""
		if err := tx.PutScreen(c.ID, screen); err != nil {
			return nil, err
		}
		p.liveScreen(screen)
		return []Event{{Name: EventScreenUpdated, Data: screen}}, nil
	})
	return out, err
}
