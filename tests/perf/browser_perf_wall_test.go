package perf

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// wallLatencies measures, in page b (a player's page on srv's demo map),
// the time from the game master's POST of a wall (the host API, as the GM
// map's Wall tool sends it) to the first frame b draws in which its
// vision stops at that wall: a point beyond the wall, seen before, is no
// longer visible. The wall crosses the line from the party token at (x,
// y) to a point three cells east of it; each of n tries adds the wall,
// waits, and deletes it again (b then sees the point again). Times are
// milliseconds on the machine's one clock (Go's and the page's Date).
// A try whose point was not visible to begin with is skipped.
func wallLatencies(t *testing.T, srv *e2e.Server, b *e2e.BrowserPage, mapID string, x, y float64, n int) []float64 {
	t.Helper()
	px, py := x+3*e2e.DemoGrid, y
	wx := x + 1.5*e2e.DemoGrid
	var out []float64
	for i := range n {
		if !b.Poll(fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g)`, px, py), 10*time.Second) {
			t.Logf("wall try %d: (%g, %g) is not visible to B: skipped", i+1, px, py)
			continue
		}
		// The page notes, at the start of each frame, whether the point
		// is still visible; the first frame where it is not stamps the time.
		b.Eval(fmt.Sprintf(`(() => {
			window.__wallSeen = undefined;
			const tick = () => {
				if (!window.companionDebug.isVisibleAt(%g, %g)) { window.__wallSeen = performance.timeOrigin + performance.now(); return; }
				requestAnimationFrame(tick);
			};
			requestAnimationFrame(tick);
		})()`, px, py))
		id := fmt.Sprintf("bench-wall-%d", i)
		body := fmt.Sprintf(`{"id": %q, "data": [%g, %g, %g, %g]}`, id, wx, y-2*e2e.DemoGrid, wx, y+2*e2e.DemoGrid)
		sent := float64(time.Now().UnixNano()) / 1e6
		if r := e2e.GmuiDo(t, srv, "POST", "/host/api/maps/"+mapID+"/walls", strings.NewReader(body), "application/json"); r.Status != 201 {
			t.Fatalf("the wall: %d %s", r.Status, r.Body)
		}
		b.WaitFor("B's vision to stop at the wall", `window.__wallSeen !== undefined`, 10*time.Second)
		var seen float64
		b.EvalInto(`window.__wallSeen`, &seen)
		out = append(out, seen-sent)
		if r := e2e.GmuiDo(t, srv, "DELETE", "/host/api/maps/"+mapID+"/walls/"+id, nil, ""); r.Status != 204 {
			t.Fatalf("delete the wall: %d %s", r.Status, r.Body)
		}
	}
	return out
}
