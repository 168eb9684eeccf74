package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// Drag states as integers. The real Encounter+ web client sends and reads
// tokenMoved's state as a number, 0 to 4 in the contract's order (start,
// control, end, block, cancel). A connection that sends a number, or whose
// page is an installed client's (routes/client_kind.go), is answered in numbers
// from then on, for every tokenMoved it receives (its own stream, others'
// drags, the block that refuses it); every other connection gets the
// contract's names.
var dragStateNames = [...]string{core.DragStart, core.DragControl, core.DragEnd, core.DragBlock, core.DragCancel}

// dragStateNumber is the integer of a drag state name (-1 when unknown).
func dragStateNumber(name string) int {
	for i, n := range dragStateNames {
		if n == name {
			return i
		}
	}
	return -1
}

// movementIn is a tokenMoved payload as received: state is a name or a
// number (it shadows the embedded Movement's state).
type movementIn struct {
	core.Movement
	State json.RawMessage `json:"state"`
}

// decodeMovement reads a tokenMoved payload whose state may be a name or an
// integer 0 to 4; numeric reports the integer form.
func decodeMovement(data json.RawMessage) (m core.Movement, numeric bool, err error) {
	var in movementIn
	if err := decodeData(core.EventTokenMoved, data, &in); err != nil {
		return m, false, err
	}
	m = in.Movement
	raw := bytes.TrimSpace(in.State)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		m.State = ""
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &m.State); err != nil {
			return m, false, core.Invalidf("tokenMoved: 'state' is not a valid string")
		}
	default:
		n, err := strconv.Atoi(string(raw))
		if err != nil || n < 0 || n >= len(dragStateNames) {
			return m, false, core.Invalidf("tokenMoved: 'state' must be start, control, end, block or cancel, or 0 to 4 in that order, not %s", core.Clip(string(raw)))
		}
		m.State, numeric = dragStateNames[n], true
	}
	return m, numeric, nil
}

// movementOut is a Movement whose state is written as its integer.
type movementOut struct {
	*core.Movement
	State int `json:"state"`
}

// numericMovement returns the players' payload of data with its drag
// state as an integer when it is a Movement with a known state, and false
// otherwise (a payload for the game master alone included).
func numericMovement(data any) (any, bool) {
	m, ok := redact.PlayersView(data).(*core.Movement)
	if !ok || m == nil {
		return nil, false
	}
	n := dragStateNumber(m.State)
	if n < 0 {
		return nil, false
	}
	return movementOut{Movement: m, State: n}, true
}

// numericFrames encodes the integer-state form of the tokenMoved events
// among events, once for every connection that asked for it: msgs[i] and
// frames[i] are nil for every other event. A broadcast block or cancel
// ends a drag everyone saw (a mode switch, the game master's veto, the
// dragger giving up) and is sent as end at the position the token goes
// back to: the Encounter+ web client marks a token controlled by someone on
// every state but end, and refuses its own drags of it until an end comes.
func (h *Hub) numericFrames(events []core.Event) (msgs []outMsg) {
	for i, e := range events {
		if e.Name != core.EventTokenMoved {
			continue
		}
		data, ok := numericMovement(e.Data)
		if !ok {
			continue
		}
		if out := data.(movementOut); out.State == dragStateNumber(core.DragBlock) || out.State == dragStateNumber(core.DragCancel) {
			out.State = dragStateNumber(core.DragEnd)
			data = out
		}
		b, err := json.Marshal(outEnvelope{Name: e.Name, Data: data})
		if err != nil {
			h.log.Error("websocket: event not sent, cannot encode it", "event", e.Name, "err", err)
			continue
		}
		if msgs == nil {
			msgs = make([]outMsg, len(events))
		}
		msgs[i] = broadcastMsg(b)
	}
	return msgs
}

// dragState reads a drag state given as a name or as an integer 0 to 4
// (an unknown integer reads as "", which the handler then refuses).
type dragState string

func (s *dragState) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var name string
		err := json.Unmarshal(b, &name)
		*s = dragState(name)
		return err
	}
	if n, err := strconv.Atoi(string(b)); err == nil && n >= 0 && n < len(dragStateNames) {
		*s = dragState(dragStateNames[n])
		return nil
	}
	*s = ""
	return nil
}

type numericStatesKey struct{}

// WithNumericDragStates marks a WebSocket request whose connection is to
// receive integer drag states from its first message: routes knows which
// page the browser was served (an installed client's, routes/client_kind.go),
// the hub does not.
func WithNumericDragStates(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), numericStatesKey{}, true))
}

// numericStatesAsked reads the mark WithNumericDragStates set.
func numericStatesAsked(ctx context.Context) bool {
	v, _ := ctx.Value(numericStatesKey{}).(bool)
	return v
}
