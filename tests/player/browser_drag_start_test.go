package player

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// inputOrder is an init script that lists, in order, the pointer's raw
// updates and pointermoves with a button down (both seen in the capture
// phase, before the page's own listeners) and the page's sends of a
// drag's start on its socket.
const inputOrder = `(() => {
	const order = window.__inputOrder = [];
	window.addEventListener("pointerrawupdate", e => { if (e.buttons) order.push("raw"); }, true);
	window.addEventListener("pointermove", e => { if (e.buttons) order.push("move"); }, true);
	const send = WebSocket.prototype.send;
	WebSocket.prototype.send = function (data) {
		if (typeof data === "string" && data.includes('"tokenMoved"') && data.includes('"state":"start"')) order.push("start");
		return send.call(this, data);
	};
})()`

// TestPlayerClientDragStartsOnTheRawPointerUpdate: a press becomes a drag,
// and its start goes out, from the pointer's raw update that passes the
// threshold, not from the pointermove the browser delivers with the next
// frame (web/client/src/map/drag.ts): on a page drawing a few frames a
// second, a frame's wait was a third of a second before anyone saw the
// token move. The start is sent right after a raw update, before any
// pointermove of the drag reached the page's listeners.
func TestPlayerClientDragStartsOnTheRawPointerUpdate(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	a := e2e.StartPlayer(t, srv, "Player A", e2e.MapOnlySize, "", inputOrder, e2e.PanelsClosed)
	e2e.FinishPlayer(t, a)
	id, x, y := e2e.UncoveredToken(t, a, 2, e2e.DemoBrannocID, e2e.DemoIlsaID, e2e.DemoQuillID)
	e2e.DragInPage(t, a, x, y, x+2*e2e.DemoGrid, y, 4, nil)
	a.WaitFor("the drag to end", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && Math.abs(t.x - %g) < 1)`, id, x+2*e2e.DemoGrid), 15*time.Second)
	var order []string
	a.EvalInto(`window.__inputOrder`, &order)
	at := -1
	for i, s := range order {
		if s == "start" {
			if at >= 0 {
				t.Fatalf("the drag started twice: %s", strings.Join(order, " "))
			}
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("the page never sent the drag's start; pointer events seen: %s", strings.Join(order, " "))
	}
	if at == 0 || order[at-1] != "raw" {
		t.Errorf("the drag's start went out after %v, want right after a raw pointer update: %s", order[max(0, at-1)], strings.Join(order, " "))
	}
	for _, s := range order[:at] {
		if s == "move" {
			t.Errorf("a pointermove reached the page before the drag's start: %s", strings.Join(order, " "))
			break
		}
	}
}
