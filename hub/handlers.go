package hub

// The handlers of the client events (events.go): each decodes its payload
// and calls the core once, where the rule is, as the connection's actor
// (seats.go: its role and seat). Two do a little more, in the order they
// always have: clientUpdated records the registration on the connection
// (hub state), tells the drag tracker who it now is and publishes it; a
// player's updateDoor asks the core whether remote interaction allows it
// before reading the door. The host console's own handlers follow the
// player's where the game master's rights differ.

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/vttapp/companion/core"
)

// clientRegistration is the clientUpdated payload: every field optional,
// the channel and address are the server's.
type clientRegistration struct {
	Name         *string  `json:"name"`
	Color        *string  `json:"color"`
	ScreenWidth  *float64 `json:"screenWidth"`
	ScreenHeight *float64 `json:"screenHeight"`
	RunMode      *string  `json:"runMode"`
	Device       *string  `json:"device"`
	MapCenterX   *float64 `json:"mapCenterX"`
	MapCenterY   *float64 `json:"mapCenterY"`
	MapZoom      *float64 `json:"mapZoom"`
}

// maxClientText bounds the strings a client registers (name, colour...).
const maxClientText = 200

func onClientUpdated(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var in clientRegistration
	if err := decodeData(core.EventClientUpdated, data, &in); err != nil {
		return nil, err
	}
	for field, v := range map[string]*string{"name": in.Name, "color": in.Color, "runMode": in.RunMode, "device": in.Device} {
		if v != nil && len(*v) > maxClientText {
			return nil, core.Invalidf("clientUpdated: '%s' is longer than %d bytes", field, maxClientText)
		}
	}
	if in.Color != nil {
		color, ok := clientColor(*in.Color)
		if !ok {
			return nil, core.Invalidf("clientUpdated: 'color' must be #rrggbb (or #rgb, or a number of up to six hex digits), not '%s'", core.Clip(*in.Color))
		}
		in.Color = &color
	}
	c.mu.Lock()
	cl := &c.client
	setString(&cl.Name, in.Name)
	setString(&cl.Color, in.Color)
	setString(&cl.Device, in.Device)
	if in.RunMode != nil {
		cl.RunMode = strings.TrimSpace(*in.RunMode)
		if cl.RunMode == "" {
			cl.RunMode = core.RunModeNormal
		}
	}
	setFloat(&cl.ScreenWidth, in.ScreenWidth)
	setFloat(&cl.ScreenHeight, in.ScreenHeight)
	setFloat(&cl.MapCenterX, in.MapCenterX)
	setFloat(&cl.MapCenterY, in.MapCenterY)
	setFloat(&cl.MapZoom, in.MapZoom)
	client := *cl
	c.mu.Unlock()
	c.tellDrags() // a runMode makes it a display
	c.hub.svc.Publish(core.Event{Name: core.EventClientUpdated, Data: client})
	return nil, nil
}

// clientColor reads a client's colour as contract 2.2 gives it, #rrggbb
// in lower case; #rgb is widened and "" clears it. One, two, four or five
// digits are a 24-bit number written without its leading zeros: the
// Encounter+ web client makes its first colour as '#' + a random number
// below 0xffffff in hexadecimal, one client in sixteen gets fewer than six
// digits, and it keeps that colour for good (docs/client-compatibility.md).
func clientColor(v string) (string, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		return "", true
	}
	if !hexColor.MatchString(v) {
		return "", false
	}
	switch digits := v[1:]; len(digits) {
	case 3:
		v = string([]byte{'#', v[1], v[1], v[2], v[2], v[3], v[3]})
	case 1, 2, 4, 5:
		v = "#" + strings.Repeat("0", 6-len(digits)) + digits
	}
	return v, true
}

var hexColor = regexp.MustCompile(`^#[0-9a-f]{1,6}$`)

func setString(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

func setFloat(dst *float64, v *float64) {
	if v != nil {
		*dst = *v
	}
}

// onViewportUpdated records where the client looks (contract 6.2); it shows
// in GET /api/clients. It is not broadcast: viewports change many times a
// second and only the host console reads them.
func onViewportUpdated(_ context.Context, c *conn, data json.RawMessage) (any, error) {
	var f struct {
		ID   string   `json:"id"`
		X    *float64 `json:"x"`
		Y    *float64 `json:"y"`
		Zoom *float64 `json:"zoom"`
	}
	if err := decodeData(core.RequestMapViewportUpdated, data, &f); err != nil {
		return nil, err
	}
	if f.Zoom != nil && *f.Zoom <= 0 {
		return nil, core.Invalidf("mapViewportUpdated: 'zoom' must be greater than 0")
	}
	c.mu.Lock()
	setFloat(&c.client.MapCenterX, f.X)
	setFloat(&c.client.MapCenterY, f.Y)
	setFloat(&c.client.MapZoom, f.Zoom)
	c.mu.Unlock()
	return nil, nil
}

// onTokenMoved drives a drag. A refused move answers the sender alone with
// block at the token's committed position (end, for the last message of an
// integer-state drag: below).
func onTokenMoved(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	m, numeric, err := decodeMovement(data) // state as a name or 0-4 (dragstate.go)
	if err != nil {
		return nil, err
	}
	if numeric {
		c.numericDragStates.Store(true)
	}
	block, err := c.hub.svc.Drags().Move(ctx, c.source(), m)
	if err != nil || block == nil {
		return nil, err
	}
	if c.numericDragStates.Load() {
		if m.State == core.DragEnd || m.State == core.DragCancel {
			// The Encounter+ web client marks a token controlled by
			// someone else on every state but end, and refuses its own
			// drags of it until an end comes: the refused drag's last
			// answer is end at the committed position, which snaps the
			// token back all the same.
			last := *block
			last.State = core.DragEnd
			block = &last
		}
		if out, ok := numericMovement(block); ok {
			return out, nil
		}
	}
	return block, nil
}

// onUpdateDoor opens or closes a door, refused when remote interaction is
// off (contract 6.2); the game master's never is.
func onUpdateDoor(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	who := c.actor()
	if err := c.hub.svc.CheckRemoteInteraction(core.RequestUpdateDoor); err != nil {
		return nil, err
	}
	var d core.Door
	if err := decodeData(core.RequestUpdateDoor, data, &d); err != nil {
		return nil, err
	}
	return c.hub.svc.PlayerAs(who).UpdateDoor(ctx, d)
}

func onPointerUpdated(_ context.Context, c *conn, data json.RawMessage) (any, error) {
	var in struct {
		core.Pointer
		State dragState `json:"state"` // a name, or 0-4 from the real web client
	}
	if err := decodeData(core.EventPointerUpdated, data, &in); err != nil {
		return nil, err
	}
	p := in.Pointer
	p.State = string(in.State)
	return nil, c.hub.svc.PlayerAs(c.actor()).MovePointer(c.source(), p)
}

// decodePatch reads a partial object that names its target by id.
func decodePatch(event string, data json.RawMessage) (string, core.Object, error) {
	var patch core.Object
	if err := decodeData(event, data, &patch); err != nil {
		return "", nil, err
	}
	id, _ := patch["id"].(string)
	if id == "" {
		return "", nil, core.Invalidf("%s: 'id' (a string) is required to know what to change", event)
	}
	return id, patch, nil
}

func onUpdateToken(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	id, patch, err := decodePatch(core.RequestUpdateToken, data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.PlayerAs(c.actor()).PatchToken(ctx, id, patch) // a hidden token does not exist for players
}

func onHostUpdateToken(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	id, patch, err := decodePatch(core.RequestUpdateToken, data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.PatchToken(ctx, id, patch)
}

func onUpdateEntity(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	id, patch, err := decodePatch(core.RequestUpdateEntity, data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.PlayerAs(c.actor()).PatchEntity(ctx, "", id, patch)
}

// onHostUpdateEntity is updateEntity from the game master: the whole
// entity is theirs to write (its notes included), whatever the join key.
func onHostUpdateEntity(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	id, patch, err := decodePatch(core.RequestUpdateEntity, data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.PatchEntity(ctx, "", id, patch)
}

func onUpdateCombatant(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	id, patch, err := decodePatch(core.RequestUpdateCombatant, data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.PlayerAs(c.actor()).PatchCombatant(ctx, id, patch) // a hidden combatant does not exist for players
}

func onHostUpdateCombatant(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	id, patch, err := decodePatch(core.RequestUpdateCombatant, data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.PatchCombatant(ctx, id, patch)
}

// onCreateMessage posts to the shared log as POST /api/messages does. A
// message without a source is signed with the client's registered name and
// colour, or its connection id before it registered a name: only the GM's
// messages have none.
func onCreateMessage(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		return nil, core.Invalidf("createMessage: 'data' is required")
	}
	m, err := core.DecodeMessage(data)
	if err != nil {
		return nil, err
	}
	if m.Source == "" {
		src := c.source()
		m.Source = src.Name
		if strings.TrimSpace(m.Source) == "" {
			m.Source = src.ID
		}
		if m.Color == "" {
			m.Color = src.Color
		}
	}
	// A player's bad /roll is answered to them alone (error reply), not logged.
	return c.hub.svc.PlayerAs(c.actor()).PostMessage(ctx, m)
}

func onGetAttribute(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var a core.Attribute
	if err := decodeData(core.RequestGetAttribute, data, &a); err != nil {
		return nil, err
	}
	return c.hub.svc.GetAttribute(ctx, a)
}

func onSetAttribute(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var a core.Attribute
	if err := decodeData(core.RequestSetAttribute, data, &a); err != nil {
		return nil, err
	}
	return c.hub.svc.PlayerAs(c.actor()).SetAttribute(ctx, a)
}

// onTrackObject handles a trackedObject* event: one object or an array.
func onTrackObject(name string) handler {
	return func(_ context.Context, c *conn, data json.RawMessage) (any, error) {
		var objects []*core.TrackedObject
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) > 0 && trimmed[0] == '[' {
			if err := decodeData(name, data, &objects); err != nil {
				return nil, err
			}
		} else {
			var o core.TrackedObject
			if err := decodeData(name, data, &o); err != nil {
				return nil, err
			}
			objects = []*core.TrackedObject{&o}
		}
		for i, o := range objects {
			if o == nil {
				return nil, core.Invalidf("%s: object %d is null", name, i)
			}
		}
		return nil, c.hub.svc.PlayerAs(c.actor()).TrackObject(name, objects)
	}
}

// onHostClientUpdated: the console's registration is not broadcast (the
// game master is no player).
func onHostClientUpdated(context.Context, *conn, json.RawMessage) (any, error) { return nil, nil }

// onHostTokenMoved: the game master's drags are never refused by remote
// interaction or a lock (core/engine/play/hostdrag.go).
func onHostTokenMoved(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	m, _, err := decodeMovement(data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.Drags().MoveAsHost(ctx, c.source(), m)
}

func onHostUpdateDoor(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var d core.Door
	if err := decodeData(core.RequestUpdateDoor, data, &d); err != nil {
		return nil, err
	}
	return c.hub.svc.UpdateDoor(ctx, d)
}

// onPing answers a ping. Its answer is the marker: a connection's frames
// are handled one at a time, in order, and what each changed is queued to
// the connection before the next is read, so the answer comes after all
// of it (docs/api.md).
// serverTime (Unix milliseconds) lets a page measure its clock's offset
// from the server's: offset = serverTime - (sent + received) / 2.
func onPing(context.Context, *conn, json.RawMessage) (any, error) {
	return map[string]any{"ok": true, "serverTime": time.Now().UnixMilli()}, nil
}
