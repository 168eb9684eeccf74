package core

import "context"

// LineOfSight is the payload of lineOfSightUpdated: what blocks sight on a
// map after a change. Each segment is x1, y1, x2, y2 in map coordinates, one
// per straight piece of a wall that currently blocks sight (closed and
// locked doors included, open doors, windows, invisible and terrain walls
// left out). A display casts its vision polygons against these segments.
type LineOfSight struct {
	MapID    string       `json:"mapId"`
	Segments [][4]float64 `json:"segments"`
	// Walls lists the ids of the walls the segments come from, in order.
	Walls []string `json:"walls"`
	// Vision maps each visible token with vision enabled to the polygon it
	// sees from its position (flat x,y list), when the map has line of
	// sight on. Hidden tokens are left out: their place is not for players.
	Vision map[string][]float64 `json:"vision,omitempty"`
}

// SightBlockers computes the line of sight of a map: every segment of every
// wall that blocks sight (a wall's data is a flat x,y list; a wall with
// fewer than two points has no segment) and, when the map has line of
// sight on, the vision polygon of each visible token with vision.
func SightBlockers(m *Map) *LineOfSight {
	los := &LineOfSight{MapID: m.ID, Segments: [][4]float64{}, Walls: []string{}}
	for _, w := range m.Walls {
		if !w.BlocksSight() || len(w.Data) < 4 {
			continue
		}
		los.Walls = append(los.Walls, w.ID)
		for i := 0; i+3 < len(w.Data); i += 2 {
			los.Segments = append(los.Segments, [4]float64{w.Data[i], w.Data[i+1], w.Data[i+2], w.Data[i+3]})
		}
	}
	if !m.LineOfSight {
		return los
	}
	box := sightBox(m, los.Segments)
	for _, t := range m.Tokens {
		if t.Hidden || t.Vision == nil || !t.Vision.Enabled {
			continue
		}
		if los.Vision == nil {
			los.Vision = map[string][]float64{}
		}
		los.Vision[t.ID] = VisionPolygon(t.X, t.Y, los.Segments, box)
	}
	return los
}

// UpdateDoor changes the state of a door wall on its map in one transaction,
// recomputes the map's line of sight and broadcasts mapUpdated then
// lineOfSightUpdated. The broadcast map is the players' (PlayerMap), as
// the snapshot's is. It does not check remote interaction: the WebSocket hub
// does, so that the host console may still open doors.
func (s *Service) UpdateDoor(ctx context.Context, d Door) (*LineOfSight, error) {
	if d.MapID == "" {
		return nil, Invalidf("updateDoor: 'mapId' is required")
	}
	if d.ID == "" {
		return nil, Invalidf("updateDoor: 'id' (the door wall's id) is required")
	}
	switch d.State {
	case DoorOpen, DoorClosed, DoorLocked:
	default:
		return nil, Invalidf("updateDoor: 'state' must be open, closed or locked, not '%s'", d.State)
	}
	var los *LineOfSight
	err := s.write(ctx, func(tx Tx) ([]Event, error) {
		m, err := tx.Map(d.MapID)
		if IsNotFound(err) {
			return nil, NotFoundf("no map with id '%s'", d.MapID)
		}
		if err != nil {
			return nil, err
		}
		i := wallIndex(m.Walls, d.ID)
		if i < 0 {
			return nil, NotFoundf("map '%s' has no wall with id '%s'", d.MapID, d.ID)
		}
		if !m.Walls[i].IsDoor() {
			return nil, Invalidf("updateDoor: wall '%s' is a %s wall, not a door", d.ID, wallTypeName(m.Walls[i].Type))
		}
		m.Walls[i].Door = d.State
		tokens := m.Tokens
		m.Tokens = nil // the door changes the map document only; tokens keep their rows
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		m.Tokens = tokens
		shown := PlayerMap(m)
		los = SightBlockers(shown)
		return []Event{{Name: EventMapUpdated, Data: shown}, {Name: EventLineOfSightUpdated, Data: los}}, nil
	})
	if err != nil {
		return nil, err
	}
	return los, nil
}

func wallIndex(walls []Wall, id string) int {
	for i := range walls {
		if walls[i].ID == id {
			return i
		}
	}
	return -1
}

func wallTypeName(t string) string {
	if t == "" {
		return WallNormal
	}
	return t
}
