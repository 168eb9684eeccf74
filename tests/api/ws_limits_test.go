package api

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/tests/e2e"
)

// nextMove returns the next tokenMoved or pointerUpdated b receives,
// skipping anything else (tokenUpdated, replies).
func nextMove(t *testing.T, c *e2e.WsClient, name string) (x float64, state string) {
	t.Helper()
	for {
		m := c.Next()
		if m.Name != name || len(m.ResponseID) > 0 {
			continue
		}
		var mv struct {
			X     float64 `json:"x"`
			State string  `json:"state"`
		}
		m.Decode(t, &mv)
		return mv.X, mv.State
	}
}

// A drag faster than StreamRate is coalesced: fewer moves go out, in
// order, the last position always arrives, and start and end are never
// dropped.
func TestWSFloodDragMovesAreCoalesced(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{StreamRate: 10, StreamBurst: 2})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)

	const moves = 40
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: -1, State: core.DragStart}, "")
	for i := 0; i < moves; i++ {
		a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: float64(i), State: core.DragControl}, "")
	}
	if x, st := nextMove(t, b, core.EventTokenMoved); st != core.DragStart || x != -1 {
		t.Fatalf("first move %v %s, want the start", x, st)
	}
	got, last := 0, -1.0
	for last != moves-1 {
		x, st := nextMove(t, b, core.EventTokenMoved)
		if st != core.DragControl || x <= last {
			t.Fatalf("move %v (%s) after %v: out of order or not a control", x, st, last)
		}
		got, last = got+1, x
	}
	// Sent within a few milliseconds: the burst (2), perhaps one token of
	// refill, and the held latest one.
	if got > 5 {
		t.Fatalf("%d of %d moves forwarded at 10/s with a burst of 2: not coalesced", got, moves)
	}
	// A held move goes out before the end that follows it, and the end is
	// never coalesced away, however fast it follows.
	for i := 0; i < 5; i++ {
		a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: float64(100 + i), State: core.DragControl}, "")
	}
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 200, Y: 20, State: core.DragEnd}, "")
	prev := last
	for {
		x, st := nextMove(t, b, core.EventTokenMoved)
		if st == core.DragEnd {
			if prev != 104 {
				t.Fatalf("end after move %v, want the latest held move 104 first", prev)
			}
			break
		}
		if x <= prev {
			t.Fatalf("move %v after %v", x, prev)
		}
		prev = x
	}
	b.WaitFor(core.EventTokenUpdated)
	if tok := e.Token(t); tok.X != 200 {
		t.Fatalf("end not committed: x %v", tok.X)
	}
	// A held move with a requestId that a newer one replaced is answered.
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 1, State: core.DragStart}, "")
	for i := 0; i < 6; i++ {
		a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: float64(i), State: core.DragControl}, "m"+strconv.Itoa(i))
	}
	for i := 0; i < 6; i++ {
		if r := a.Reply("m" + strconv.Itoa(i)); r.Name != core.EventTokenMoved {
			t.Fatalf("reply to m%d: %s %s", i, r.Name, r.Data)
		}
	}
}

// The pointer stream is coalesced the same way, per client.
func TestWSFloodPointerIsCoalesced(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{StreamRate: 10, StreamBurst: 2})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	const moves = 40
	for i := 0; i < moves; i++ {
		a.Send(core.EventPointerUpdated, core.Pointer{X: float64(i), Y: 1}, "")
	}
	got, last := 0, -1.0
	for last != moves-1 {
		x, _ := nextMove(t, b, core.EventPointerUpdated)
		if x <= last {
			t.Fatalf("pointer %v after %v", x, last)
		}
		got, last = got+1, x
	}
	if got > 5 {
		t.Fatalf("%d of %d pointer moves forwarded at 10/s with a burst of 2", got, moves)
	}
}

// With the default limits a drag at a display's frame rate (60/s) passes
// untouched: every move is forwarded.
func TestWSFloodDefaultsLeaveA60HzDragAlone(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	const moves = 45
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: -1, State: core.DragStart}, "")
	sent := make([]time.Time, moves)
	t0 := time.Now()
	for i := 0; i < moves; i++ {
		time.Sleep(time.Until(t0.Add(time.Duration(i) * time.Second / 60)))
		sent[i] = time.Now()
		a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: float64(i), State: core.DragControl}, "")
	}
	nextMove(t, b, core.EventTokenMoved) // start
	got := 0
	for last := -1.0; last != moves-1; got++ {
		last, _ = nextMove(t, b, core.EventTokenMoved)
	}
	if got == moves {
		return
	}
	// Only a sender stalled so long that more than the burst left at once
	// may see moves coalesced (a loaded test machine).
	for i := hub.DefaultStreamBurst; i < moves; i++ {
		if sent[i].Sub(sent[i-hub.DefaultStreamBurst]) < time.Duration(hub.DefaultStreamBurst-1)*time.Second/60 {
			t.Logf("sender stalled; %d of %d moves forwarded", got, moves)
			return
		}
	}
	t.Fatalf("%d of %d moves at 60/s forwarded: the defaults coalesce a real drag", got, moves)
}

// Requests past the bucket are refused with an error on their requestId
// (or without one), never dropped in silence, and nothing is broadcast.
func TestWSFloodRequestBucket(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{RequestRate: 1, RequestBurst: 3})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	for i := 0; i < 6; i++ {
		a.Send(core.RequestCreateMessage, map[string]any{"text": "hello " + strconv.Itoa(i)}, "r"+strconv.Itoa(i))
	}
	a.Send(core.RequestCreateMessage, map[string]any{"text": "no id"}, "")
	for i := 0; i < 6; i++ {
		r := a.Reply("r" + strconv.Itoa(i))
		if i < 3 {
			if r.Name != core.RequestCreateMessage {
				t.Fatalf("r%d within the burst: %s %s", i, r.Name, r.Data)
			}
			continue
		}
		var d map[string]any
		r.Decode(t, &d)
		if r.Name != "error" || d["kind"] != "rate limited" || d["request"] != core.RequestCreateMessage || d["message"] == "" {
			t.Fatalf("r%d past the burst: %s %s, want a rate limited error", i, r.Name, r.Data)
		}
	}
	noID := a.WaitFor("error")
	if len(noID.ResponseID) > 0 || !json.Valid(noID.Data) {
		t.Fatalf("refusal of the request without id: %+v", noID)
	}
	e.Mark(t) // everything published so far has been delivered to b
	created := 0
	for {
		m := b.Next()
		if m.Name == core.EventReload {
			break
		}
		if m.Name == core.EventMessageCreated {
			created++
		}
	}
	if created != 3 {
		t.Fatalf("%d messages broadcast, want the 3 within the burst", created)
	}
	// The bucket refills: a request a second later goes through.
	time.Sleep(1100 * time.Millisecond)
	a.Send(core.RequestCreateMessage, map[string]any{"text": "later"}, "later")
	if r := a.Reply("later"); r.Name != core.RequestCreateMessage {
		t.Fatalf("after the refill: %s %s", r.Name, r.Data)
	}
}

// Past MaxConnections an upgrade is refused with 503 {"message"}; a place
// that frees up is taken again.
func TestWSFloodConnectionCap(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{MaxConnections: 2})
	a, _ := e.Connect(t)
	e.Connect(t)
	_, resp, err := websocket.DefaultDialer.Dial(e.WsURL("/"), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("third connection: err %v, response %+v; want 503", err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	var msg struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Message == "" {
		t.Fatalf("503 body %q, want {\"message\"}", body)
	}
	a.Conn.Close()
	e.WaitClients(t, 1)
	e.Connect(t) // the freed place
}
