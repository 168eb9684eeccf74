package hub

import (
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

func TestDecodeMovementStateAsNameOrInteger(t *testing.T) {
	for data, want := range map[string]struct {
		state   string
		numeric bool
	}{
		`{"id":"t","x":1,"y":2,"state":0}`:         {core.DragStart, true},
		`{"id":"t","x":1,"y":2,"state":1}`:         {core.DragControl, true},
		`{"id":"t","x":1,"y":2,"state":2}`:         {core.DragEnd, true},
		`{"id":"t","x":1,"y":2,"state":3}`:         {core.DragBlock, true},
		`{"id":"t","x":1,"y":2,"state":4}`:         {core.DragCancel, true},
		`{"id":"t","x":1,"y":2,"state":"control"}`: {core.DragControl, false},
		`{"id":"t","x":1,"y":2}`:                   {"", false},
	} {
		m, numeric, err := decodeMovement(json.RawMessage(data))
		if err != nil || m.State != want.state || numeric != want.numeric || m.ID != "t" || m.X != 1 {
			t.Errorf("%s: %+v numeric=%v err=%v, want %q numeric=%v", data, m, numeric, err, want.state, want.numeric)
		}
	}
	for _, data := range []string{`{"id":"t","state":5}`, `{"id":"t","state":-1}`, `{"id":"t","state":1.5}`, `{"id":"t","state":true}`} {
		if _, _, err := decodeMovement(json.RawMessage(data)); core.KindOf(err) != core.KindInvalid {
			t.Errorf("%s: %v, want invalid", data, err)
		}
	}
}

func TestNumericMovementWritesTheStateAsItsInteger(t *testing.T) {
	m := &core.Movement{ID: "t", X: 3, Y: 4, State: core.DragBlock, Source: &core.EventSource{ID: "client-1"}}
	out, ok := numericMovement(m)
	if !ok {
		t.Fatal("not converted")
	}
	b, _ := json.Marshal(out)
	if want := `{"id":"t","x":3,"y":4,"source":{"id":"client-1"},"state":3}`; string(b) != want {
		t.Fatalf("%s, want %s", b, want)
	}
	if _, ok := numericMovement(&core.Movement{State: "sideways"}); ok {
		t.Fatal("an unknown state was converted")
	}
	if _, ok := numericMovement(map[string]any{"state": "start"}); ok {
		t.Fatal("a payload that is not a Movement was converted")
	}
	// A drag players see without the polygon (a foe's): the integer form is
	// the players' one; a drag for the game master alone has none.
	players := &core.Movement{ID: "t", MapID: "m", State: core.DragControl}
	host := &core.Movement{ID: "t", MapID: "m", State: core.DragControl, Polygon: []float64{0, 0, 1, 0, 1, 1}}
	out, ok = numericMovement(redact.Views{Players: players, Host: host})
	if b, _ := json.Marshal(out); !ok || string(b) != `{"id":"t","mapId":"m","x":0,"y":0,"state":1}` {
		t.Fatalf("a foe's drag for integer players: %s %v", b, ok)
	}
	if _, ok := numericMovement(redact.HostOnly(host)); ok {
		t.Fatal("a drag for the game master alone was converted for players")
	}
}

func TestStreamKeyReadsIntegerStates(t *testing.T) {
	for data, coalesce := range map[string]bool{`{"id":"t","state":1}`: true, `{"id":"t","state":0}`: false, `{"id":"t","state":"control"}`: true, `{"id":"t","state":2}`: false} {
		key, c, stream := streamKey(&inEnvelope{Name: core.EventTokenMoved, Data: json.RawMessage(data), event: clientEvents[core.EventTokenMoved]})
		if !stream || key == "" || c != coalesce {
			t.Errorf("%s: key %q coalesce %v stream %v, want coalesce %v", data, key, c, stream, coalesce)
		}
	}
}
