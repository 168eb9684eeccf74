package hub

import (
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
)

// A host console socket that registers while a broadcast is under way
// (after the broadcast read how many host sockets there are, before it
// walks the connections) still gets the game master's frame, and the
// broadcast does not crash. FuzzHubFrame found this: a broadcast runs in
// whoever publishes (an HTTP handler, a drag sweep, the system watcher),
// so a panic there can take the server down.
func TestBroadcastReachesAHostSocketThatJustJoined(t *testing.T) {
	h := New(engine.NewService(engine.ServiceConfig{}), core.NewBus(), nil, Options{})
	defer h.Close()
	c := newConn(h, nil, &batchConn{})
	c.host = true
	h.mu.Lock()
	h.conns[c] = struct{}{} // registered, hostCount not yet read as 1 by the broadcast
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.conns, c)
		h.mu.Unlock()
	}()
	secret := &core.Token{ID: "t1", Name: "Assassin", Hidden: true, MapID: "m"}
	h.broadcast([]core.Event{{Name: core.EventTokenUpdated, Data: secret}})
	got := c.queue.take(nil)
	if len(got) != 1 || !strings.Contains(string(got[0].data), "Assassin") {
		t.Fatalf("the host socket got %q, want the game master's whole token", got)
	}
}
