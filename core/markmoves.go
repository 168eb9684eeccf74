package core

// Live moves of marks (moveMapObject): a template or a pin dragged, a
// ruler stretched. Like a token's drag (drag.go), a move is a stream,
// start, control…, then end or cancel: the hub coalesces its control
// messages as it does a drag's, every message is broadcast under the
// kind's Moved event (markerMoved, areaEffectMoved, measurementUpdated),
// and only end stores the mark (then the kind's list event follows).

// MarkMove is a moveMapObject request: the mark, where it is now (x, y for
// a template or a pin; data, the path, for a ruler) and the drag's state.
type MarkMove struct {
	MapID string    `json:"mapId"`
	Kind  string    `json:"kind"`
	ID    string    `json:"id"`
	X     *float64  `json:"x,omitempty"`
	Y     *float64  `json:"y,omitempty"`
	Data  []float64 `json:"data,omitempty"`
	State string    `json:"state"`
}

// MarkMoved is what a move sends of a template or a pin: a Movement (the
// contract's shape for markerMoved and areaEffectMoved) with its map.
// A ruler's move sends the measurement itself with mapId, state, source
// and its distance as the system counts it (measurementUpdated).
