package core

// HostSeat is a seat as the game master reads it: the public view and the
// tokens the seat controls besides its character's.
type HostSeat struct {
	SeatView
	Controls []string `json:"controls"`
	// MapID is the map the game master put the seat on (a split party,
	// seatmaps.go), absent when the seat follows the player screen.
	MapID string `json:"mapId,omitempty"`
	// Holder is the hash of the seat token, for the hub to find who sits
	// there; it never goes out (not even to the host console).
	Holder string `json:"-"`
}

// MayHoldSeat refuses a spectator or a player display a seat.
func (a Actor) MayHoldSeat() error {
	switch a.Role {
	case ClientSpectator, ClientDisplay:
		return Forbiddenf("a %s cannot take a seat", a.Role)
	}
	return nil
}

// KickTarget is the device the game master sends away: the hash of the
// seat token and of the pass one of its connections holds ("" when none),
// and the address it comes from (its host).
type KickTarget struct {
	Seat, Pass, Address string
}

// Kicked is what a kick ends: the passes revoked and the seats freed (by
// the hash of their token), for the hub to close every connection they
// open; and whether new keys were drawn.
type Kicked struct {
	Passes, Seats []string
	NewKeys       bool
}
