package core

// A split party: the game master may put a seat on another map than the
// one on the player screen (Seat.MapID). Its holder then sees that map and
// only it: GET /api carries it, the map's events reach them, their drags,
// doors, marks and pointers are checked against it. Displays, spectators
// and players without a seat, or whose seat follows the screen, see the
// screen map as before.
//
// So "players see a map" now has two readings, and each rule picks one:
//
//   - whether any player looks at a map (playerMaps.sees): the screen's
//     map or a seat's. Events about a map are built for players when some
//     player looks at it; the hub then hands each connection only the
//     events of the map it looks at (EventMap, Service.ViewerMap).
//   - which map one requester looks at (playerMaps.of, viewerMapIn): what
//     a player's own request may read or change.

// SeatMapChange is the body of PUT /host/api/seats/{id}/map: the map to
// put the seat on, or null to return it to the player screen.
type SeatMapChange struct {
	MapID *string `json:"mapId"`
}
