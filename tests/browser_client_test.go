package tests

// The player web client (issue 12) in real headless Chromium: the real
// binary serves the demo campaign ("The Drowned Chapel") and the tests read
// the page through its test hook, window.companionDebug (documented in
// web/client/README.md), and through the pixels of screenshots.

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
)

// demoGrid is the demo map's grid size: 1400x980, the west nave holds
// the party.
const demoGrid = 70.0

// TestPlayerClientPagesDrawTheMap opens two players (desktop and phone), a
// player display on a TV and the host console at once, and checks that
// each page has the map image, the grid and the tokens: in the hook's
// state and in real pixels (the grid is made magenta here so that it
// cannot be confused with the lines painted in the map image).
func TestPlayerClientPagesDrawTheMap(t *testing.T) {
	t.Parallel()
	sys := demoSystem(t, func(maps []map[string]any, screen map[string]any) {
		maps[0]["gridColor"] = "#ff00ff"
		maps[0]["gridOpacity"] = 1.0
	})
	srv := StartServer(t, ServerOptions{Args: []string{"--system", sys}})
	var snap struct {
		Map struct {
			ID       string  `json:"id"`
			Name     string  `json:"name"`
			Width    float64 `json:"width"`
			Height   float64 `json:"height"`
			GridSize float64 `json:"gridSize"`
			GridType string  `json:"gridType"`
			Tokens   []struct {
				ID string  `json:"id"`
				X  float64 `json:"x"`
				Y  float64 `json:"y"`
			} `json:"tokens"`
		} `json:"map"`
	}
	hostGetJSON(t, srv.URL+"/api", &snap)
	if len(snap.Map.Tokens) == 0 {
		t.Fatalf("GET /api has no map with tokens: %+v", snap)
	}

	playerA := startPlayer(t, srv, "Player A", desktopSize, "")
	playerB := startPlayer(t, srv, "Player B", phoneSize, "")
	display := startPlayer(t, srv, "Display", tvSize, "?display=1")
	for _, p := range []*browserPage{playerA, playerB, display} {
		finishPlayer(t, p)
	}
	host := newPage(t, "host console", desktopSize)
	host.navigate(srv.HostURL + "/host/")

	for _, p := range []*browserPage{playerA, playerB, display} {
		s := p.state()
		m := s.Map
		if m.ID != snap.Map.ID || m.Name != snap.Map.Name || m.Width != snap.Map.Width || m.Height != snap.Map.Height ||
			m.GridSize != snap.Map.GridSize || m.GridType != snap.Map.GridType {
			t.Errorf("page %s map = %+v, want the one GET /api has: %+v", p.name, *m, snap.Map)
		}
		if len(s.Tokens) != len(snap.Map.Tokens) {
			t.Errorf("page %s draws %d tokens, GET /api has %d", p.name, len(s.Tokens), len(snap.Map.Tokens))
		}
		for _, want := range snap.Map.Tokens {
			got := s.token(want.ID)
			if got == nil {
				t.Errorf("page %s lacks token %s", p.name, want.ID)
				continue
			}
			if got.X != want.X || got.Y != want.Y || got.DrawnX != want.X || got.DrawnY != want.Y {
				t.Errorf("page %s token %s at %v,%v drawn at %v,%v; GET /api has %v,%v", p.name, got.Name, got.X, got.Y, got.DrawnX, got.DrawnY, want.X, want.Y)
			}
		}
		// Polygons arrive with lineOfSightUpdated (or, after issue 17,
		// with the tokens); the door test checks them.
		if !s.Vision.LineOfSight {
			t.Errorf("page %s vision = %+v: the demo map has line of sight on", p.name, s.Vision)
		}
		if s.LastError != nil {
			t.Errorf("page %s reports an error: %s", p.name, *s.LastError)
		}
	}
	if s := display.state(); s.RunMode != "display" {
		t.Errorf("?display=1 page runs as %q, want display", s.RunMode)
	}
	if s := playerA.state(); s.RunMode != "normal" {
		t.Errorf("player page runs as %q, want normal", s.RunMode)
	}

	// The server registered the three pages with the names they joined as.
	clients := waitAPI(t, srv.HostURL+"/host/api/clients", "three clients", func(cs []struct{ Name, RunMode string }) bool {
		names := map[string]string{}
		for _, c := range cs {
			names[c.Name] = c.RunMode
		}
		return names["Player A"] == "normal" && names["Player B"] == "normal" && len(cs) == 3
	})
	host.openConsoleTab("seats") // the connected clients' card
	host.waitFor("the players in the host console", `document.body.innerText.includes("Player A") && document.body.innerText.includes("Player B")`, 10*time.Second)
	t.Logf("clients: %+v", clients)

	// No page scrolls, phone and TV included.
	for _, p := range []*browserPage{playerA, playerB, display} {
		noOverflow(t, p)
	}

	playerA.idle()
	shot := saveScreenshot(t, playerA, "player-a")
	saveScreenshot(t, playerB, "player-b-phone")
	saveScreenshot(t, display, "display-tv")
	saveScreenshot(t, host, "host-console")

	checkTokenPixels(t, playerA, shot)
	checkGridPixels(t, playerA, shot)
	checkMapImagePixels(t, playerA, shot)
}

// checkTokenPixels: each visible token's centre differs in colour from
// the floor around it (0.8 cell away, outside its 1-cell footprint), in
// most directions (a neighbour may stand in one).
func checkTokenPixels(t *testing.T, p *browserPage, shot image.Image) {
	t.Helper()
	checked := 0
	for _, tok := range p.state().Tokens {
		if !tok.Visible {
			continue
		}
		cx, cy := p.mapToScreen(tok.X, tok.Y)
		centre, ok := pixel(shot, cx, cy)
		if !ok || !p.canvasAt(cx, cy) {
			continue
		}
		differs := 0
		var around []color.RGBA
		for _, d := range [][2]float64{{0.8, 0}, {-0.8, 0}, {0, 0.8}, {0, -0.8}} {
			x, y := p.mapToScreen(tok.X+d[0]*demoGrid*tok.Width, tok.Y+d[1]*demoGrid*tok.Height)
			c, ok := pixel(shot, x, y)
			if !ok || !p.canvasAt(x, y) {
				continue
			}
			around = append(around, c)
			if colourDistance(centre, c) > 40 {
				differs++
			}
		}
		if len(around) < 3 {
			continue // mostly under a panel
		}
		if differs < len(around)-1 {
			t.Errorf("token %s (%s) at screen %.0f,%.0f: centre %v looks like the floor around it %v", tok.Name, tok.Label, cx, cy, centre, around)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no token is visible on the page")
	}
}

// checkGridPixels: on the grid lines (made magenta) the pixels are
// magenta; in the middle of the cells (a grey floor) they are not. Only
// points the player can see count.
func checkGridPixels(t *testing.T, p *browserPage, shot image.Image) {
	t.Helper()
	magenta := func(c color.RGBA) bool { return int(c.R)-int(c.G) > 25 && int(c.B)-int(c.G) > 25 }
	var onLine, onLineMagenta, inCell, inCellMagenta int
	for col := 2; col <= 9; col++ {
		for row := 2; row <= 12; row++ {
			lineX, y := float64(col)*demoGrid, float64(row)*demoGrid+demoGrid/2
			if !p.visibleAt(lineX, y) || !p.visibleAt(lineX+demoGrid/2, y) {
				continue
			}
			sx, sy := p.mapToScreen(lineX, y)
			cx, cy := p.mapToScreen(lineX+demoGrid/2, y+demoGrid/4)
			if !p.canvasAt(sx, sy) || !p.canvasAt(cx, cy) {
				continue
			}
			// The line may be anti-aliased over two pixels: any pixel of
			// the three around it counts.
			found := false
			for dx := -1.0; dx <= 1; dx++ {
				if c, ok := pixel(shot, sx+dx, sy); ok && magenta(c) {
					found = true
				}
			}
			onLine++
			if found {
				onLineMagenta++
			}
			if c, ok := pixel(shot, cx, cy); ok {
				inCell++
				if magenta(c) {
					inCellMagenta++
				}
			}
		}
	}
	if onLine < 10 {
		t.Fatalf("only %d visible grid line points to check", onLine)
	}
	if onLineMagenta*10 < onLine*8 || inCellMagenta*10 > inCell {
		t.Errorf("grid drawn at %d of %d visible points on grid lines and at %d of %d points inside cells; want nearly all and nearly none",
			onLineMagenta, onLine, inCellMagenta, inCell)
	}
}

// checkMapImagePixels: the map image is a checkerboard of lighter and
// darker floor tiles. Between neighbouring visible cells the page's
// pixels must get lighter or darker as the image's do (lighting changes
// slowly across the map, the checkerboard flips every cell), so the image
// is drawn, and where it belongs.
func checkMapImagePixels(t *testing.T, p *browserPage, shot image.Image) {
	t.Helper()
	src := decodePNGFile(t, "../examples/dnd5e/sample/campaign/maps/drowned-chapel.png")
	occupied := map[[2]int]bool{}
	for _, tok := range p.state().Tokens {
		occupied[[2]int{int(tok.X / demoGrid), int(tok.Y / demoGrid)}] = true
	}
	type sample struct{ src, page float64 }
	cell := func(col, row int) (sample, bool) {
		if occupied[[2]int{col, row}] {
			return sample{}, false
		}
		x, y := float64(col)*demoGrid+demoGrid/2, float64(row)*demoGrid+demoGrid/2
		if !p.visibleAt(x, y) {
			return sample{}, false
		}
		sx, sy := p.mapToScreen(x, y)
		c, ok := pixel(shot, sx, sy)
		if !ok || !p.canvasAt(sx, sy) {
			return sample{}, false
		}
		s, _ := pixel(src, x, y)
		return sample{luminance(s), luminance(c)}, true
	}
	var pairs, agree int
	for row := 1; row < 13; row++ {
		for col := 1; col < 18; col++ {
			a, okA := cell(col, row)
			b, okB := cell(col+1, row)
			if !okA || !okB || math.Abs(b.src-a.src) < 4 {
				continue
			}
			pairs++
			if (b.src > a.src) == (b.page > a.page) && math.Abs(b.page-a.page) >= 1 {
				agree++
			}
		}
	}
	if pairs < 10 {
		t.Fatalf("only %d pairs of visible neighbouring cells to compare with the map image", pairs)
	}
	if agree*10 < pairs*8 {
		t.Errorf("the page's floor follows the map image's checkerboard in %d of %d neighbouring cells; want at least 80%%", agree, pairs)
	}
}

func decodePNGFile(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// dragInPage drags with real mouse events from map point (fromX, fromY) to
// (toX, toY) in steps of a few pixels, paced like a hand (about 60 moves a
// second), calling during(i) after move i (nil: nothing) while the button
// is still down.
func dragInPage(t *testing.T, p *browserPage, fromX, fromY, toX, toY float64, steps int, during func(i int)) {
	t.Helper()
	ax, ay := p.mapToScreen(fromX, fromY)
	bx, by := p.mapToScreen(toX, toY)
	p.mouse(input.DispatchMouseEventTypeMouseMoved, ax, ay, 0)
	p.mouse(input.DispatchMouseEventTypeMousePressed, ax, ay, 1)
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		p.mouse(input.DispatchMouseEventTypeMouseMoved, ax+(bx-ax)*f, ay+(by-ay)*f, 1)
		time.Sleep(16 * time.Millisecond) // input pacing, not a wait for a result
		if during != nil {
			during(i)
		}
	}
	p.mouse(input.DispatchMouseEventTypeMouseReleased, bx, by, 0)
}

// checkDragStream: the page sent the drag as the contract's stream:
// start, control at most 30 a second, then end on a cell centre.
func checkDragStream(t *testing.T, sent []sentFrame, id string) {
	t.Helper()
	var states []string
	var controls []float64
	for _, f := range sent {
		var env struct {
			Name string
			Data struct {
				ID    string
				X, Y  float64
				State string
			}
		}
		if json.Unmarshal([]byte(f.Text), &env) != nil || env.Name != "tokenMoved" || env.Data.ID != id {
			continue
		}
		states = append(states, env.Data.State)
		switch env.Data.State {
		case "control":
			controls = append(controls, f.At)
		case "end":
			if math.Mod(env.Data.X-demoGrid/2, demoGrid) != 0 || math.Mod(env.Data.Y-demoGrid/2, demoGrid) != 0 {
				t.Errorf("the drag ended at %v,%v, not on a cell centre", env.Data.X, env.Data.Y)
			}
		}
	}
	joined := strings.Join(states, " ")
	if len(states) < 3 || states[0] != "start" || states[len(states)-1] != "end" || !strings.Contains(joined, "control") {
		t.Errorf("the page sent the drag as %q, want start, control..., end", joined)
	}
	// At most 30 a second: consecutive controls are 1/30 s apart (less
	// a few ms of timer and network-layer jitter).
	for i := 1; i < len(controls); i++ {
		if gap := controls[i] - controls[i-1]; gap < 0.025 {
			t.Errorf("control messages %d and %d were sent %.1f ms apart, more often than 30 a second", i-1, i, gap*1000)
			break
		}
	}
}

// uncoveredToken returns the first of the tokens whose place and the
// cells up to cells east of it are drawn on the map canvas, not under one
// of the page's panels, so that real pointer events reach it.
func uncoveredToken(t *testing.T, p *browserPage, cells float64, ids ...string) (string, float64, float64) {
	t.Helper()
	s := p.state()
	for _, id := range ids {
		tok := s.token(id)
		if tok == nil {
			continue
		}
		var open bool
		p.evalInto(fmt.Sprintf(`(() => {
			const d = window.companionDebug;
			for (let dx = 0; dx <= %g; dx += 10) {
				const s = d.mapToScreen(%g + dx, %g);
				const e = document.elementFromPoint(s.x, s.y);
				if (!e || e.tagName !== "CANVAS") return false;
			}
			return true;
		})()`, cells*demoGrid, tok.X, tok.Y), &open)
		if open {
			return id, tok.X, tok.Y
		}
	}
	saveScreenshot(t, p, "covered-tokens")
	t.Fatalf("page %s covers every one of the tokens %v with something other than the map canvas", p.name, ids)
	return "", 0, 0
}

// dragFrames lists the tokenMoved frames page a sent and page b
// received, to tell a drag that never left A from one B did not draw.
func dragFrames(a, b *browserPage) string {
	var out []string
	for _, f := range a.sentFrames() {
		if strings.Contains(f.Text, "tokenMoved") {
			out = append(out, "A sent     "+f.Text)
		}
	}
	for _, f := range b.receivedFrames() {
		if strings.Contains(f, "tokenMoved") {
			out = append(out, "B received "+f)
		}
	}
	return strings.Join(out, "\n")
}

func near(a, b float64) bool { return math.Abs(a-b) < 0.5 }

// TestPlayerClientDragMovesTheTokenElsewhere drags a token in page A and
// watches page B follow during the drag; the move commits on release,
// snapped to the cell. With remote interaction off the token snaps back
// in A and never moves in B.
func TestPlayerClientDragMovesTheTokenElsewhere(t *testing.T) {
	t.Parallel()
	srv := StartServer(t, ServerOptions{})
	// The map alone, small: this test reads the pages' state and frames.
	a := startPlayer(t, srv, "Player A", mapOnlySize, "", wireRecorder, panelsClosed)
	b := startPlayer(t, srv, "Player B", mapOnlySize, "", panelsClosed)
	finishPlayer(t, a)
	finishPlayer(t, b)
	// A party token the page's panels do not cover, with room to go five
	// cells east on the open map.
	tokID, fromX, fromY := uncoveredToken(t, a, 5, demoBrannocID, demoIlsaID, demoQuillID)
	if tok := b.state().token(tokID); tok == nil || !near(tok.X, fromX) || !near(tok.Y, fromY) {
		t.Fatalf("page B has the token at %+v, want %v,%v", tok, fromX, fromY)
	}
	if s := a.state(); s.Interaction == "none" || s.Paused {
		t.Fatalf("page A may not drag: interaction %q, paused %v", s.Interaction, s.Paused)
	}

	// Three cells east, released a few pixels off the cell's centre.
	targetX, targetY := fromX+3*demoGrid, fromY
	saveScreenshot(t, a, "player-a-before-drag")
	start := time.Now()
	followedExpr := fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
		return t && t.drawnX > %g; })()`, tokID, fromX+demoGrid)
	followed := false
	const steps = 8
	dragInPage(t, a, fromX, fromY, targetX-6, targetY+4, steps, func(i int) {
		// Past a third of the way, button still down: B draws the token
		// away from where it started. The last step waits for it (less
		// than the server's idle time for a drag).
		if followed || i < steps/3 {
			return
		}
		timeout := time.Duration(0)
		if i == steps {
			timeout = 8 * time.Second
		}
		followed = b.poll(followedExpr, timeout)
	})
	t.Logf("drag took %v", time.Since(start))
	if !followed {
		var hit any
		sx, sy := a.mapToScreen(fromX, fromY)
		a.evalInto(fmt.Sprintf(`(() => { const e = document.elementFromPoint(%g, %g); return e ? e.outerHTML.slice(0, 200) : null; })()`, sx, sy), &hit)
		t.Logf("page A's element under the token: %v", hit)
		t.Errorf("page B did not draw the token moving during the drag in page A (still at %+v); A drew it at %+v\n%s",
			b.state().token(tokID), a.state().token(tokID), dragFrames(a, b))
	}
	committed := waitAPI(t, srv.URL+"/api/tokens/"+tokID, "the drag to commit", func(tok struct{ X, Y float64 }) bool {
		return near(tok.X, targetX) && near(tok.Y, targetY)
	})
	t.Logf("committed at %v,%v", committed.X, committed.Y)
	for _, p := range []*browserPage{a, b} {
		p.waitFor("the token to rest on its new cell", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
			return t && Math.abs(t.x - %g) < 0.5 && Math.abs(t.drawnX - %g) < 0.5 && Math.abs(t.drawnY - %g) < 0.5; })()`,
			tokID, targetX, targetX, targetY), 10*time.Second)
	}
	saveScreenshot(t, a, "player-a-after-drag")
	saveScreenshot(t, b, "player-b-after-drag")
	checkDragStream(t, a.sentFrames(), tokID)

	// Escape abandons a drag: the token goes back in both pages and
	// nothing is committed.
	ax, ay := a.mapToScreen(targetX, targetY)
	a.mouse(input.DispatchMouseEventTypeMouseMoved, ax, ay, 0)
	a.mouse(input.DispatchMouseEventTypeMousePressed, ax, ay, 1)
	for i := 1; i <= 3; i++ {
		a.mouse(input.DispatchMouseEventTypeMouseMoved, ax+float64(i)*15, ay, 1)
	}
	a.key("Escape")
	a.mouse(input.DispatchMouseEventTypeMouseReleased, ax+45, ay, 0)
	for _, p := range []*browserPage{a, b} {
		p.waitFor("the cancelled drag to put the token back", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
			return t && Math.abs(t.x - %g) < 0.5 && Math.abs(t.drawnX - %g) < 0.5; })()`, tokID, targetX, targetX), 10*time.Second)
	}
	cancelled := false
	for _, f := range a.sentFrames() {
		cancelled = cancelled || strings.Contains(f.Text, `"state":"cancel"`)
	}
	if !cancelled {
		t.Error("Escape did not send tokenMoved cancel")
	}
	var afterCancel struct{ X, Y float64 }
	hostGetJSON(t, srv.URL+"/api/tokens/"+tokID, &afterCancel)
	if !near(afterCancel.X, targetX) {
		t.Errorf("a cancelled drag moved the token to %v,%v", afterCancel.X, afterCancel.Y)
	}

	// The host vetoes a drag in progress: the token glides back in both
	// pages while the button is still down, and nothing is committed.
	ax, ay = a.mapToScreen(targetX, targetY)
	a.mouse(input.DispatchMouseEventTypeMouseMoved, ax, ay, 0)
	a.mouse(input.DispatchMouseEventTypeMousePressed, ax, ay, 1)
	for i := 1; i <= 3; i++ {
		a.mouse(input.DispatchMouseEventTypeMouseMoved, ax+float64(i)*20, ay, 1)
	}
	// Page B drawing the drag means the server has it (page A drawing it
	// did not: under load the veto could overtake the drag's start).
	b.waitFor("the drag to reach the server", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.drawnX > %g)`, tokID, targetX+20), 10*time.Second)
	var veto struct{ Blocked bool }
	if code := httpJSON(t, http.MethodPost, srv.HostURL+"/host/api/drags/"+tokID+"/block", "", &veto); code != 200 || !veto.Blocked {
		t.Fatalf("host veto: %d %+v", code, veto)
	}
	for _, p := range []*browserPage{a, b} {
		p.waitFor("the vetoed token back on its cell", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
			return t && Math.abs(t.x - %g) < 0.5 && Math.abs(t.drawnX - %g) < 0.5; })()`, tokID, targetX, targetX), 10*time.Second)
	}
	a.mouse(input.DispatchMouseEventTypeMouseReleased, ax+60, ay, 0)
	a.idle()
	// The veto ended the drag: once page A has the block, neither a
	// control still due nor releasing the button may send it on (an end
	// would commit the refused move). A control sent before the block
	// reached the page is no fault, however late the test hears of it.
	var wire []wireMessage
	a.evalInto(`window.__wire`, &wire)
	blocked := false
	for _, m := range wire {
		var env struct {
			Name string
			Data struct {
				ID    string
				State any
			}
		}
		if json.Unmarshal([]byte(m.Data), &env) != nil || env.Name != "tokenMoved" || env.Data.ID != tokID {
			continue
		}
		state := fmt.Sprint(env.Data.State)
		switch {
		case !m.Sent && (state == "block" || state == "3"):
			blocked = true
		case m.Sent && blocked && (state == "end" || state == "control"):
			t.Errorf("page A went on with a vetoed drag: %s", m.Data)
		}
	}
	if !blocked {
		t.Errorf("page A never received the veto (tokenMoved block); it saw:\n%v", wire)
	}
	var afterVeto struct{ X, Y float64 }
	hostGetJSON(t, srv.URL+"/api/tokens/"+tokID, &afterVeto)
	if !near(afterVeto.X, targetX) {
		t.Errorf("a vetoed drag moved the token to %v,%v", afterVeto.X, afterVeto.Y)
	}

	// Remote interaction off: the drag is refused.
	if code := httpJSON(t, http.MethodPatch, srv.HostURL+"/host/api/settings", `{"remoteInteraction": false}`, nil); code != 200 {
		t.Fatalf("PATCH /host/api/settings: %d", code)
	}
	for _, p := range []*browserPage{a, b} {
		p.waitFor("interaction none", `window.companionDebug.state().interaction === "none"`, 10*time.Second)
	}
	var bMoved []string
	dragInPage(t, a, targetX, targetY, targetX+2*demoGrid, targetY, 6, func(i int) {
		if tok := b.state().token(tokID); tok == nil || !near(tok.DrawnX, targetX) || !near(tok.DrawnY, targetY) {
			bMoved = append(bMoved, fmt.Sprintf("step %d: %+v", i, tok))
		}
	})
	a.waitFor("the token to snap back in A", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
		return t && Math.abs(t.x - %g) < 0.5 && Math.abs(t.drawnX - %g) < 0.5 && Math.abs(t.drawnY - %g) < 0.5; })()`,
		tokID, targetX, targetX, targetY), 10*time.Second)
	b.idle()
	if tok := b.state().token(tokID); tok == nil || !near(tok.DrawnX, targetX) || !near(tok.X, targetX) {
		bMoved = append(bMoved, fmt.Sprintf("after: %+v", tok))
	}
	if len(bMoved) > 0 {
		t.Errorf("with remote interaction off, page B moved the token:\n%s", strings.Join(bMoved, "\n"))
	}
	var stored struct{ X, Y float64 }
	hostGetJSON(t, srv.URL+"/api/tokens/"+tokID, &stored)
	if !near(stored.X, targetX) || !near(stored.Y, targetY) {
		t.Errorf("with remote interaction off the drag committed: token at %v,%v", stored.X, stored.Y)
	}
	saveScreenshot(t, a, "player-a-refused-drag")
}

// TestPlayerClientNeverReceivesHiddenTokens: a token hidden in the campaign
// and one hidden during the game never reach either player page: not in
// the page's state, not in GET /api, not in a WebSocket frame (except as
// {id, hidden: true}, which means "remove it").
func TestPlayerClientNeverReceivesHiddenTokens(t *testing.T) {
	t.Parallel()
	var knightVision string
	sys := demoSystem(t, func(maps []map[string]any, screen map[string]any) {
		for _, tok := range mapTokens(maps[0]) {
			if tok["id"] == demoKnightID {
				tok["hidden"] = true
				knightVision = tok["vision"].(map[string]any)["id"].(string)
			}
		}
	})
	srv := StartServer(t, ServerOptions{Args: []string{"--system", sys}})
	a := startPlayer(t, srv, "Player A", desktopSize, "")
	b := startPlayer(t, srv, "Player B", phoneSize, "")
	finishPlayer(t, a)
	finishPlayer(t, b)
	if a.state().token(demoHoundID) == nil {
		t.Fatal("the visible hound is not on page A")
	}
	framesBefore := map[*browserPage]int{a: len(a.receivedFrames()), b: len(b.receivedFrames())}

	// Hide the hound during the game, then move both hidden tokens and a
	// visible one last: once the visible move shows, the others were sent.
	// Hiding is the game master's: through the host console's API (a
	// player's write cannot change hidden).
	if code := httpJSON(t, http.MethodPatch, srv.HostURL+"/host/api/tokens/"+demoHoundID, `{"hidden": true}`, nil); code != 200 {
		t.Fatalf("PATCH hide the hound: %d", code)
	}
	for _, p := range []*browserPage{a, b} {
		p.waitFor("the hidden hound to go", fmt.Sprintf(`!window.companionDebug.state().tokens.some(t => t.id === %q)`, demoHoundID), 10*time.Second)
	}
	for _, id := range []string{demoHoundID, demoKnightID} {
		if code := httpJSON(t, http.MethodPatch, srv.HostURL+"/host/api/tokens/"+id, `{"x": 1225, "y": 805}`, nil); code != 200 {
			t.Fatalf("PATCH move hidden token: %d", code)
		}
	}
	if code := httpJSON(t, http.MethodPatch, srv.URL+"/api/tokens/"+demoIlsaID, `{"x": 385, "y": 455}`, nil); code != 200 {
		t.Fatalf("PATCH move Ilsa: %d", code)
	}
	for _, p := range []*browserPage{a, b} {
		p.waitFor("the visible move", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q); return t && t.x === 385; })()`, demoIlsaID), 10*time.Second)
		p.idle()
		s := p.state()
		for _, id := range []string{demoKnightID, demoHoundID} {
			if s.token(id) != nil {
				t.Errorf("page %s has hidden token %s: %+v", p.name, id, s.token(id))
			}
		}
		frames := p.receivedFrames()
		if len(frames) == 0 {
			t.Fatalf("page %s received no WebSocket frame (CDP Network events)", p.name)
		}
		fetched := p.fetchedAPI()
		if len(fetched) == 0 {
			t.Errorf("page %s fetched no /api document", p.name)
		}
		for _, leak := range hiddenTokenLeaks(append(fetched, frames...), demoKnightID, knightVision) {
			t.Errorf("page %s received the hidden knight: %s", p.name, leak)
		}
		for _, leak := range hiddenTokenLeaks(frames[framesBefore[p]:], demoHoundID) {
			t.Errorf("page %s received the hound after it was hidden: %s", p.name, leak)
		}
	}
	saveScreenshot(t, a, "player-a")
	saveScreenshot(t, b, "player-b-phone")
}

// TestPlayerClientDoorChangesWhatPlayersSee: the party stands in the west
// nave; the sanctum behind the closed door is out of sight. A player opens
// the door by clicking it: the point behind it becomes visible, in the
// hook and in the pixels, and a corner the door does not face stays dark.
// The monsters' own vision is switched off so only the party's counts.
func TestPlayerClientDoorChangesWhatPlayersSee(t *testing.T) {
	t.Parallel()
	sys := demoSystem(t, func(maps []map[string]any, screen map[string]any) {
		for _, tok := range mapTokens(maps[0]) {
			if tok["id"] == demoKnightID || tok["id"] == demoHoundID {
				tok["vision"].(map[string]any)["enabled"] = false
			}
		}
	})
	srv := StartServer(t, ServerOptions{Args: []string{"--system", sys}})
	p := openPlayer(t, srv, "Player A", desktopSize, "")

	const behindX, behindY = 770.0, 490.0  // just east of the door, in line with Brannoc
	const cornerX, cornerY = 1260.0, 840.0 // the sanctum's far corner: the door does not face it
	const naveX, naveY = 420.0, 700.0      // the party's own room
	var door struct{ X, Y float64 }
	found := false
	for _, d := range p.state().Doors {
		if d.ID == demoDoorID {
			if d.State != "closed" {
				t.Fatalf("the door is %q, want closed", d.State)
			}
			door.X, door.Y, found = d.X, d.Y, true
		}
	}
	if !found {
		t.Fatalf("the page lists no door %s: %+v", demoDoorID, p.state().Doors)
	}
	if !p.visibleAt(naveX, naveY) {
		t.Fatal("the party's own room is not visible")
	}
	if p.visibleAt(behindX, behindY) || p.visibleAt(cornerX, cornerY) {
		t.Fatal("the sanctum is visible through the closed door")
	}
	before := saveScreenshot(t, p, "door-closed")
	bx, by := p.mapToScreen(behindX, behindY)
	closedPixel, _ := pixel(before, bx, by)

	// Click the door, as a player would.
	dx, dy := p.mapToScreen(door.X, door.Y)
	if !p.canvasAt(dx, dy) {
		t.Fatalf("the door at screen %.0f,%.0f is under one of the page's panels", dx, dy)
	}
	p.mouse(input.DispatchMouseEventTypeMouseMoved, dx, dy, 0)
	p.mouse(input.DispatchMouseEventTypeMousePressed, dx, dy, 1)
	p.mouse(input.DispatchMouseEventTypeMouseReleased, dx, dy, 0)
	p.waitFor("the door to open", fmt.Sprintf(`window.companionDebug.state().doors.some(d => d.id === %q && d.state === "open")`, demoDoorID), 10*time.Second)
	p.waitFor("the point behind the door to become visible", fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g)`, behindX, behindY), 10*time.Second)
	p.idle()
	if s := p.state(); s.Vision.Polygons == 0 {
		t.Errorf("after the door opened the page holds no server vision polygon: %+v", s.Vision)
	}
	if p.visibleAt(cornerX, cornerY) {
		t.Error("the sanctum's far corner became visible through the door, which does not face it")
	}
	after := saveScreenshot(t, p, "door-open")
	bx, by = p.mapToScreen(behindX, behindY)
	openPixel, _ := pixel(after, bx, by)
	if colourDistance(closedPixel, openPixel) < 30 {
		t.Errorf("the pixel behind the door did not change when it opened: %v then %v", closedPixel, openPixel)
	}
	waitAPI(t, srv.URL+"/api", "the door stored open", func(snap struct {
		Map struct{ Walls []struct{ ID, Door string } }
	}) bool {
		for _, w := range snap.Map.Walls {
			if w.ID == demoDoorID {
				return w.Door == "open"
			}
		}
		return false
	})
}

// TestPlayerClientFogHides: on the same map without line of sight, a point
// of the floor is visible with fog of war off and hidden with it on (no
// area revealed), in the hook and in the pixels.
func TestPlayerClientFogHides(t *testing.T) {
	t.Parallel()
	const x, y = 455.0, 735.0
	// The two servers and their pages load side by side.
	pages := map[bool]*browserPage{}
	for _, fog := range []bool{false, true} {
		sys := demoSystem(t, func(maps []map[string]any, screen map[string]any) {
			maps[0]["lineOfSight"] = false
			maps[0]["fogOfWar"] = fog
			maps[0]["fogExploration"] = false
			screen["fog"] = fog
		})
		srv := StartServer(t, ServerOptions{Args: []string{"--system", sys}})
		pages[fog] = startPlayer(t, srv, fmt.Sprintf("Player fog=%v", fog), desktopSize, "")
	}
	seen := map[bool]color.RGBA{}
	for _, fog := range []bool{false, true} {
		p := pages[fog]
		finishPlayer(t, p)
		s := p.state()
		if s.Vision.Fog != fog {
			t.Errorf("fog %v: the page reports fog %v", fog, s.Vision.Fog)
		}
		if visible := p.visibleAt(x, y); visible == fog {
			t.Errorf("fog %v: isVisibleAt(%v, %v) = %v", fog, x, y, visible)
		}
		shot := saveScreenshot(t, p, fmt.Sprintf("fog-%v", fog))
		sx, sy := p.mapToScreen(x, y)
		seen[fog], _ = pixel(shot, sx, sy)
	}
	if colourDistance(seen[false], seen[true]) < 30 {
		t.Errorf("the floor looks the same with fog (%v) and without (%v)", seen[true], seen[false])
	}
}

// TestPlayerClientSurvivesServerRestart stops the server mid-game, changes
// the game while the page cannot hear (another server on the same data
// folder), and starts the server again where it was: the page reconnects
// by itself and shows the change.
func TestPlayerClientSurvivesServerRestart(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	first := StartServer(t, ServerOptions{DataDir: dataDir})
	addr, hostAddr := strings.TrimPrefix(first.URL, "http://"), strings.TrimPrefix(first.HostURL, "http://")
	p := openPlayer(t, first, "Player A", desktopSize, "")

	first.Stop(t)
	p.waitFor("the page to notice the server is gone", `window.companionDebug.state().connection !== "open"`, 15*time.Second)
	saveScreenshot(t, p, "server-down")

	meanwhile := StartServer(t, ServerOptions{DataDir: dataDir})
	if code := httpJSON(t, http.MethodPatch, meanwhile.URL+"/api/tokens/"+demoBrannocID, `{"x": 595, "y": 805}`, nil); code != 200 {
		t.Fatalf("PATCH while the page's server is down: %d", code)
	}
	meanwhile.Stop(t)

	again := StartServer(t, ServerOptions{DataDir: dataDir, Addr: addr, HostAddr: hostAddr})
	p.waitFor("the page to reconnect", `window.companionDebug.state().connection === "open"`, 30*time.Second)
	p.waitFor("the change made while it was down", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
		return t && t.x === 595 && t.y === 805 && t.drawnX === 595 && t.drawnY === 805; })()`, demoBrannocID), 15*time.Second)
	p.idle()
	saveScreenshot(t, p, "reconnected")
	clients := waitAPI(t, again.HostURL+"/host/api/clients", "the page to register again", func(cs []struct{ Name string }) bool {
		return len(cs) == 1 && cs[0].Name == "Player A"
	})
	t.Logf("clients after the restart: %+v", clients)
}
