package player

import (
	"fmt"

	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"

	"github.com/vttapp/companion/tests/e2e"
)

// A battle map of 12,000 pixels a side, past what the browser's WebGL
// holds as one texture (Chromium here: 8,192): the player client draws it
// from the server's tiles. Zoomed in past 1:1, the 4-pixel checker the
// picture is made of shows on screen pixel for pixel, as the picture has
// it; drawn as one texture scaled down to fit (a third of its size) the
// checker would be grey mush. The picture itself is never downloaded,
// and the page holds a screenful of tiles, not the picture.
func TestPlayerClientDrawsABigMapFromTiles(t *testing.T) {
	t.Parallel()
	const side = 12000
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	_, image, width := e2e.ShownPictureMap(t, srv, "Great hall", e2e.BigMapPNG(side, false), 100)
	if width != side {
		t.Fatalf("the new map is %d wide, want %d", width, side)
	}
	// The server cuts the picture as soon as it becomes a map's; wait for
	// that here (a loaded machine takes a minute or more), not in the page.
	deadline := time.Now().Add(5 * time.Minute)
	for status, body := e2e.HttpGet(t, srv.URL+image+"?tiles"); status != 200; status, body = e2e.HttpGet(t, srv.URL+image+"?tiles") {
		if status != 503 || time.Now().After(deadline) {
			t.Fatalf("the tile index: %d %s", status, body)
		}
	}
	p := e2e.OpenPlayerWith(t, srv, "Zoomer", e2e.PanelsClosed)
	var limit float64
	p.EvalInto(`window.companionDebug.state().quality.maxTextureSize`, &limit)
	if limit >= side {
		t.Skipf("this browser holds textures of %v pixels: a %d-pixel map needs no tiles", limit, side)
	}
	tiles := func() (n int, levels []int) {
		var v struct {
			Tiles  int
			Levels []int
		}
		p.EvalInto(`window.companionDebug.state().map.backgroundTiles || {tiles: 0, levels: []}`, &v)
		return v.Tiles, v.Levels
	}
	p.WaitFor("the tiles of the whole map's view", `window.companionDebug.state().map.backgroundTiles.loading === 0`, 30*time.Second)
	n, levels := tiles()
	if n == 0 {
		t.Fatalf("the %d-pixel map is not drawn from tiles (the device's limit is %v)", side, limit)
	}
	t.Logf("the whole map in view (zoom %.3f): %d tiles drawn, levels %v", p.State().Viewport.Zoom, n, levels)

	// Zoom in with the wheel, over the middle of the map, past 1:1.
	size := e2e.DesktopSize
	cx, cy := float64(size.Width)/2, float64(size.Height)/2
	for i := 0; i < 120 && p.State().Viewport.Zoom < 1.3; i++ {
		p.Do(e2e.ChromedpCall(e2e.Wheel, e2e.WheelTurn{Type: input.DispatchMouseEventTypeMouseWheel, X: cx, Y: cy, DeltaY: -240}))
		time.Sleep(30 * time.Millisecond) // the wheel's easing
	}
	zoom := p.State().Viewport.Zoom
	if zoom < 1 {
		t.Fatalf("120 wheel turns left the zoom at %v", zoom)
	}
	p.WaitFor("the finest tiles in view, all loaded", `(() => { const t = window.companionDebug.state().map.backgroundTiles; return t && t.levels.includes(0) && t.loading === 0; })()`, 30*time.Second)
	p.Idle()
	shot := e2e.SaveScreenshot(t, p, "zoomed-in")
	n, levels = tiles()

	// Every screen pixel whose picture pixel is inside a checker cell (not
	// on its edge, where the screen blends two cells) has the cell's blue.
	var checked, wrong int
	var first string
	for sy := 100; sy < int(size.Height)-100; sy += 23 {
		for sx := 100; sx < int(size.Width)-100; sx += 29 {
			var pt struct{ X, Y float64 }
			p.EvalInto(fmt.Sprintf(`window.companionDebug.screenToMap(%d, %d)`, sx, sy), &pt)
			fx, fy := pt.X-float64(int(pt.X)/4*4), pt.Y-float64(int(pt.Y)/4*4)
			if fx < 1 || fx > 3 || fy < 1 || fy > 3 || pt.X < 0 || pt.Y < 0 || pt.X >= side || pt.Y >= side {
				continue
			}
			c, ok := e2e.Pixel(shot, float64(sx), float64(sy))
			if !ok {
				continue
			}
			want := e2e.BigMapBlue(int(pt.X), int(pt.Y))
			checked++
			if d := int(c.B) - int(want); d > 48 || d < -48 {
				wrong++
				if first == "" {
					first = fmt.Sprintf("screen %d,%d (picture %.1f,%.1f) has blue %d, the picture %d", sx, sy, pt.X, pt.Y, c.B, want)
				}
			}
		}
	}
	t.Logf("zoom %.2f: %d tiles drawn (levels %v); %d pixels checked against the picture, %d wrong", zoom, n, levels, checked, wrong)
	if checked < 100 {
		t.Fatalf("only %d screen pixels fell inside checker cells", checked)
	}
	if wrong > checked/50 {
		t.Errorf("%d of %d pixels differ from the picture: the detail is lost (first: %s)", wrong, checked, first)
	}
	// A screenful of 512-pixel tiles (and the top level), not the picture.
	if n > 40 {
		t.Errorf("%d tiles held for one screen", n)
	}
	for _, req := range p.FinishedRequests() {
		if strings.HasSuffix(req.URL, image) {
			t.Errorf("the page downloaded the whole %d-pixel picture: %s", side, req.URL)
		}
	}
}
