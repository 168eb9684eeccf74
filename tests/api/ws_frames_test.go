package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/tests/e2e"
)

// Broadcast frames go out as gorilla writes them: small ones copied into
// each connection's write buffer, large ones (4 KiB and up) prepared once
// for all (hub/queue.go). A client reads them all whole, in order, in every
// length encoding (7-bit, 16-bit, 64-bit).
func TestWSBroadcastFramesEveryLengthEncoding(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	sizes := []int{0, 90, 125, 126, 200, 65400, 65535, 65536, 70000, 300000}
	for i, n := range sizes {
		e.Svc.Publish(core.Event{Name: core.EventReload, Data: map[string]any{"i": i, "pad": strings.Repeat("p", n)}})
	}
	for i, n := range sizes {
		m := a.WaitFor(core.EventReload)
		var d struct {
			I   int    `json:"i"`
			Pad string `json:"pad"`
		}
		m.Decode(t, &d)
		if d.I != i || len(d.Pad) != n {
			t.Fatalf("event %d (pad %d): got event %d with pad %d", i, n, d.I, len(d.Pad))
		}
	}
}

// A client that stops reading for a while fills its socket: its writer
// blocks mid-frame, the rest waits in its queue and goes out in batches.
// When it reads again it gets every frame whole and in order.
func TestWSWritesResumeInOrderAfterAStall(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{SendQueue: 4096})
	conn, _, err := websocket.DefaultDialer.Dial(e.WsURL("/"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	e.WaitClients(t, 1)
	const events = 300
	pad := strings.Repeat("q", 33<<10) // ~10 MB in all: far past the socket buffers
	for i := 0; i < events; i++ {
		e.Svc.Publish(core.Event{Name: core.EventReload, Data: map[string]any{"n": i, "pad": pad}})
	}
	time.Sleep(100 * time.Millisecond) // the stall
	next := 0
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	for next < events {
		_, data, err := conn.ReadMessage()
		if err != nil {
			t.Fatalf("after %d events: %v", next, err)
		}
		var m struct {
			Name string `json:"name"`
			Data struct {
				N   int    `json:"n"`
				Pad string `json:"pad"`
			} `json:"data"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("after %d events, a broken frame (%d bytes): %v", next, len(data), err)
		}
		if m.Name != core.EventReload {
			continue
		}
		if m.Data.N != next || len(m.Data.Pad) != len(pad) {
			t.Fatalf("event %d (pad %d) arrived, want %d", m.Data.N, len(m.Data.Pad), next)
		}
		next++
	}
}
