package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/tests/e2e"
)

// wsAdd places a mark over the WebSocket and returns it as stored.
func wsAdd(t *testing.T, c *e2e.WsClient, kind string, o map[string]any, rid string) map[string]any {
	t.Helper()
	c.Send(core.RequestAddMapObject, map[string]any{"mapId": e2e.WsMapID, "kind": kind, "object": o}, rid)
	reply := c.Reply(rid)
	if reply.Name != core.RequestAddMapObject {
		t.Fatalf("addMapObject %s answered %s %s", kind, reply.Name, reply.Data)
	}
	var out map[string]any
	reply.Decode(t, &out)
	return out
}

// Two players draw: each sees the other's drawing, neither removes the
// other's, and a drawing on the game master's layer reaches neither, nor
// do the moves of a hidden pin.
func TestWSMarksAreTheirMakersAndHiddenOnesStayHidden(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	stroke := map[string]any{"data": []any{10, 10, 40, 50, 80, 20}, "strokeColor": "#ff0000", "strokeWidth": 3}
	mine := wsAdd(t, a, "drawings", stroke, "a-1")
	// Players get the bare list, as the Encounter+ web client reads it.
	var seen []map[string]any
	b.WaitFor(core.EventDrawingsUpdated).Decode(t, &seen)
	if len(seen) != 1 || seen[0]["id"] != mine["id"] {
		t.Fatalf("B sees %v, want A's drawing", seen)
	}
	b.Send(core.RequestDeleteMapObject, map[string]any{"mapId": e2e.WsMapID, "kind": "drawings", "id": mine["id"]}, "b-1")
	if r := b.Reply("b-1"); r.Name != "error" || !strings.Contains(string(r.Data), "forbidden") {
		t.Fatalf("B removing A's drawing: %s %s", r.Name, r.Data)
	}
	if list, _ := e.Svc.MapObjects(context.Background(), e2e.WsMapID, "drawings"); len(list) != 1 {
		t.Fatalf("drawings after the refusal: %v", list)
	}

	gm, err := e.Svc.AddMapObjects(context.Background(), e2e.WsMapID, "drawings",
		[]core.Object{{"data": []any{0.0, 0.0, 9.0, 9.0}, "layer": "dm", "text": "ambush here"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*e2e.WsClient{a, b} {
		m := c.WaitFor(core.EventDrawingsUpdated)
		if strings.Contains(string(m.Data), gm[0]["id"].(string)) || strings.Contains(string(m.Data), "ambush") {
			t.Fatalf("the GM-layer drawing reached a player: %s", m.Data)
		}
	}
	pin, err := e.Svc.AddMapObjects(context.Background(), e2e.WsMapID, "markers", []core.Object{{"x": 5.0, "y": 5.0, "label": "secret"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*e2e.WsClient{a, b} {
		if m := c.WaitFor(core.EventMarkersUpdated); strings.Contains(string(m.Data), "secret") {
			t.Fatalf("the hidden pin reached a player: %s", m.Data)
		}
	}
	x := 50.0
	if _, err := e.Svc.MoveMapObject(context.Background(), core.EventSource{ID: "host"},
		core.MarkMove{MapID: e2e.WsMapID, Kind: "markers", ID: pin[0]["id"].(string), X: &x, Y: &x, State: core.DragControl}, nil); err != nil {
		t.Fatal(err)
	}
	e.Mark(t, a, b) // nothing of the hidden pin's move
	for _, c := range []*e2e.WsClient{a, b} {
		c.Send(core.RequestMoveMapObject, map[string]any{"mapId": e2e.WsMapID, "kind": "markers", "id": pin[0]["id"], "x": 1, "y": 1, "state": "control"}, "mv")
		if r := c.Reply("mv"); r.Name != "error" || !strings.Contains(string(r.Data), "not found") {
			t.Fatalf("a player moving a hidden pin: %s %s", r.Name, r.Data)
		}
	}
}

// skipThrough reads c until the message mark says it is the last one
// wanted, and returns what came (names and data).
func skipThrough(t *testing.T, c *e2e.WsClient, last func(e2e.WsMsg) bool) []e2e.WsMsg {
	t.Helper()
	var out []e2e.WsMsg
	for {
		m := c.Next()
		out = append(out, m)
		if last(m) {
			return out
		}
	}
}

// A shared ruler: A stretches it with a flood of moves; B sees it move
// with its distance, far fewer times than A sent (moves are coalesced as
// drags are, none refused), and its last place; released unpinned, it is
// gone.
func TestWSSharedRulerIsCoalescedAndMeasured(t *testing.T) {
	// A stream rate far below the flood's, as the drag flood test uses: at
	// the default rate a loaded machine sends slowly enough to pass most
	// moves, and coalescing would be left untested.
	e := e2e.NewWSEnv(t, hub.Options{StreamRate: 10, StreamBurst: 2})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	ruler := wsAdd(t, a, "measurements", map[string]any{"data": []any{35, 35, 35, 35}, "type": "grid", "color": "#00aa00", "hidden": false}, "r-0")
	b.WaitFor(core.EventMeasurementsUpdated)
	const moves = 300
	for i := 1; i <= moves; i++ {
		a.Send(core.RequestMoveMapObject, map[string]any{"mapId": e2e.WsMapID, "kind": "measurements", "id": ruler["id"],
			"data": []any{35, 35, 35 + i, 35}, "state": "control"}, "")
	}
	a.Send(core.RequestMoveMapObject, map[string]any{"mapId": e2e.WsMapID, "kind": "measurements", "id": ruler["id"],
		"data": []any{35, 35, 35 + 70*3, 35 + 70*4}, "state": "control"}, "")
	a.Send(core.RequestPing, nil, "p")
	a.Reply("p")
	got := skipThrough(t, b, func(m e2e.WsMsg) bool {
		return m.Name == core.EventMeasurementUpdated && strings.Contains(string(m.Data), fmt.Sprint(35+70*4))
	})
	var last map[string]any
	got[len(got)-1].Decode(t, &last)
	// The test rules have no grid hook: the straight line, 5 squares of 5 ft.
	if last["distance"] != "25 ft" || last["state"] != "control" || last["mapId"] != e2e.WsMapID {
		t.Fatalf("the ruler's last move: %v", last)
	}
	if len(got) > moves/2 {
		t.Fatalf("B got %d moves of %d sent: not coalesced", len(got), moves)
	}
	a.Send(core.RequestDeleteMapObject, map[string]any{"mapId": e2e.WsMapID, "kind": "measurements", "id": ruler["id"]}, "r-1")
	if r := a.Reply("r-1"); r.Name != core.RequestDeleteMapObject {
		t.Fatalf("releasing the ruler: %s %s", r.Name, r.Data)
	}
	var after []any
	b.WaitFor(core.EventMeasurementsUpdated).Decode(t, &after)
	if len(after) != 0 {
		t.Fatalf("after release: %v", after)
	}
}

// measure answers the squares a template covers and a path's distance;
// a template past the bound is refused.
func TestWSMeasure(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	a.Send(core.RequestMeasure, map[string]any{"mapId": e2e.WsMapID,
		"areaEffect": map[string]any{"shape": "sphere", "x": 700, "y": 700, "radius": 70}}, "m-1")
	var got mapobjects.Measured
	r := a.Reply("m-1")
	r.Decode(t, &got)
	// a 5-ft sphere on an intersection: the four squares around it
	if b, _ := json.Marshal(got.Squares); string(b) != "[9,9,10,9,9,10,10,10]" || got.Text != "5 ft" {
		t.Fatalf("measure: %s", r.Data)
	}
	a.Send(core.RequestMeasure, map[string]any{"mapId": e2e.WsMapID,
		"areaEffect": map[string]any{"shape": "sphere", "x": 700, "y": 700, "radius": 70 * 61}}, "m-2")
	if r := a.Reply("m-2"); r.Name != "error" || !strings.Contains(string(r.Data), "at most") {
		t.Fatalf("a template of 61 squares: %s %s", r.Name, r.Data)
	}
}

// A page closed while its ruler is live does not leave the ruler on
// everyone's map: the server removes it when the connection goes; a ruler
// it pinned (its move ended) stays.
func TestWSAClosedPagesLiveRulerGoes(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	stretch := func(id any, state string) {
		a.Send(core.RequestMoveMapObject, map[string]any{"mapId": e2e.WsMapID, "kind": "measurements", "id": id,
			"data": []any{35, 35, 35 + 70*3, 35}, "state": state}, "")
	}
	pinned := wsAdd(t, a, "measurements", map[string]any{"data": []any{35, 35, 35, 35}, "type": "grid", "hidden": false}, "r-0")
	stretch(pinned["id"], "control")
	stretch(pinned["id"], "end")
	live := wsAdd(t, a, "measurements", map[string]any{"data": []any{35, 35, 35, 35}, "type": "grid", "hidden": false}, "r-1")
	stretch(live["id"], "control")
	a.Send(core.RequestPing, nil, "p")
	a.Reply("p")
	rulers := func() []map[string]any {
		var list []map[string]any
		b.WaitFor(core.EventMeasurementsUpdated).Decode(t, &list)
		return list
	}
	for len(rulers()) != 2 { // both on B's map
	}
	a.Conn.Close()
	for {
		if list := rulers(); len(list) == 1 {
			if list[0]["id"] != pinned["id"] {
				t.Fatalf("after A left, B keeps %v; want A's pinned ruler %v", list[0]["id"], pinned["id"])
			}
			return
		}
	}
}
