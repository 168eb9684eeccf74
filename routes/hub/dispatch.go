package hub

// The WebSocket protocol as this hub speaks it (contract 6), where the
// contract leaves room:
//
//   - Every frame is one envelope {name, data, requestId, responseId}; the
//     server never merges envelopes.
//   - A request with a requestId is answered on it (responseId) with the
//     request's name and its result (the merged token, the stored message,
//     the line of sight...) or {"ok": true}. getAttribute is always
//     answered, and so is a refused tokenMoved (state block).
//   - A failed request is answered with name "error" and data {message,
//     kind, request}; the responseId is the requestId when there was one
//     (even in a frame that is not valid JSON, when it can be found). A
//     request refused by the flood limits (limits.go) has kind
//     "rate limited"; a coalesced move is answered {"ok": true,
//     "coalesced": true}.
//   - Each connection is "client-<channel>": the source of its drags and
//     pointer, whatever source the client claims. clientUpdated cannot
//     change the channel or the address.
//   - mapViewportUpdated is recorded (GET /api/clients, /host/api/clients),
//     not broadcast.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/vttapp/companion/core"
)

// inEnvelope is a client message (contract 6.1). requestId is kept raw so
// that a reply echoes it exactly, whatever JSON type the client used.
type inEnvelope struct {
	Name      string          `json:"name"`
	Data      json.RawMessage `json:"data"`
	RequestID json.RawMessage `json:"requestId"`
}

// outEnvelope is a message to a client: a broadcast (no responseId) or a
// reply (responseId echoes the request's requestId).
type outEnvelope struct {
	Name       string          `json:"name"`
	Data       any             `json:"data,omitempty"`
	ResponseID json.RawMessage `json:"responseId,omitempty"`
}

// errorEvent is the name of the reply to a request that failed. Its data
// is {"message", "kind", "request"}: the text for a person, the error kind
// (invalid, not found, conflict, too large, internal) and the request name.
const errorEvent = "error"

// handler acts on one client event. A non-nil reply is sent to the sender
// alone; whatever the event changed reaches everyone through the bus.
type handler func(ctx context.Context, c *conn, data json.RawMessage) (reply any, err error)

// handlers are the events of contract 6.2. Any other name is ignored.
var handlers map[string]handler

// ignoredRequests are parsed but no handler acts on them (contract 6.2).
var ignoredRequests = map[string]bool{
	core.RequestCreateEntity: true, core.RequestCreateCombatant: true,
	core.RequestDeleteEntity: true, core.RequestDeleteCombatant: true,
}

func init() {
	handlers = map[string]handler{
		core.EventClientUpdated:         onClientUpdated,
		core.RequestMapViewportUpdated:  onViewportUpdated,
		core.EventTokenMoved:            onTokenMoved,
		core.RequestUpdateDoor:          onUpdateDoor,
		core.EventPointerUpdated:        onPointerUpdated,
		core.RequestUpdateToken:         onUpdateToken,
		core.RequestUpdateEntity:        onUpdateEntity,
		core.RequestUpdateCombatant:     onUpdateCombatant,
		core.RequestCreateMessage:       onCreateMessage,
		core.RequestGetAttribute:        onGetAttribute,
		core.RequestSetAttribute:        onSetAttribute,
		core.EventTrackedObjectCreated:  onTrackObject(core.EventTrackedObjectCreated),
		core.EventTrackedObjectUpdated:  onTrackObject(core.EventTrackedObjectUpdated),
		core.EventTrackedObjectDeleted:  onTrackObject(core.EventTrackedObjectDeleted),
		core.EventTrackedObjectsUpdated: onTrackObject(core.EventTrackedObjectsUpdated),
	}
}

// alwaysAnswered get their reply even without a requestId: the value
// read, and the block that snaps a refused drag back.
var alwaysAnswered = map[string]bool{core.RequestGetAttribute: true, core.EventTokenMoved: true}

// requestIDPattern finds a requestId in a frame that is not valid JSON,
// so that even a broken request gets its error on the right id.
var requestIDPattern = regexp.MustCompile(`"requestId"\s*:\s*("(?:[^"\\]|\\.)*"|-?[0-9]+)`)

// dispatch decodes one frame and acts on it. Nothing a client sends can
// affect another client except through the changes it is allowed to make.
func (h *Hub) dispatch(c *conn, frame []byte) {
	if err := core.CheckUTF8("message", frame); err != nil {
		c.reply(errorEvent, findRequestID(frame), errorData("", err))
		return
	}
	var env inEnvelope
	if err := json.Unmarshal(frame, &env); err != nil {
		c.reply(errorEvent, findRequestID(frame), errorData("", core.Invalidf("malformed message: %s", core.JSONErrorText(err))))
		return
	}
	if bytes.Equal(env.RequestID, []byte("null")) {
		env.RequestID = nil // asks for no reply, as an absent requestId
	}
	if env.Name == "" {
		c.reply(errorEvent, env.RequestID, errorData("", core.Invalidf("message has no 'name': expected {\"name\": ..., \"data\": ...}")))
		return
	}
	if _, ok := handlers[env.Name]; !ok {
		if ignoredRequests[env.Name] {
			h.log.Debug("websocket: event parsed and ignored", "event", env.Name, "channel", c.snapshot().Channel)
		}
		return // contract 6.2: any other name is ignored
	}
	if c.host {
		h.handle(c, &env) // the game master is never rate limited (host.go)
		return
	}
	l := &c.limits
	l.handling.Lock()
	defer l.handling.Unlock()
	ready, refused := h.admit(c, &env) // flood limits, limits.go
	for _, e := range ready {
		h.handle(c, e)
	}
	if refused {
		c.reply(errorEvent, env.RequestID, h.rateLimitedData(env.Name))
	}
}

// handle acts on one admitted client message and answers it.
func (h *Hub) handle(c *conn, env *inEnvelope) {
	ctx, cancel := context.WithTimeout(context.Background(), h.opts.HandlerTimeout)
	defer cancel()
	reply, err := h.run(ctx, c, env.Name, handlerFor(c, env.Name), env.Data)
	switch {
	case err != nil:
		if core.KindOf(err) == core.KindInternal {
			h.log.Error("websocket: event failed", "event", env.Name, "err", err)
		}
		c.reply(errorEvent, env.RequestID, errorData(env.Name, err))
	case reply != nil && (len(env.RequestID) > 0 || alwaysAnswered[env.Name]):
		c.reply(env.Name, env.RequestID, reply)
	case len(env.RequestID) > 0:
		c.reply(env.Name, env.RequestID, map[string]any{"ok": true})
	}
}

// run calls a handler and turns a panic in it into an internal error: the
// reader goroutine is outside the HTTP panic recovery, and a bug in one
// event must not take the server down.
func (h *Hub) run(ctx context.Context, c *conn, name string, handle handler, data json.RawMessage) (reply any, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			h.log.Error("websocket: panic handling an event", "event", name, "channel", c.snapshot().Channel,
				"panic", fmt.Sprint(rec), "stack", string(debug.Stack()))
			reply, err = nil, core.Internal(fmt.Errorf("panic: %v", rec))
		}
	}()
	return handle(ctx, c, data)
}

// findRequestID finds the requestId of a frame that cannot be decoded,
// so that even a broken request gets its error on the right id.
func findRequestID(frame []byte) json.RawMessage {
	if m := requestIDPattern.FindSubmatch(frame); m != nil && utf8.Valid(m[1]) {
		return json.RawMessage(m[1])
	}
	return nil
}

// reply sends a message to this client alone, as players may see it (a
// hidden token or combatant as {id, hidden}, like a broadcast).
func (c *conn) reply(name string, requestID json.RawMessage, data any) {
	b, err := json.Marshal(outEnvelope{Name: name, Data: c.view(data), ResponseID: requestID})
	if err != nil {
		c.hub.log.Error("websocket: reply not sent, cannot encode it", "event", name, "err", err)
		return
	}
	c.enqueue(b)
}

func errorData(request string, err error) map[string]any {
	d := map[string]any{"message": core.MessageOf(err), "kind": core.KindOf(err).String()}
	if request != "" {
		d["request"] = request
	}
	return d
}

// decodeData reads an event's payload into v with a message naming the event.
func decodeData(event string, data json.RawMessage, v any) error {
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		return core.Invalidf("%s: 'data' is required", event)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return core.Invalidf("%s: %s", event, core.JSONErrorText(err))
	}
	return nil
}

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
	// TokenID names the token this client plays, for remote interaction
	// "token" (core/dragrights.go). An extension: the real web client
	// keeps its choice to itself, and the server then gives a player token
	// to the first client that drags it.
	TokenID *string `json:"tokenId"`
}

// maxClientText bounds the strings a client registers (name, colour...).
const maxClientText = 200

func onClientUpdated(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var in clientRegistration
	if err := decodeData(core.EventClientUpdated, data, &in); err != nil {
		return nil, err
	}
	if in.TokenID != nil {
		if err := c.hub.drags.Choose(ctx, c.id, *in.TokenID); err != nil {
			return nil, err
		}
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
	block, err := c.hub.drags.Move(ctx, c.source(), m)
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

func onUpdateDoor(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	if err := c.hub.svc.CheckRemoteInteraction(core.RequestUpdateDoor); err != nil {
		return nil, err
	}
	var d core.Door
	if err := decodeData(core.RequestUpdateDoor, data, &d); err != nil {
		return nil, err
	}
	return c.hub.svc.UpdateDoor(ctx, d)
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
	return nil, c.hub.svc.MovePointer(c.source(), p)
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
	if c.host {
		return c.hub.svc.PatchToken(ctx, id, patch)
	}
	return c.hub.svc.Players().PatchToken(ctx, id, patch) // a hidden token does not exist for players
}

func onUpdateEntity(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
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
	if c.host {
		return c.hub.svc.PatchCombatant(ctx, id, patch)
	}
	return c.hub.svc.Players().PatchCombatant(ctx, id, patch) // a hidden combatant does not exist for players
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
	return c.hub.svc.PostMessage(ctx, m)
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
	return c.hub.svc.SetAttribute(ctx, a)
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
		return nil, c.hub.svc.TrackObject(name, objects)
	}
}
