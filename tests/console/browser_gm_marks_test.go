package console

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// gmDrawings is what the page's hook reports of the map's drawings.
func gmDrawings(p *e2e.BrowserPage) []struct{ ID, Layer string } {
	p.T.Helper()
	var out []struct{ ID, Layer string }
	p.EvalInto(`window.companionDebug.state().marks.drawings`, &out)
	return out
}

// clickSelector clicks the middle of an element of the page as a person would.
func clickSelector(p *e2e.BrowserPage, selector string) {
	p.T.Helper()
	var box struct{ X, Y float64 }
	p.EvalInto(fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, selector), &box)
	gmuiClick(p, box.X, box.Y, false)
}

// TestGMDrawsForEveryoneAndForHimself: on the GM map the game master
// draws a stroke on the GM layer and a line for everyone, with the marks
// bar of the toolbar. The GM map draws both (pixels); the player's page
// draws the line, and never receives the hidden stroke.
func TestGMDrawsForEveryoneAndForHimself(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	player := e2e.StartPlayer(t, srv, "Player A", e2e.DesktopSize, "")
	gm := startConsole(t, srv)
	finishConsole(t, gm)
	e2e.FinishPlayer(t, player)
	gmBefore := e2e.SaveScreenshot(t, gm, "gm-before")

	clickSelector(gm, "#gm-marks .mark-hidden")
	gm.WaitFor("the GM layer chosen", `document.querySelector("#gm-marks .mark-hidden").checked`, 5*time.Second)
	clickSelector(gm, `#gm-marks button[data-mark="free"]`)
	e2e.DragInPage(t, gm, 420, 700, 560, 700, 10, nil)
	gm.WaitFor("the hidden stroke", `window.companionDebug.state().marks.drawings.length === 1`, 10*time.Second)
	clickSelector(gm, "#gm-marks .mark-hidden")
	clickSelector(gm, `#gm-marks button[data-mark="segment"]`)
	e2e.DragInPage(t, gm, 420, 840, 560, 840, 6, nil)
	gm.WaitFor("both drawings", `window.companionDebug.state().marks.drawings.length === 2`, 10*time.Second)
	var hiddenID, shownID string
	for _, d := range gmDrawings(gm) {
		if d.Layer == "dm" {
			hiddenID = d.ID
		} else {
			shownID = d.ID
		}
	}
	if hiddenID == "" || shownID == "" {
		t.Fatalf("the GM map holds %+v: want one drawing on the GM layer and one for everyone", gmDrawings(gm))
	}
	gm.Idle()
	gmAfter := e2e.SaveScreenshot(t, gm, "gm-after")
	for _, y := range []float64{700, 840} {
		x, sy := gm.MapToScreen(490, y)
		was, _ := e2e.Pixel(gmBefore, x, sy)
		now, _ := e2e.Pixel(gmAfter, x, sy)
		if e2e.ColourDistance(was, now) < 40 {
			t.Errorf("the GM map does not draw the stroke at map y %g: %v then %v", y, was, now)
		}
	}

	player.WaitFor("the line for everyone", fmt.Sprintf(`window.companionDebug.state().marks.drawings.some(d => d.id === %q)`, shownID), 10*time.Second)
	player.Idle()
	if got := gmDrawings(player); len(got) != 1 {
		t.Fatalf("the player's page holds %+v, want the line alone", got)
	}
	for _, f := range player.ReceivedFrames() {
		if strings.Contains(f, hiddenID) {
			t.Fatalf("the player's page received the GM-layer stroke: %.300s", f)
		}
	}
}
