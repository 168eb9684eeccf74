package core

import (
	"encoding/json"
	"fmt"
)

// Version and Build identify the running application (GET /api, the app
// event). A release build sets Version, Commit and Date at link time
// (-ldflags "-X github.com/vttapp/companion/core.Version=..."; see
// .goreleaser.yaml). Build stays the number clients compare: the real web
// client reads 1 as a current server (docs/client-compatibility.md).
var (
	Version = "0.1.0"
	Build   = 1
	// Commit is the source revision and Date the build time (RFC 3339) of a
	// release build; empty otherwise (cmd/companion then reads what the Go
	// toolchain stamped, if anything).
	Commit = ""
	Date   = ""
)

// Client is a connected WebSocket client (contract 2.2).
type Client struct {
	Channel      int     `json:"channel"`
	Address      string  `json:"address"`
	Name         string  `json:"name"`
	Color        string  `json:"color"`
	ScreenWidth  float64 `json:"screenWidth"`
	ScreenHeight float64 `json:"screenHeight"`
	RunMode      string  `json:"runMode"`
	Device       string  `json:"device"`
	MapCenterX   float64 `json:"mapCenterX"`
	MapCenterY   float64 `json:"mapCenterY"`
	MapZoom      float64 `json:"mapZoom"`
}

// RunModeNormal is a player's browser; any other run mode is a player display.
const RunModeNormal = "normal"

// IsPlayerDisplay reports whether the client is a player display with its
// own viewport in the application.
func (c Client) IsPlayerDisplay() bool { return c.RunMode != "" && c.RunMode != RunModeNormal }

// Screen is the player-screen configuration of a campaign.
type Screen struct {
	MapID       string `json:"mapId,omitempty"`
	OverlayType string `json:"overlayType,omitempty"`
	// Interaction is the remote-interaction mode (none, token, all), from
	// the host setting; SharedVision is never, partial or always. Both,
	// and the overlay and size fields below, are what the real web client
	// reads (docs/client-compatibility.md).
	Interaction         string  `json:"interaction"`
	SharedVision        string  `json:"sharedVision"`
	OverlayImage        string  `json:"overlayImage"`
	OverlayHandoutText  string  `json:"overlayHandoutText"`
	OverlayHandoutStyle string  `json:"overlayHandoutStyle"`
	Width               float64 `json:"width"`
	Height              float64 `json:"height"`
	TableTopMode        bool    `json:"tableTopMode"`
	ScrollLock          bool    `json:"scrollLock"`
	Fog                 bool    `json:"fog"`
	// RemoteInteraction mirrors the host setting: when false, clients may
	// not drag tokens, open doors or move their pointer.
	RemoteInteraction bool `json:"remoteInteraction"`
}

// Snapshot is the response of GET /api (contract 2.3).
type Snapshot struct {
	Version        string           `json:"version"`
	Build          int              `json:"build"`
	Game           *Game            `json:"game"`
	Map            *Map             `json:"map,omitempty"`
	Screen         *Screen          `json:"screen"`
	Messages       []*Message       `json:"messages"`
	TrackedObjects []*TrackedObject `json:"trackedObjects"`
	Paused         bool             `json:"paused"`
}

// RecentMessageCount is how many messages GET /api carries (contract 8).
const RecentMessageCount = 30

// TrackedObject is a physical object reported by a table-top display.
type TrackedObject struct {
	ID         any       `json:"id"`
	TypeID     *float64  `json:"typeId,omitempty"`
	CategoryID *float64  `json:"categoryId,omitempty"`
	X          *float64  `json:"x,omitempty"`
	Y          *float64  `json:"y,omitempty"`
	Angle      *float64  `json:"angle,omitempty"`
	VelocityX  *float64  `json:"velocityX,omitempty"`
	VelocityY  *float64  `json:"velocityY,omitempty"`
	Type       string    `json:"type,omitempty"`
	Contour    []float64 `json:"contour,omitempty"`
}

// Key returns the identity of a tracked object as a map key; ids are
// numbers in the wild but strings are tolerated.
func (o TrackedObject) Key() (string, error) {
	switch id := o.ID.(type) {
	case string:
		if id == "" {
			return "", Invalidf("tracked object: id is required")
		}
		return "s:" + id, nil
	case float64:
		return fmt.Sprintf("n:%v", id), nil
	case json.Number:
		return "n:" + id.String(), nil
	default:
		return "", Invalidf("tracked object: id must be a number or a string")
	}
}

// Drag states of a Movement (contract 3).
const (
	DragStart   = "start"
	DragControl = "control"
	DragEnd     = "end"
	DragBlock   = "block"
	DragCancel  = "cancel"
)

// Movement is the payload of tokenMoved and the other *Moved events.
type Movement struct {
	ID string `json:"id"`
	// MapID is the map the token stands on: the server sets it on every
	// tokenMoved it sends (an extension; a client's is ignored), so that a
	// page showing another map ignores the message.
	MapID    string       `json:"mapId,omitempty"`
	X        float64      `json:"x"`
	Y        float64      `json:"y"`
	State    string       `json:"state"`
	Polygon  []float64    `json:"polygon,omitempty"`
	Path     []float64    `json:"path,omitempty"`
	Distance string       `json:"distance,omitempty"`
	Animated bool         `json:"animated,omitempty"`
	Source   *EventSource `json:"source,omitempty"`
}

// EventSource names the client that started a drag or pointer move.
type EventSource struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Color string `json:"color,omitempty"`
}

// Door is the payload of updateDoor: the wall acting as a door and its state.
type Door struct {
	MapID string `json:"mapId"`
	ID    string `json:"id"`
	State string `json:"state"`
}

// Pointer is a client's shared pointer.
type Pointer struct {
	ID     string  `json:"id"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Color  string  `json:"color,omitempty"`
	Source string  `json:"source,omitempty"`
	// Name is the sender's registered name, so pages can label the pointer
	// (an extension beside the real client's fields; it is always the
	// server's, like Source).
	Name  string `json:"name,omitempty"`
	State string `json:"state,omitempty"`
}

// Frame is where a client looks on a map (mapViewportUpdated).
type Frame struct {
	ID   string  `json:"id"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	Zoom float64 `json:"zoom"`
}

// Attribute is the payload of getAttribute and setAttribute.
type Attribute struct {
	EntityID   string `json:"entityId"`
	Attributes Object `json:"attributes,omitempty"`
}

// Settings are the host's live switches.
// Interaction is the mode (none, token, all); RemoteInteraction is the
// contract's switch, true unless the mode is none. NewLive and every change
// keep the two in step.
type Settings struct {
	RemoteInteraction bool   `json:"remoteInteraction"`
	Interaction       string `json:"interaction"`
	Paused            bool   `json:"paused"`
}
