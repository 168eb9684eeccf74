package core

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"
)

// Seats: a player's place at the table. Every player character of the
// primary campaign (an entity of a unique kind the campaign owns, or one
// its game's combatants stand for) is a seat. A player takes a free seat,
// or the game master gives one; the seat is then held by a seat token, a
// secret the server hands to that player alone and keeps only as a hash.
// Whoever presents the token plays the character: its hit points, its
// actions, and in remote interaction "token" its token and the tokens the
// game master lets the seat control (a familiar). Freeing the seat (the
// game master, the player leaving, a kick) forgets the hash, so the old
// token opens nothing.

// Client roles on the public listener. Player is the default; Display is a
// client whose runMode is not "normal" (contract 2.2); Spectator sees the
// map and the initiative and may change nothing.
const (
	ClientPlayer    = "player"
	ClientDisplay   = "display"
	ClientSpectator = "spectator"
)

// Seat is a seat as stored: the character it gives (its id is the seat's),
// the player's name and the hash of the seat token that holds it ("" when
// free), and the tokens besides the character's own that the seat may
// drag. It never leaves the server: SeatView is what clients read.
type Seat struct {
	EntityID string    `json:"entityId"`
	Campaign string    `json:"-"`
	Player   string    `json:"player,omitempty"`
	Holder   string    `json:"holder,omitempty"`
	Controls []string  `json:"controls,omitempty"`
	Since    time.Time `json:"since,omitzero"`
	// TakenBy is the device that holds it (Actor.Device when it was taken
	// or given), so that kicking a device frees every seat it holds.
	TakenBy string `json:"takenBy,omitempty"`
	// MapID is the map the game master put the seat on, away from the
	// player screen (a split party, seatmaps.go); "" when the seat follows
	// the screen. It stays with the seat when its holder changes.
	MapID string `json:"mapId,omitempty"`
}

// Taken reports whether someone holds the seat.
func (s *Seat) Taken() bool { return s != nil && s.Holder != "" }

// Freed is the seat as it is once nobody holds it.
func (s *Seat) Freed() *Seat {
	f := *s
	f.Holder, f.Player, f.TakenBy = "", "", ""
	return &f
}

// SeatView is a seat as anyone at the table may read it (GET /api/seats,
// seatsUpdated): which character, whether it is free, and the name of who
// sits there. Names only: no token, no hash.
type SeatView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Image  string `json:"image,omitempty"`
	Taken  bool   `json:"taken"`
	Player string `json:"player,omitempty"`
}

// SeatList is the payload of seatsUpdated: every seat of the primary
// campaign, by character name.
type SeatList struct {
	Seats []SeatView `json:"seats"`
}

// TakenSeat answers a player who took or resumed a seat: the seat and,
// when the server drew one, the seat token to keep (sent to that player
// alone, never again).
type TakenSeat struct {
	Seat      SeatView `json:"seat"`
	SeatToken string   `json:"seatToken,omitempty"`
}

// Limits of seats.
const (
	// MaxSeatControls bounds the extra tokens one seat may drag.
	MaxSeatControls = 32
	// MaxPlayerName bounds the name a player gives.
	MaxPlayerName = 100
)

// NewSeatToken draws a seat token: 32 random bytes, base64url.
func NewSeatToken() string { return RandomSecret(32) }

// SeatHash is the hash a seat keeps of its token (hex SHA-256). An empty
// token has no hash.
func SeatHash(token string) string {
	if token == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("seat:" + token))
	return hex.EncodeToString(sum[:])
}

// RandomSecret is n random bytes as unpadded base64url.
func RandomSecret(n int) string { return base64.RawURLEncoding.EncodeToString(randomBytes(n)) }

// randomBytes draws n bytes from crypto/rand, which never fails on a
// supported platform (Go 1.24 and later crash the program rather than
// return an error).
func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// Actor is who asks on the public listener: the role its join key or its
// registration gives it, and the hash of the seat token it presented (""
// when none; SeatHash). The core decides what an actor may do: a
// spectator changes nothing; with the join key on, a player changes only
// their own character's editable fields (seatrights.go).
type Actor struct {
	Role string
	Seat string
	// Name and Color sign what the actor posts (an action's roll).
	Name, Color string
	// Device names the device the request comes from, for the limits
	// counted per device across HTTP and the WebSocket (the message
	// budget): its pass, else its seat, else its network address (a /64
	// for IPv6), else its connection; "" when nothing names it (a tool on
	// this machine), which is not counted. DeviceOf builds it.
	Device string
}

// DeviceOf names a device for Actor.Device from what a request carries:
// the hash of its pass, the hash of its seat token, the address it comes
// from (loopback is this machine, and not a device of the table) and, for
// a WebSocket, its connection.
func DeviceOf(pass, seat, address, connection string) string {
	switch {
	case pass != "":
		return "pass:" + pass
	case seat != "":
		return "seat:" + seat
	}
	if key := AddressKey(address); key != "" {
		return "address:" + key
	}
	if connection != "" {
		return "connection:" + connection
	}
	return ""
}

// Spectating reports whether the actor may only look.
func (a Actor) Spectating() bool { return a.Role == ClientSpectator }

// RefuseSpectator is the error for a spectator trying to act.
func (a Actor) RefuseSpectator(what string) error {
	if a.Spectating() {
		return Forbiddenf("a spectator cannot %s", what)
	}
	return nil
}
