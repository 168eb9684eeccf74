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
	"unicode/utf8"

	"github.com/vttapp/companion/core"
)

// inEnvelope is a client message (contract 6.1). requestId is kept raw so
// that a reply echoes it exactly, whatever JSON type the client used.
type inEnvelope struct {
	Name      string          `json:"name"`
	Data      json.RawMessage `json:"data"`
	RequestID json.RawMessage `json:"requestId"`

	event *clientEvent // its row of clientEvents, once dispatch found it
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
const errorEvent = core.EventError

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
	ev := clientEvents[env.Name] // events.go
	if ev == nil {
		return // contract 6.2: any other name is ignored
	}
	if ev.player == nil {
		h.log.Debug("websocket: event parsed and ignored", "event", env.Name, "channel", c.snapshot().Channel)
		return
	}
	env.event = ev
	if err := core.CheckJSON(env.Data); err != nil {
		// Bounded before any handler decodes it (core/jsonbounds.go).
		c.reply(errorEvent, env.RequestID, errorData(env.Name, err))
		return
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
	reply, err := h.run(ctx, c, env.Name, env.event.handlerFor(c), env.Data)
	switch {
	case err != nil:
		if core.KindOf(err) == core.KindInternal {
			h.log.Error("websocket: event failed", "event", env.Name, "err", err)
		}
		c.reply(errorEvent, env.RequestID, errorData(env.Name, err))
	case reply != nil && (len(env.RequestID) > 0 || env.event.alwaysAnswered()):
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
