package player

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/vttapp/companion/tests/e2e"
)

// TestPlayerClientPagesDrawTheMap opens two players (desktop and phone), a
// player display on a TV and the host console at once, and checks that
// each page has the map image, the grid and the tokens: in the hook's
// state and in real pixels (the grid is made magenta here so that it
// cannot be confused with the lines painted in the map image).
func TestPlayerClientPagesDrawTheMap(t *testing.T) {
	t.Parallel()
	sys := e2e.DemoSystem(t, func(maps []map[string]any, screen map[string]any) {
		maps[0]["gridColor"] = "#ff00ff"
		maps[0]["gridOpacity"] = 1.0
	})
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}})
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
	e2e.HostGetJSON(t, srv.URL+"/api", &snap)
	if len(snap.Map.Tokens) == 0 {
		t.Fatalf("GET /api has no map with tokens: %+v", snap)
	}

	playerA := e2e.StartPlayer(t, srv, "Player A", e2e.DesktopSize, "")
	playerB := e2e.StartPlayer(t, srv, "Player B", e2e.PhoneSize, "")
	display := e2e.StartPlayer(t, srv, "Display", e2e.TvSize, "?display=1")
	for _, p := range []*e2e.BrowserPage{playerA, playerB, display} {
		e2e.FinishPlayer(t, p)
	}
	host := e2e.NewPage(t, "host console", e2e.DesktopSize)
	host.Navigate(srv.HostURL + "/host/")

	for _, p := range []*e2e.BrowserPage{playerA, playerB, display} {
		s := p.State()
		m := s.Map
		if m.ID != snap.Map.ID || m.Name != snap.Map.Name || m.Width != snap.Map.Width || m.Height != snap.Map.Height ||
			m.GridSize != snap.Map.GridSize || m.GridType != snap.Map.GridType {
			t.Errorf("page %s map = %+v, want the one GET /api has: %+v", p.Name, *m, snap.Map)
		}
		if len(s.Tokens) != len(snap.Map.Tokens) {
			t.Errorf("page %s draws %d tokens, GET /api has %d", p.Name, len(s.Tokens), len(snap.Map.Tokens))
		}
		for _, want := range snap.Map.Tokens {
			got := s.Token(want.ID)
			if got == nil {
				t.Errorf("page %s lacks token %s", p.Name, want.ID)
				continue
			}
			if got.X != want.X || got.Y != want.Y || got.DrawnX != want.X || got.DrawnY != want.Y {
				t.Errorf("page %s token %s at %v,%v drawn at %v,%v; GET /api has %v,%v", p.Name, got.Name, got.X, got.Y, got.DrawnX, got.DrawnY, want.X, want.Y)
			}
		}
		// Polygons arrive with lineOfSightUpdated (or, after issue 17,
		// with the tokens); the door test checks them.
		if !s.Vision.LineOfSight {
			t.Errorf("page %s vision = %+v: the demo map has line of sight on", p.Name, s.Vision)
		}
		if s.LastError != nil {
			t.Errorf("page %s reports an error: %s", p.Name, *s.LastError)
		}
	}
	if s := display.State(); s.RunMode != "display" {
		t.Errorf("?display=1 page runs as %q, want display", s.RunMode)
	}
	if s := playerA.State(); s.RunMode != "normal" {
		t.Errorf("player page runs as %q, want normal", s.RunMode)
	}

	// The server registered the three pages with the names they joined as.
	clients := e2e.WaitAPI(t, srv.HostURL+"/host/api/clients", "three clients", func(cs []struct{ Name, RunMode string }) bool {
		names := map[string]string{}
		for _, c := range cs {
			names[c.Name] = c.RunMode
		}
		return names["Player A"] == "normal" && names["Player B"] == "normal" && len(cs) == 3
	})
	host.OpenConsoleTab("seats") // the connected clients' card
	host.WaitFor("the players in the host console", `document.body.innerText.includes("Player A") && document.body.innerText.includes("Player B")`, 10*time.Second)
	t.Logf("clients: %+v", clients)

	// No page scrolls, phone and TV included.
	for _, p := range []*e2e.BrowserPage{playerA, playerB, display} {
		e2e.NoOverflow(t, p)
	}

	playerA.Idle()
	shot := e2e.SaveScreenshot(t, playerA, "player-a")
	e2e.SaveScreenshot(t, playerB, "player-b-phone")
	e2e.SaveScreenshot(t, display, "display-tv")
	e2e.SaveScreenshot(t, host, "host-console")

	checkTokenPixels(t, playerA, shot)
	checkGridPixels(t, playerA, shot)
	e2e.CheckMapImagePixels(t, playerA, shot)
}

// checkTokenPixels: each visible token's centre differs in colour from
// the floor around it (0.8 cell away, outside its 1-cell footprint), in
// most directions (a neighbour may stand in one).
func checkTokenPixels(t *testing.T, p *e2e.BrowserPage, shot image.Image) {
	t.Helper()
	checked := 0
	for _, tok := range p.State().Tokens {
		if !tok.Visible {
			continue
		}
		cx, cy := p.MapToScreen(tok.X, tok.Y)
		centre, ok := e2e.Pixel(shot, cx, cy)
		if !ok || !p.CanvasAt(cx, cy) {
			continue
		}
		differs := 0
		var around []color.RGBA
		for _, d := range [][2]float64{{0.8, 0}, {-0.8, 0}, {0, 0.8}, {0, -0.8}} {
			x, y := p.MapToScreen(tok.X+d[0]*e2e.DemoGrid*tok.Width, tok.Y+d[1]*e2e.DemoGrid*tok.Height)
			c, ok := e2e.Pixel(shot, x, y)
			if !ok || !p.CanvasAt(x, y) {
				continue
			}
			around = append(around, c)
			if e2e.ColourDistance(centre, c) > 40 {
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
func checkGridPixels(t *testing.T, p *e2e.BrowserPage, shot image.Image) {
	t.Helper()
	magenta := func(c color.RGBA) bool { return int(c.R)-int(c.G) > 25 && int(c.B)-int(c.G) > 25 }
	var onLine, onLineMagenta, inCell, inCellMagenta int
	for col := 2; col <= 9; col++ {
		for row := 2; row <= 12; row++ {
			lineX, y := float64(col)*e2e.DemoGrid, float64(row)*e2e.DemoGrid+e2e.DemoGrid/2
			if !p.VisibleAt(lineX, y) || !p.VisibleAt(lineX+e2e.DemoGrid/2, y) {
				continue
			}
			sx, sy := p.MapToScreen(lineX, y)
			cx, cy := p.MapToScreen(lineX+e2e.DemoGrid/2, y+e2e.DemoGrid/4)
			if !p.CanvasAt(sx, sy) || !p.CanvasAt(cx, cy) {
				continue
			}
			// The line may be anti-aliased over two pixels: any pixel of
			// the three around it counts.
			found := false
			for dx := -1.0; dx <= 1; dx++ {
				if c, ok := e2e.Pixel(shot, sx+dx, sy); ok && magenta(c) {
					found = true
				}
			}
			onLine++
			if found {
				onLineMagenta++
			}
			if c, ok := e2e.Pixel(shot, cx, cy); ok {
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

// checkDragStream: the page sent the drag as the contract's stream:
// start, control at most 30 a second, then end on a cell centre.
func checkDragStream(t *testing.T, sent []e2e.SentFrame, id string) {
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
			if math.Mod(env.Data.X-e2e.DemoGrid/2, e2e.DemoGrid) != 0 || math.Mod(env.Data.Y-e2e.DemoGrid/2, e2e.DemoGrid) != 0 {
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

// dragFrames lists the tokenMoved frames page a sent and page b
// received, to tell a drag that never left A from one B did not draw.
func dragFrames(a, b *e2e.BrowserPage) string {
	var out []string
	for _, f := range a.SentFrames() {
		if strings.Contains(f.Text, "tokenMoved") {
			out = append(out, "A sent     "+f.Text)
		}
	}
	for _, f := range b.ReceivedFrames() {
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
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	// The map alone, small: this test reads the pages' state and frames.
	a := e2e.StartPlayer(t, srv, "Player A", e2e.MapOnlySize, "", e2e.WireRecorder, e2e.PanelsClosed)
	b := e2e.StartPlayer(t, srv, "Player B", e2e.MapOnlySize, "", e2e.PanelsClosed)
	e2e.FinishPlayer(t, a)
	e2e.FinishPlayer(t, b)
	// A party token the page's panels do not cover, with room to go five
	// cells east on the open map.
	tokID, fromX, fromY := e2e.UncoveredToken(t, a, 5, e2e.DemoBrannocID, e2e.DemoIlsaID, e2e.DemoQuillID)
	if tok := b.State().Token(tokID); tok == nil || !near(tok.X, fromX) || !near(tok.Y, fromY) {
		t.Fatalf("page B has the token at %+v, want %v,%v", tok, fromX, fromY)
	}
	if s := a.State(); s.Interaction == "none" || s.Paused {
		t.Fatalf("page A may not drag: interaction %q, paused %v", s.Interaction, s.Paused)
	}

	// Three cells east, released a few pixels off the cell's centre.
	targetX, targetY := fromX+3*e2e.DemoGrid, fromY
	e2e.SaveScreenshot(t, a, "player-a-before-drag")
	start := time.Now()
	followedExpr := fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
		return t && t.drawnX > %g; })()`, tokID, fromX+e2e.DemoGrid)
	followed := false
	const steps = 8
	e2e.DragInPage(t, a, fromX, fromY, targetX-6, targetY+4, steps, func(i int) {
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
		followed = b.Poll(followedExpr, timeout)
	})
	t.Logf("drag took %v", time.Since(start))
	if !followed {
		var hit any
		sx, sy := a.MapToScreen(fromX, fromY)
		a.EvalInto(fmt.Sprintf(`(() => { const e = document.elementFromPoint(%g, %g); return e ? e.outerHTML.slice(0, 200) : null; })()`, sx, sy), &hit)
		t.Logf("page A's element under the token: %v", hit)
		t.Errorf("page B did not draw the token moving during the drag in page A (still at %+v); A drew it at %+v\n%s",
			b.State().Token(tokID), a.State().Token(tokID), dragFrames(a, b))
	}
	committed := e2e.WaitAPI(t, srv.URL+"/api/tokens/"+tokID, "the drag to commit", func(tok struct{ X, Y float64 }) bool {
		return near(tok.X, targetX) && near(tok.Y, targetY)
	})
	t.Logf("committed at %v,%v", committed.X, committed.Y)
	for _, p := range []*e2e.BrowserPage{a, b} {
		p.WaitFor("the token to rest on its new cell", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
			return t && Math.abs(t.x - %g) < 0.5 && Math.abs(t.drawnX - %g) < 0.5 && Math.abs(t.drawnY - %g) < 0.5; })()`,
			tokID, targetX, targetX, targetY), 10*time.Second)
	}
	e2e.SaveScreenshot(t, a, "player-a-after-drag")
	e2e.SaveScreenshot(t, b, "player-b-after-drag")
	checkDragStream(t, a.SentFrames(), tokID)

	// Escape abandons a drag: the token goes back in both pages and
	// nothing is committed.
	ax, ay := a.MapToScreen(targetX, targetY)
	a.Mouse(input.DispatchMouseEventTypeMouseMoved, ax, ay, 0)
	a.Mouse(input.DispatchMouseEventTypeMousePressed, ax, ay, 1)
	for i := 1; i <= 3; i++ {
		a.Mouse(input.DispatchMouseEventTypeMouseMoved, ax+float64(i)*15, ay, 1)
	}
	a.Key("Escape")
	a.Mouse(input.DispatchMouseEventTypeMouseReleased, ax+45, ay, 0)
	for _, p := range []*e2e.BrowserPage{a, b} {
		p.WaitFor("the cancelled drag to put the token back", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
			return t && Math.abs(t.x - %g) < 0.5 && Math.abs(t.drawnX - %g) < 0.5; })()`, tokID, targetX, targetX), 10*time.Second)
	}
	cancelled := false
	for _, f := range a.SentFrames() {
		cancelled = cancelled || strings.Contains(f.Text, `"state":"cancel"`)
	}
	if !cancelled {
		t.Error("Escape did not send tokenMoved cancel")
	}
	var afterCancel struct{ X, Y float64 }
	e2e.HostGetJSON(t, srv.URL+"/api/tokens/"+tokID, &afterCancel)
	if !near(afterCancel.X, targetX) {
		t.Errorf("a cancelled drag moved the token to %v,%v", afterCancel.X, afterCancel.Y)
	}

	// The host vetoes a drag in progress: the token glides back in both
	// pages while the button is still down, and nothing is committed.
	ax, ay = a.MapToScreen(targetX, targetY)
	a.Mouse(input.DispatchMouseEventTypeMouseMoved, ax, ay, 0)
	a.Mouse(input.DispatchMouseEventTypeMousePressed, ax, ay, 1)
	for i := 1; i <= 3; i++ {
		a.Mouse(input.DispatchMouseEventTypeMouseMoved, ax+float64(i)*20, ay, 1)
	}
	// Page B drawing the drag means the server has it (page A drawing it
	// did not: under load the veto could overtake the drag's start).
	b.WaitFor("the drag to reach the server", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.drawnX > %g)`, tokID, targetX+20), 10*time.Second)
	var veto struct{ Blocked bool }
	if code := e2e.HttpJSON(t, http.MethodPost, srv.HostURL+"/host/api/drags/"+tokID+"/block", "", &veto); code != 200 || !veto.Blocked {
		t.Fatalf("host veto: %d %+v", code, veto)
	}
	for _, p := range []*e2e.BrowserPage{a, b} {
		p.WaitFor("the vetoed token back on its cell", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
			return t && Math.abs(t.x - %g) < 0.5 && Math.abs(t.drawnX - %g) < 0.5; })()`, tokID, targetX, targetX), 10*time.Second)
	}
	a.Mouse(input.DispatchMouseEventTypeMouseReleased, ax+60, ay, 0)
	a.Idle()
	// The veto ended the drag: once page A has the block, neither a
	// control still due nor releasing the button may send it on (an end
	// would commit the refused move). A control sent before the block
	// reached the page is no fault, however late the test hears of it.
	var wire []e2e.WireMessage
	a.EvalInto(`window.__wire`, &wire)
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
	e2e.HostGetJSON(t, srv.URL+"/api/tokens/"+tokID, &afterVeto)
	if !near(afterVeto.X, targetX) {
		t.Errorf("a vetoed drag moved the token to %v,%v", afterVeto.X, afterVeto.Y)
	}

	// Remote interaction off: the drag is refused.
	if code := e2e.HttpJSON(t, http.MethodPatch, srv.HostURL+"/host/api/settings", `{"remoteInteraction": false}`, nil); code != 200 {
		t.Fatalf("PATCH /host/api/settings: %d", code)
	}
	for _, p := range []*e2e.BrowserPage{a, b} {
		p.WaitFor("interaction none", `window.companionDebug.state().interaction === "none"`, 10*time.Second)
	}
	var bMoved []string
	e2e.DragInPage(t, a, targetX, targetY, targetX+2*e2e.DemoGrid, targetY, 6, func(i int) {
		if tok := b.State().Token(tokID); tok == nil || !near(tok.DrawnX, targetX) || !near(tok.DrawnY, targetY) {
			bMoved = append(bMoved, fmt.Sprintf("step %d: %+v", i, tok))
		}
	})
	a.WaitFor("the token to snap back in A", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
		return t && Math.abs(t.x - %g) < 0.5 && Math.abs(t.drawnX - %g) < 0.5 && Math.abs(t.drawnY - %g) < 0.5; })()`,
		tokID, targetX, targetX, targetY), 10*time.Second)
	b.Idle()
	if tok := b.State().Token(tokID); tok == nil || !near(tok.DrawnX, targetX) || !near(tok.X, targetX) {
		bMoved = append(bMoved, fmt.Sprintf("after: %+v", tok))
	}
	if len(bMoved) > 0 {
		t.Errorf("with remote interaction off, page B moved the token:\n%s", strings.Join(bMoved, "\n"))
	}
	var stored struct{ X, Y float64 }
	e2e.HostGetJSON(t, srv.URL+"/api/tokens/"+tokID, &stored)
	if !near(stored.X, targetX) || !near(stored.Y, targetY) {
		t.Errorf("with remote interaction off the drag committed: token at %v,%v", stored.X, stored.Y)
	}
	e2e.SaveScreenshot(t, a, "player-a-refused-drag")
}

// TestPlayerClientNeverReceivesHiddenTokens: a token hidden in the campaign
// and one hidden during the game never reach either player page: not in
// the page's state, not in GET /api, not in a WebSocket frame (except as
// {id, hidden: true}, which means "remove it").
func TestPlayerClientNeverReceivesHiddenTokens(t *testing.T) {
	t.Parallel()
	var knightVision string
	sys := e2e.DemoSystem(t, func(maps []map[string]any, screen map[string]any) {
		for _, tok := range e2e.MapTokens(maps[0]) {
			if tok["id"] == e2e.DemoKnightID {
				tok["hidden"] = true
				knightVision = tok["vision"].(map[string]any)["id"].(string)
			}
		}
	})
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}})
	a := e2e.StartPlayer(t, srv, "Player A", e2e.DesktopSize, "")
	b := e2e.StartPlayer(t, srv, "Player B", e2e.PhoneSize, "")
	e2e.FinishPlayer(t, a)
	e2e.FinishPlayer(t, b)
	if a.State().Token(e2e.DemoHoundID) == nil {
		t.Fatal("the visible hound is not on page A")
	}
	framesBefore := map[*e2e.BrowserPage]int{a: len(a.ReceivedFrames()), b: len(b.ReceivedFrames())}

	// Hide the hound during the game, then move both hidden tokens and a
	// visible one last: once the visible move shows, the others were sent.
	// Hiding is the game master's: through the host console's API (a
	// player's write cannot change hidden).
	if code := e2e.HttpJSON(t, http.MethodPatch, srv.HostURL+"/host/api/tokens/"+e2e.DemoHoundID, `{"hidden": true}`, nil); code != 200 {
		t.Fatalf("PATCH hide the hound: %d", code)
	}
	for _, p := range []*e2e.BrowserPage{a, b} {
		p.WaitFor("the hidden hound to go", fmt.Sprintf(`!window.companionDebug.state().tokens.some(t => t.id === %q)`, e2e.DemoHoundID), 10*time.Second)
	}
	for _, id := range []string{e2e.DemoHoundID, e2e.DemoKnightID} {
		if code := e2e.HttpJSON(t, http.MethodPatch, srv.HostURL+"/host/api/tokens/"+id, `{"x": 1225, "y": 805}`, nil); code != 200 {
			t.Fatalf("PATCH move hidden token: %d", code)
		}
	}
	if code := e2e.HttpJSON(t, http.MethodPatch, srv.URL+"/api/tokens/"+e2e.DemoIlsaID, `{"x": 385, "y": 455}`, nil); code != 200 {
		t.Fatalf("PATCH move Ilsa: %d", code)
	}
	for _, p := range []*e2e.BrowserPage{a, b} {
		p.WaitFor("the visible move", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q); return t && t.x === 385; })()`, e2e.DemoIlsaID), 10*time.Second)
		p.Idle()
		s := p.State()
		for _, id := range []string{e2e.DemoKnightID, e2e.DemoHoundID} {
			if s.Token(id) != nil {
				t.Errorf("page %s has hidden token %s: %+v", p.Name, id, s.Token(id))
			}
		}
		frames := p.ReceivedFrames()
		if len(frames) == 0 {
			t.Fatalf("page %s received no WebSocket frame (CDP Network events)", p.Name)
		}
		fetched := p.FetchedAPI()
		if len(fetched) == 0 {
			t.Errorf("page %s fetched no /api document", p.Name)
		}
		for _, leak := range e2e.HiddenTokenLeaks(append(fetched, frames...), e2e.DemoKnightID, knightVision) {
			t.Errorf("page %s received the hidden knight: %s", p.Name, leak)
		}
		for _, leak := range e2e.HiddenTokenLeaks(frames[framesBefore[p]:], e2e.DemoHoundID) {
			t.Errorf("page %s received the hound after it was hidden: %s", p.Name, leak)
		}
	}
	e2e.SaveScreenshot(t, a, "player-a")
	e2e.SaveScreenshot(t, b, "player-b-phone")
}

// TestPlayerClientDoorChangesWhatPlayersSee: the party stands in the west
// nave; the sanctum behind the closed door is out of sight. A player opens
// the door by clicking it: the point behind it becomes visible, in the
// hook and in the pixels, and a corner the door does not face stays dark.
// The monsters' own vision is switched off so only the party's counts.
func TestPlayerClientDoorChangesWhatPlayersSee(t *testing.T) {
	t.Parallel()
	sys := e2e.DemoSystem(t, func(maps []map[string]any, screen map[string]any) {
		for _, tok := range e2e.MapTokens(maps[0]) {
			if tok["id"] == e2e.DemoKnightID || tok["id"] == e2e.DemoHoundID {
				tok["vision"].(map[string]any)["enabled"] = false
			}
		}
	})
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}})
	p := e2e.OpenPlayer(t, srv, "Player A", e2e.DesktopSize, "")

	const behindX, behindY = 770.0, 490.0  // just east of the door, in line with Brannoc
	const cornerX, cornerY = 1260.0, 840.0 // the sanctum's far corner: the door does not face it
	const naveX, naveY = 420.0, 700.0      // the party's own room
	var door struct{ X, Y float64 }
	found := false
	for _, d := range p.State().Doors {
		if d.ID == e2e.DemoDoorID {
			if d.State != "closed" {
				t.Fatalf("the door is %q, want closed", d.State)
			}
			door.X, door.Y, found = d.X, d.Y, true
		}
	}
	if !found {
		t.Fatalf("the page lists no door %s: %+v", e2e.DemoDoorID, p.State().Doors)
	}
	if !p.VisibleAt(naveX, naveY) {
		t.Fatal("the party's own room is not visible")
	}
	if p.VisibleAt(behindX, behindY) || p.VisibleAt(cornerX, cornerY) {
		t.Fatal("the sanctum is visible through the closed door")
	}
	before := e2e.SaveScreenshot(t, p, "door-closed")
	bx, by := p.MapToScreen(behindX, behindY)
	closedPixel, _ := e2e.Pixel(before, bx, by)

	// Click the door, as a player would.
	dx, dy := p.MapToScreen(door.X, door.Y)
	if !p.CanvasAt(dx, dy) {
		t.Fatalf("the door at screen %.0f,%.0f is under one of the page's panels", dx, dy)
	}
	p.Mouse(input.DispatchMouseEventTypeMouseMoved, dx, dy, 0)
	p.Mouse(input.DispatchMouseEventTypeMousePressed, dx, dy, 1)
	p.Mouse(input.DispatchMouseEventTypeMouseReleased, dx, dy, 0)
	p.WaitFor("the door to open", fmt.Sprintf(`window.companionDebug.state().doors.some(d => d.id === %q && d.state === "open")`, e2e.DemoDoorID), 10*time.Second)
	p.WaitFor("the point behind the door to become visible", fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g)`, behindX, behindY), 10*time.Second)
	p.Idle()
	if s := p.State(); s.Vision.Polygons == 0 {
		t.Errorf("after the door opened the page holds no server vision polygon: %+v", s.Vision)
	}
	if p.VisibleAt(cornerX, cornerY) {
		t.Error("the sanctum's far corner became visible through the door, which does not face it")
	}
	after := e2e.SaveScreenshot(t, p, "door-open")
	bx, by = p.MapToScreen(behindX, behindY)
	openPixel, _ := e2e.Pixel(after, bx, by)
	if e2e.ColourDistance(closedPixel, openPixel) < 30 {
		t.Errorf("the pixel behind the door did not change when it opened: %v then %v", closedPixel, openPixel)
	}
	e2e.WaitAPI(t, srv.URL+"/api", "the door stored open", func(snap struct {
		Map struct{ Walls []struct{ ID, Door string } }
	}) bool {
		for _, w := range snap.Map.Walls {
			if w.ID == e2e.DemoDoorID {
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
	pages := map[bool]*e2e.BrowserPage{}
	for _, fog := range []bool{false, true} {
		sys := e2e.DemoSystem(t, func(maps []map[string]any, screen map[string]any) {
			maps[0]["lineOfSight"] = false
			maps[0]["fogOfWar"] = fog
			maps[0]["fogExploration"] = false
			screen["fog"] = fog
		})
		srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}})
		pages[fog] = e2e.StartPlayer(t, srv, fmt.Sprintf("Player fog=%v", fog), e2e.DesktopSize, "")
	}
	seen := map[bool]color.RGBA{}
	for _, fog := range []bool{false, true} {
		p := pages[fog]
		e2e.FinishPlayer(t, p)
		s := p.State()
		if s.Vision.Fog != fog {
			t.Errorf("fog %v: the page reports fog %v", fog, s.Vision.Fog)
		}
		if visible := p.VisibleAt(x, y); visible == fog {
			t.Errorf("fog %v: isVisibleAt(%v, %v) = %v", fog, x, y, visible)
		}
		shot := e2e.SaveScreenshot(t, p, fmt.Sprintf("fog-%v", fog))
		sx, sy := p.MapToScreen(x, y)
		seen[fog], _ = e2e.Pixel(shot, sx, sy)
	}
	if e2e.ColourDistance(seen[false], seen[true]) < 30 {
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
	first := e2e.StartServer(t, e2e.ServerOptions{DataDir: dataDir})
	addr, hostAddr := strings.TrimPrefix(first.URL, "http://"), strings.TrimPrefix(first.HostURL, "http://")
	p := e2e.OpenPlayer(t, first, "Player A", e2e.DesktopSize, "")

	first.Stop(t)
	p.WaitFor("the page to notice the server is gone", `window.companionDebug.state().connection !== "open"`, 15*time.Second)
	e2e.SaveScreenshot(t, p, "server-down")

	meanwhile := e2e.StartServer(t, e2e.ServerOptions{DataDir: dataDir})
	if code := e2e.HttpJSON(t, http.MethodPatch, meanwhile.URL+"/api/tokens/"+e2e.DemoBrannocID, `{"x": 595, "y": 805}`, nil); code != 200 {
		t.Fatalf("PATCH while the page's server is down: %d", code)
	}
	meanwhile.Stop(t)

	again := e2e.StartServer(t, e2e.ServerOptions{DataDir: dataDir, Addr: addr, HostAddr: hostAddr})
	p.WaitFor("the page to reconnect", `window.companionDebug.state().connection === "open"`, 30*time.Second)
	p.WaitFor("the change made while it was down", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q);
		return t && t.x === 595 && t.y === 805 && t.drawnX === 595 && t.drawnY === 805; })()`, e2e.DemoBrannocID), 15*time.Second)
	p.Idle()
	e2e.SaveScreenshot(t, p, "reconnected")
	clients := e2e.WaitAPI(t, again.HostURL+"/host/api/clients", "the page to register again", func(cs []struct{ Name string }) bool {
		return len(cs) == 1 && cs[0].Name == "Player A"
	})
	t.Logf("clients after the restart: %+v", clients)
}
