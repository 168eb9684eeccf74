package play

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/sight"
)

// UpdateDoor changes the state of a door wall on its map in one transaction,
// recomputes the map's line of sight and broadcasts mapUpdated then
// lineOfSightUpdated. The broadcast map is the players', with sight
// (playerMap), as the snapshot's is; lineOfSightUpdated carries the array
// of its sights (empty with line of sight off), which UpdateDoor also
// returns. What blocks sight is the map's walls, in mapUpdated. It does
// not check remote interaction: the WebSocket hub does, so that the host
// console may still open doors.
func (s *PlayRoom) UpdateDoor(ctx context.Context, d core.Door) ([]sight.Sight, error) {
	return s.UpdateDoorAs(ctx, d, nil)
}
