package party

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/vttapp/companion/tests/e2e"
)

// marksState is what companionDebug.state().marks reports.
type marksState struct {
	AreaEffects []struct {
		ID      string `json:"id"`
		Shape   string `json:"shape"`
		Squares []int  `json:"squares"`
	} `json:"areaEffects"`
	Drawings []struct {
		ID    string `json:"id"`
		Layer string `json:"layer"`
	} `json:"drawings"`
	Measurements []struct {
		ID       string    `json:"id"`
		Data     []float64 `json:"data"`
		Distance string    `json:"distance"`
	} `json:"measurements"`
	Inside []string `json:"inside"`
}

func marksOf(p *e2e.BrowserPage) marksState {
	p.T.Helper()
	var m marksState
	p.EvalInto(`window.companionDebug.state().marks`, &m)
	return m
}

// chooseMark presses a button of the marks bar as a person would: it
// chooses the tool, or puts it down when it is chosen (want false).
func chooseMark(p *e2e.BrowserPage, tool string) { pressMark(p, tool, true) }

func dropMark(p *e2e.BrowserPage, tool string) { pressMark(p, tool, false) }

func pressMark(p *e2e.BrowserPage, tool string, want bool) {
	p.T.Helper()
	if p.Eval(`document.querySelector(".marks-bar").hidden`) == true {
		clickAt(p, ".marks-toggle")
		p.WaitFor("the marks bar", `!document.querySelector(".marks-bar").hidden`, 5*time.Second)
	}
	clickAt(p, fmt.Sprintf(`.marks-bar button[data-mark=%q]`, tool))
	p.WaitFor("the tool "+tool, fmt.Sprintf(`document.querySelector('.marks-bar button[data-mark=%q]').getAttribute("aria-pressed") === "%v"`, tool, want), 5*time.Second)
}

// clickAt clicks the middle of the element selector names with the mouse.
func clickAt(p *e2e.BrowserPage, selector string) {
	p.T.Helper()
	var box struct{ X, Y float64 }
	p.EvalInto(fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, selector), &box)
	p.Mouse(input.DispatchMouseEventTypeMousePressed, box.X, box.Y, 1)
	p.Mouse(input.DispatchMouseEventTypeMouseReleased, box.X, box.Y, 0)
}

// cellColour is the page's colour at the centre of grid cell (c, r) of the
// demo map, and whether that point is drawn on the map canvas, lit.
func cellColour(p *e2e.BrowserPage, img image.Image, c, r int) (color.RGBA, bool) {
	x, y := (float64(c)+0.5)*e2e.DemoGrid, (float64(r)+0.5)*e2e.DemoGrid
	sx, sy := p.MapToScreen(x, y)
	if !p.CanvasAt(sx, sy) || !p.VisibleAt(x, y) {
		return color.RGBA{}, false
	}
	return e2e.Pixel(img, sx, sy)
}

// TestPlayersMarkTheMapTogether: on the demo map, player A drops a 20-ft
// sphere and a 15-ft cone by dragging them from the marks bar; page B
// shows both, over the same squares (the D&D 5e rule, measured by the
// server) in the pixels of both pages, and names the party inside. B's
// eraser cannot take A's cone; the game master removes the sphere. A's
// ruler is drawn on B while it moves, with the same distance. A drawing
// shows on both pages; the game master's drawing on the GM layer reaches
// neither.
func TestPlayersMarkTheMapTogether(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	a := e2e.StartPlayer(t, srv, "Player A", e2e.DesktopSize, "")
	b := e2e.StartPlayer(t, srv, "Player B", e2e.DesktopSize, "")
	e2e.FinishPlayer(t, a)
	e2e.FinishPlayer(t, b)
	var mapID string
	a.EvalInto(`window.companionDebug.state().map.id`, &mapID)
	before := map[*e2e.BrowserPage]image.Image{a: e2e.SaveScreenshot(t, a, "a-before"), b: e2e.SaveScreenshot(t, b, "b-before")}

	// A 20-ft sphere centred on the corner between the party's squares
	// (map 280, 420), and a 15-ft cone from the middle of a square's east
	// edge aimed east (map 490, 385).
	chooseMark(a, "sphere")
	e2e.DragInPage(t, a, 280, 420, 280+4*e2e.DemoGrid, 420, 12, nil)
	if !a.Poll(`window.companionDebug.state().marks.areaEffects.length === 1`, 10*time.Second) {
		t.Fatalf("the sphere: %s", a.Eval(`JSON.stringify(window.companionDebug.state().marks)`))
	}
	chooseMark(a, "cone")
	e2e.DragInPage(t, a, 490, 385, 490+3*e2e.DemoGrid, 385, 12, nil)
	dropMark(a, "cone")
	for _, p := range []*e2e.BrowserPage{a, b} {
		p.WaitFor("both templates measured", `(() => { const m = window.companionDebug.state().marks; return m.areaEffects.length === 2 && m.areaEffects.every(e => e.squares && e.squares.length > 0); })()`, 15*time.Second)
		p.Idle()
	}
	ma, mb := marksOf(a), marksOf(b)
	squares := map[string][]int{}
	for _, e := range ma.AreaEffects {
		squares[e.Shape] = e.Squares
	}
	if len(squares["sphere"]) != 2*52 || len(squares["cone"]) != 2*5 {
		t.Fatalf("the sphere covers %d squares and the cone %d; D&D 5e says 52 and 5", len(squares["sphere"])/2, len(squares["cone"])/2)
	}
	if fmt.Sprint(ma.AreaEffects) != fmt.Sprint(mb.AreaEffects) {
		t.Fatalf("the pages highlight different squares:\nA %v\nB %v", ma.AreaEffects, mb.AreaEffects)
	}
	party := []string{"Brannoc Saltbeard", "Ilsa Reedwhisper", "Quill Marrowby"}
	b.WaitFor("the tokens inside named", `window.companionDebug.state().marks.inside.length === 3`, 10*time.Second)
	if got := marksOf(b).Inside; !slices.Equal(got, party) {
		t.Errorf("B names %v inside, want %v", got, party)
	}
	if say := b.Eval(`document.querySelector(".mark-say").textContent`); !strings.Contains(fmt.Sprint(say), "Ilsa Reedwhisper") {
		t.Errorf("B's page says %q", say)
	}

	// Pixels: every lit square of the sphere's changed colour towards its
	// orange on both pages, and the squares just outside it did not.
	covered := map[[2]int]bool{}
	for i := 0; i+1 < len(squares["sphere"]); i += 2 {
		covered[[2]int{squares["sphere"][i], squares["sphere"][i+1]}] = true
	}
	for i := 0; i+1 < len(squares["cone"]); i += 2 {
		covered[[2]int{squares["cone"][i], squares["cone"][i+1]}] = true
	}
	// (Tokens stand over the templates: their squares are left out.)
	tokenAt := map[[2]int]bool{}
	for _, tk := range a.State().Tokens {
		tokenAt[[2]int{int(tk.X / e2e.DemoGrid), int(tk.Y / e2e.DemoGrid)}] = true
	}
	for _, p := range []*e2e.BrowserPage{a, b} {
		after := e2e.SaveScreenshot(t, p, "templates-"+strings.ReplaceAll(p.Name, " ", "-"))
		checked, outside := 0, 0
		for r := 1; r <= 10; r++ {
			for c := 0; c <= 11; c++ {
				was, ok1 := cellColour(p, before[p], c, r)
				now, ok2 := cellColour(p, after, c, r)
				if !ok1 || !ok2 || tokenAt[[2]int{c, r}] {
					continue
				}
				shift := int(now.R) - int(was.R) - (int(now.B) - int(was.B))
				if covered[[2]int{c, r}] {
					checked++
					if shift < 25 {
						t.Errorf("page %s: square (%d, %d) is covered but not highlighted: %v then %v", p.Name, c, r, was, now)
					}
				} else if !covered[[2]int{c - 1, r}] && !covered[[2]int{c + 1, r}] && !covered[[2]int{c, r - 1}] && !covered[[2]int{c, r + 1}] {
					outside++
					if e2e.ColourDistance(was, now) > 30 {
						t.Errorf("page %s: square (%d, %d) is not covered but changed: %v then %v", p.Name, c, r, was, now)
					}
				}
			}
		}
		if checked < 20 || outside < 5 {
			t.Errorf("page %s: only %d covered and %d outside squares were lit and on the canvas", p.Name, checked, outside)
		}
	}

	// B's eraser does not take A's cone (it is not B's); the game master's
	// removal of the sphere reaches both pages.
	var coneID, sphereID string
	for _, e := range ma.AreaEffects {
		if e.Shape == "cone" {
			coneID = e.ID
		} else {
			sphereID = e.ID
		}
	}
	chooseMark(b, "erase")
	cx, cy := b.MapToScreen(490+70, 385)
	b.Mouse(input.DispatchMouseEventTypeMousePressed, cx, cy, 1)
	b.Mouse(input.DispatchMouseEventTypeMouseReleased, cx, cy, 0)
	dropMark(b, "erase")
	if code := e2e.HttpJSON(t, http.MethodDelete, srv.HostURL+"/host/api/maps/"+mapID+"/areaEffects/"+sphereID, "", nil); code != http.StatusNoContent {
		t.Fatalf("the game master removing the sphere: %d", code)
	}
	for _, p := range []*e2e.BrowserPage{a, b} {
		p.WaitFor("only the cone", fmt.Sprintf(`(() => { const m = window.companionDebug.state().marks.areaEffects; return m.length === 1 && m[0].id === %q; })()`, coneID), 10*time.Second)
	}
	// A hostile page cannot either: B's own socket asks the server to
	// remove A's cone, and is refused.
	b.EvalInto(fmt.Sprintf(`new Promise((resolve) => {
		const ws = new WebSocket(location.origin.replace("http", "ws") + "/");
		ws.onopen = () => ws.send(JSON.stringify({name: "deleteMapObject", requestId: "x", data: {mapId: %q, kind: "areaEffects", id: %q}}));
		ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.responseId === "x") { ws.close(); resolve(m.name + " " + (m.data.kind || "")); } };
	})`, mapID, coneID), nil)
	var stored []map[string]any
	e2e.HttpJSON(t, http.MethodGet, srv.HostURL+"/host/api/maps/"+mapID+"/areaEffects", "", &stored)
	if len(stored) != 1 || stored[0]["id"] != coneID {
		t.Fatalf("after B tried to remove A's cone: %v", stored)
	}

	// A moves the cone a square south by its middle: B draws it there,
	// over squares measured again.
	var coneSquares []int
	for _, e := range marksOf(b).AreaEffects {
		coneSquares = e.Squares
	}
	chooseMark(a, "move")
	e2e.DragInPage(t, a, 490, 385, 490, 385+e2e.DemoGrid, 8, nil)
	dropMark(a, "move")
	was := strings.Trim(strings.ReplaceAll(fmt.Sprint(coneSquares), " ", ","), "[]")
	if !b.Poll(fmt.Sprintf(`(() => { const m = window.companionDebug.state().marks.areaEffects[0]; return !!m && !!m.squares && m.squares.join() !== %q; })()`, was), 10*time.Second) {
		t.Fatalf("B's cone squares did not follow the move: %v", marksOf(b).AreaEffects)
	}
	// B follows the live moves; the drag's end stores the cone where it was let go.
	e2e.WaitAPI(t, srv.HostURL+"/host/api/maps/"+mapID+"/areaEffects", "the moved cone stored a square south",
		func(stored []map[string]any) bool { return len(stored) == 1 && stored[0]["y"] == 385+e2e.DemoGrid })

	// A's ruler, live on B with the same distance.
	clickAt(a, ".ruler-toggle")
	sx, sy := a.MapToScreen(175, 455)
	ex, ey := a.MapToScreen(175+3*70, 455+2*70)
	a.Mouse(input.DispatchMouseEventTypeMousePressed, sx, sy, 1)
	a.Mouse(input.DispatchMouseEventTypeMouseReleased, sx, sy, 0)
	for i := 1; i <= 10; i++ {
		f := float64(i) / 10
		a.Mouse(input.DispatchMouseEventTypeMouseMoved, sx+(ex-sx)*f, sy+(ey-sy)*f, 0)
		time.Sleep(20 * time.Millisecond) // input pacing
		if i == 5 {
			b.WaitFor("A's ruler on B while it moves", `window.companionDebug.state().marks.measurements.some(m => m.distance !== "")`, 10*time.Second)
		}
	}
	b.WaitFor("the ruler's end on B", fmt.Sprintf(`window.companionDebug.state().marks.measurements.some(m => m.data[2] === %d && m.data[3] === %d)`, 175+3*70, 455+2*70), 10*time.Second)
	aText := fmt.Sprint(a.Eval(`document.querySelector(".ruler text").textContent`))
	bRuler := marksOf(b).Measurements
	if len(bRuler) != 1 || !strings.Contains(aText, bRuler[0].Distance) || bRuler[0].Distance != "15 ft" {
		t.Fatalf("A's ruler says %q, B shows %+v; want the same 15 ft (3 squares, the diagonals counting one)", aText, bRuler)
	}
	b.Idle()
	shot := e2e.SaveScreenshot(t, b, "ruler-on-b")
	mx, my := b.MapToScreen(175+1.5*70, 455+70)
	if px, ok := e2e.Pixel(shot, mx, my); !ok || px.B > 150 || px.R < 150 {
		t.Errorf("B does not draw A's yellow ruler at its middle: %v", px)
	}
	// Pinned, the ruler stays for everyone: stored where it was let go, and
	// drawn by A from the map while A's own ruler starts afresh; put away,
	// the pinned one stays; A's eraser removes it from every page.
	clickAt(a, ".ruler-pin")
	e2e.WaitAPI(t, srv.HostURL+"/host/api/maps/"+mapID+"/measurements", "the pinned ruler stored",
		func(stored []map[string]any) bool {
			return len(stored) == 1 && fmt.Sprint(stored[0]["data"]) == fmt.Sprint([]any{175, 455, 175 + 3*70, 455 + 2*70})
		})
	a.WaitFor("A draws the pinned ruler from the map, its own ruler afresh",
		`document.querySelector(".ruler text").textContent === "" && window.companionDebug.state().marks.measurements.length === 1`, 10*time.Second)
	a.Key("Escape")
	a.Idle()
	shot = e2e.SaveScreenshot(t, a, "ruler-pinned-on-a")
	if px, ok := e2e.Pixel(shot, mx, my); !ok || px.B > 150 || px.R < 150 {
		t.Errorf("A does not draw its pinned yellow ruler at its middle: %v", px)
	}
	if n := len(marksOf(b).Measurements); n != 1 {
		t.Fatalf("B holds %d rulers after A pinned one and put the ruler away, want 1", n)
	}
	chooseMark(a, "erase")
	ax, ay := a.MapToScreen(175+1.5*70, 455+70)
	a.Mouse(input.DispatchMouseEventTypeMousePressed, ax, ay, 1)
	a.Mouse(input.DispatchMouseEventTypeMouseReleased, ax, ay, 0)
	b.WaitFor("the pinned ruler erased", `window.companionDebug.state().marks.measurements.length === 0`, 10*time.Second)
	dropMark(a, "erase")

	// A drawing on every page; the game master's hidden one on none.
	chooseMark(a, "free")
	e2e.DragInPage(t, a, 420, 700, 560, 760, 10, nil)
	dropMark(a, "free")
	hidden := `{"data": [100, 800, 300, 850], "layer": "dm", "strokeColor": "#ff00ff", "text": "Ambush from the crypt"}`
	var gm map[string]any
	if code := e2e.HttpJSON(t, http.MethodPost, srv.HostURL+"/host/api/maps/"+mapID+"/drawings", hidden, &gm); code != http.StatusCreated {
		t.Fatalf("the GM's hidden drawing: %d", code)
	}
	for _, p := range []*e2e.BrowserPage{a, b} {
		p.WaitFor("A's drawing", `window.companionDebug.state().marks.drawings.length === 1`, 10*time.Second)
		p.Idle()
		for _, f := range p.ReceivedFrames() {
			if strings.Contains(f, gm["id"].(string)) || strings.Contains(f, "Ambush from the crypt") {
				t.Fatalf("page %s received the GM-layer drawing: %s", p.Name, f)
			}
		}
	}
	raw, _ := json.Marshal(marksOf(b).Drawings)
	if strings.Contains(string(raw), "dm") {
		t.Fatalf("B holds %s", raw)
	}
}

// gmDrawings is what the page's hook reports of the map's drawings.
func gmDrawings(p *e2e.BrowserPage) []struct{ ID, Layer string } {
	p.T.Helper()
	var out []struct{ ID, Layer string }
	p.EvalInto(`window.companionDebug.state().marks.drawings`, &out)
	return out
}

// TestGMDrawsForEveryoneAndForHimself: on the GM map the game master
// draws a stroke on the GM layer and a line for everyone, with the marks
// bar of the toolbar. The GM map draws both (pixels); the player's page
// draws the line, and never receives the hidden stroke.
func TestGMDrawsForEveryoneAndForHimself(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	player := e2e.StartPlayer(t, srv, "Player A", e2e.DesktopSize, "")
	gm := e2e.StartConsole(t, srv)
	e2e.FinishConsole(t, gm)
	e2e.FinishPlayer(t, player)
	clickAt(gm, "#gm-marks-toggle")
	gm.WaitFor("the GM's marks bar", `!document.getElementById("gm-marks").hidden`, 5*time.Second)
	gm.Idle()
	gmBefore := e2e.SaveScreenshot(t, gm, "gm-before")

	clickAt(gm, "#gm-marks .mark-hidden")
	gm.WaitFor("the GM layer chosen", `document.querySelector("#gm-marks .mark-hidden").checked`, 5*time.Second)
	clickAt(gm, `#gm-marks button[data-mark="free"]`)
	e2e.DragInPage(t, gm, 420, 700, 560, 700, 10, nil)
	gm.WaitFor("the hidden stroke", `window.companionDebug.state().marks.drawings.length === 1`, 10*time.Second)
	clickAt(gm, "#gm-marks .mark-hidden")
	clickAt(gm, `#gm-marks button[data-mark="segment"]`)
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

	// The GM map's ruler is shared as a player's is: the player's page
	// draws it while it is stretched, with the distance the GM map shows.
	clickAt(gm, "#gm-ruler-toggle")
	gm.WaitFor("the GM's ruler on", `document.getElementById("gm-ruler-toggle").getAttribute("aria-pressed") === "true"`, 5*time.Second)
	sx, sy := gm.MapToScreen(175, 455)
	ex, ey := gm.MapToScreen(175+4*70, 455)
	gm.Mouse(input.DispatchMouseEventTypeMousePressed, sx, sy, 1)
	gm.Mouse(input.DispatchMouseEventTypeMouseReleased, sx, sy, 0)
	for i := 1; i <= 6; i++ {
		f := float64(i) / 6
		gm.Mouse(input.DispatchMouseEventTypeMouseMoved, sx+(ex-sx)*f, sy+(ey-sy)*f, 0)
		time.Sleep(20 * time.Millisecond) // input pacing
	}
	player.WaitFor("the GM's ruler on the player's page", `window.companionDebug.state().marks.measurements.some(m => m.distance === "20 ft")`, 10*time.Second)
	if got := fmt.Sprint(gm.Eval(`document.querySelector("#gm-map .ruler text").textContent`)); got != "20 ft" {
		t.Errorf("the GM map's ruler says %q, want 20 ft", got)
	}
	gm.Key("Escape")
	player.WaitFor("the GM's ruler put away", `window.companionDebug.state().marks.measurements.length === 0`, 10*time.Second)
}
