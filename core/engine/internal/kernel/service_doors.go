package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/sight"
)

// UpdateDoorAs is UpdateDoor; for a player (player) a door on a map they do
// not look at does not exist, and a secret door not yet open is the plain
// wall they see (PlayerMap): they can neither find nor open it.
func (s *Kernel) UpdateDoorAs(ctx context.Context, d core.Door, player *core.Actor) ([]sight.Sight, error) {
	p := s.Pin()
	if d.MapID == "" {
		return nil, core.Invalidf("updateDoor: 'mapId' is required")
	}
	if d.ID == "" {
		return nil, core.Invalidf("updateDoor: 'id' (the door wall's id) is required")
	}
	switch d.State {
	case core.DoorOpen, core.DoorClosed, core.DoorLocked:
	default:
		return nil, core.Invalidf("updateDoor: 'state' must be open, closed or locked, not '%s'", d.State)
	}
	var los []sight.Sight
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		m, err := tx.Map(d.MapID)
		if core.IsNotFound(err) {
			return nil, core.NotFoundf("no map with id '%s'", d.MapID)
		}
		if err != nil {
			return nil, err
		}
		if player != nil {
			// A player opens doors on the map they look at alone.
			if vm, err := p.ViewerMapIn(tx, player.Seat); err != nil || vm == "" || vm != m.ID {
				return nil, orNotFound(err, "no map with id '%s'", d.MapID)
			}
		}
		i := wallIndex(m.Walls, d.ID)
		if i < 0 {
			return nil, core.NotFoundf("map '%s' has no wall with id '%s'", d.MapID, d.ID)
		}
		if player != nil && m.Walls[i].Type == core.WallSecretDoor && m.Walls[i].Door != core.DoorOpen {
			return nil, core.Invalidf("updateDoor: wall '%s' is a %s wall, not a door", d.ID, core.WallNormal)
		}
		if !m.Walls[i].IsDoor() {
			return nil, core.Invalidf("updateDoor: wall '%s' is a %s wall, not a door", d.ID, wallTypeName(m.Walls[i].Type))
		}
		m.Walls[i].Door = d.State
		tokens := m.Tokens
		m.Tokens = nil // the door changes the map document only; tokens keep their rows
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		m.Tokens = tokens
		shown, err := p.PlayerMapIn(tx, m)
		if err != nil {
			return nil, err
		}
		host, err := p.HostMapIn(tx, m)
		if err != nil {
			return nil, err
		}
		los = redact.SightsIn(shown)
		// Players see a map once it is on the player screen or a seat's: a
		// door opened on a map the GM prepares off screen reaches the host
		// alone; the others reach those looking at the map (Map).
		onScreen, err := p.PlayersSee(tx, m.ID)
		if err != nil {
			return nil, err
		}
		if !onScreen {
			return []core.Event{{Name: core.EventMapUpdated, Data: redact.HostOnly(host)}, {Name: core.EventLineOfSightUpdated, Data: redact.HostOnly(los)}}, nil
		}
		return []core.Event{{Name: core.EventMapUpdated, Data: redact.Views{Players: shown, Host: host}}, {Name: core.EventLineOfSightUpdated, Data: redact.Views{Players: los, Map: m.ID}}}, nil
	})
	if err != nil {
		return nil, err
	}
	return los, nil
}

// orNotFound is err, or when it is nil the not-found error described.
func orNotFound(err error, format string, args ...any) error {
	if err != nil {
		return err
	}
	return core.NotFoundf(format, args...)
}
