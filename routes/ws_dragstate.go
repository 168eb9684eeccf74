package routes

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/vttapp/companion/core"
)

// Drag states as integers. The real Encounter+ web client sends and reads
// tokenMoved's state as a number, 0 to 4 in the contract's order (start,
// control, end, block, cancel). A connection that sends a number, or whose
// page is an installed client's (client_kind.go), is answered in numbers
// from then on, for every tokenMoved it receives (its own stream, others'
// drags, the block that refuses it); every other connection gets the
// contract's names.
var wsDragStateNames = [...]string{core.DragStart, core.DragControl, core.DragEnd, core.DragBlock, core.DragCancel}

// wsDragStateNumber is the integer of a drag state name (-1 when unknown).
func wsDragStateNumber(name string) int {
	for i, n := range wsDragStateNames {
		if n == name {
			return i
		}
	}
	return -1
}

// wsMovementIn is a tokenMoved payload as received: state is a name or a
// number (it shadows the embedded Movement's state).
type wsMovementIn struct {
	core.Movement
	State json.RawMessage `json:"state"`
}

// decodeMovement reads a tokenMoved payload whose state may be a name or an
// integer 0 to 4; numeric reports the integer form.
func decodeMovement(data json.RawMessage) (m core.Movement, numeric bool, err error) {
	var in wsMovementIn
	if err := wsDecode(core.EventTokenMoved, data, &in); err != nil {
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
		if err != nil || n < 0 || n >= len(wsDragStateNames) {
			return m, false, core.Invalidf("tokenMoved: 'state' must be start, control, end, block or cancel, or 0 to 4 in that order, not %s", core.Clip(string(raw)))
		}
		m.State, numeric = wsDragStateNames[n], true
	}
	return m, numeric, nil
}

// wsMovementOut is a Movement whose state is written as its integer.
type wsMovementOut struct {
	*core.Movement
	State int `json:"state"`
}

// numericMovement returns data with its drag state as an integer when it
// is a Movement with a known state, and false otherwise.
func numericMovement(data any) (any, bool) {
	m, ok := data.(*core.Movement)
	if !ok || m == nil {
		return nil, false
	}
	n := wsDragStateNumber(m.State)
	if n < 0 {
		return nil, false
	}
	return wsMovementOut{Movement: m, State: n}, true
}

// wsNumericFrames encodes the integer-state form of the tokenMoved events
// among events, once for every connection that asked for it: msgs[i] and
// frames[i] are nil for every other event. A broadcast block or cancel
// ends a drag everyone saw (a mode switch, the game master's veto, the
// dragger giving up) and is sent as end at the position the token goes
// back to: the Encounter+ web client marks a token controlled by someone on
// every state but end, and refuses its own drags of it until an end comes.
func (h *Hub) wsNumericFrames(events []core.Event) (msgs, frames [][]byte) {
	for i, e := range events {
		if e.Name != core.EventTokenMoved {
			continue
		}
		data, ok := numericMovement(e.Data)
		if !ok {
			continue
		}
		if out := data.(wsMovementOut); out.State == wsDragStateNumber(core.DragBlock) || out.State == wsDragStateNumber(core.DragCancel) {
			out.State = wsDragStateNumber(core.DragEnd)
			data = out
		}
		b, err := json.Marshal(wsOutEnvelope{Name: e.Name, Data: data})
		if err != nil {
			h.log.Error("websocket: event not sent, cannot encode it", "event", e.Name, "err", err)
			continue
		}
		if msgs == nil {
			msgs, frames = make([][]byte, len(events)), make([][]byte, len(events))
		}
		msgs[i], frames[i] = b, wsTextFrame(b)
	}
	return msgs, frames
}

// wsDragState reads a drag state given as a name or as an integer 0 to 4
// (an unknown integer reads as "", which the handler then refuses).
type wsDragState string

func (s *wsDragState) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var name string
		err := json.Unmarshal(b, &name)
		*s = wsDragState(name)
		return err
	}
	if n, err := strconv.Atoi(string(b)); err == nil && n >= 0 && n < len(wsDragStateNames) {
		*s = wsDragState(wsDragStateNames[n])
		return nil
	}
	*s = ""
	return nil
}
