package e2e

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
)

// The player client's test hook, window.companionDebug, is documented in
// web/client/README.md. playerState mirrors its state().
type playerState struct {
	Connection  string        `json:"connection"`
	Joined      bool          `json:"joined"`
	RunMode     string        `json:"runMode"`
	Paused      bool          `json:"paused"`
	Interaction string        `json:"interaction"`
	Map         *playerMap    `json:"map"`
	Tokens      []playerToken `json:"tokens"`
	Doors       []struct {
		ID    string  `json:"id"`
		State string  `json:"state"`
		X     float64 `json:"x"`
		Y     float64 `json:"y"`
	} `json:"doors"`
	Vision struct {
		LineOfSight bool `json:"lineOfSight"`
		Polygons    int  `json:"polygons"`
		Fog         bool `json:"fog"`
	} `json:"vision"`
	Viewport struct {
		CenterX float64 `json:"centerX"`
		CenterY float64 `json:"centerY"`
		Zoom    float64 `json:"zoom"`
	} `json:"viewport"`
	Frames    int     `json:"frames"`
	LastError *string `json:"lastError"`
}

type playerMap struct {
	ID               string  `json:"id"`
	Name             string  `json:"name"`
	Width            float64 `json:"width"`
	Height           float64 `json:"height"`
	GridType         string  `json:"gridType"`
	GridSize         float64 `json:"gridSize"`
	BackgroundLoaded bool    `json:"backgroundLoaded"`
}

// playerToken is one token as the page reports it: x, y committed, drawnX,
// drawnY where it is drawn now (mid-animation too).
type playerToken struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Label    string  `json:"label"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
	DrawnX   float64 `json:"drawnX"`
	DrawnY   float64 `json:"drawnY"`
	Width    float64 `json:"width"`
	Height   float64 `json:"height"`
	Rotation float64 `json:"rotation"`
	HasImage bool    `json:"hasImage"`
	Badge    string  `json:"badge"`
	Visible  bool    `json:"visible"`
}

// Token returns the state of the token with id, or nil.
func (s playerState) Token(id string) *playerToken {
	for i := range s.Tokens {
		if s.Tokens[i].ID == id {
			return &s.Tokens[i]
		}
	}
	return nil
}

// The demo campaign's ids (examples/dnd5e/sample/campaign/maps.json).
const (
	DemoMapID     = "5e0ca000-0000-4000-8000-000000000400"
	DemoDoorID    = "5e0ca000-0000-4000-8000-000000000203"
	DemoBrannocID = "5e0ca000-0000-4000-8000-000000000101" // party, west nave
	DemoIlsaID    = "5e0ca000-0000-4000-8000-000000000102"
	DemoQuillID   = "5e0ca000-0000-4000-8000-000000000103"
	DemoKnightID  = "5e0ca000-0000-4000-8000-000000000104" // monster, east sanctum
	DemoHoundID   = "5e0ca000-0000-4000-8000-000000000105"
	// The characters (characters.json): their ids are the seats'.
	DemoBrannocChar = "5e0ca000-0000-4000-8000-000000000001"
	DemoIlsaChar    = "5e0ca000-0000-4000-8000-000000000002"
	DemoQuillChar   = "5e0ca000-0000-4000-8000-000000000003"
	// The knight's place in the demo fight (combatants.json).
	DemoKnightCombatant = "5e0ca000-0000-4000-8000-000000000504"
)

// DemoSystem copies the dnd5e example to a temporary folder and lets edit
// change its sample campaign (the maps document and the screen) before a
// fresh server seeds it: that is how a test sets up fog, hidden tokens or
// a crowded map through nothing but the shipped data format.
func DemoSystem(t testing.TB, edit func(maps []map[string]any, screen map[string]any)) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../examples/dnd5e")); err != nil {
		t.Fatal(err)
	}
	if edit == nil {
		return dir
	}
	campaign := filepath.Join(dir, "sample", "campaign")
	var maps []map[string]any
	var screen map[string]any
	readJSONFile(t, filepath.Join(campaign, "maps.json"), &maps)
	readJSONFile(t, filepath.Join(campaign, "screen.json"), &screen)
	edit(maps, screen)
	writeJSONFile(t, filepath.Join(campaign, "maps.json"), maps)
	writeJSONFile(t, filepath.Join(campaign, "screen.json"), screen)
	return dir
}

func readJSONFile(t testing.TB, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func writeJSONFile(t testing.TB, path string, v any) {
	t.Helper()
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// MapTokens returns the token list of a maps.json map for editing.
func MapTokens(m map[string]any) []map[string]any {
	var out []map[string]any
	for _, tok := range m["tokens"].([]any) {
		out = append(out, tok.(map[string]any))
	}
	return out
}

// fetchRecorder is an init script that keeps the body of every GET /api
// answer the page fetched, so a test can check what reached the page over
// HTTP as it checks the WebSocket frames.
const fetchRecorder = `(() => {
	window.__testFetched = [];
	const orig = window.fetch;
	window.fetch = async function (...args) {
		const resp = await orig.apply(this, args);
		try {
			const url = new URL(resp.url, location.href);
			if (url.pathname.startsWith("/api")) {
				resp.clone().text().then(t => window.__testFetched.push(t));
			}
		} catch (e) {}
		return resp;
	};
})()`

// PanelsClosed is an init script that starts the page as a player who
// closed the initiative and chat panels last time (the page remembers
// that in localStorage), so that the map has the whole window.
const PanelsClosed = `try {
	localStorage.setItem("companion.panel.initiative", "0");
	localStorage.setItem("companion.panel.chat", "0");
} catch (e) {}`

// QualityPinned keeps a page at full quality, as a player's "restore"
// does: for tests that measure one frame's work, which the page lowering
// its own quality on a loaded machine would change mid-test.
const QualityPinned = `try { localStorage.setItem("companion.quality", JSON.stringify({pinned: true})); } catch (e) {}`

// WireRecorder is an init script that keeps, in the order the page's own
// code sees them, the tokenMoved messages the page sends and receives
// (window.__wire, entries {sent: bool, data}). The order is the page's,
// unlike the DevTools frame events, which reach the test later and on a
// loaded machine out of step with what the page did.
const WireRecorder = `(() => {
	const wire = window.__wire = [];
	const Orig = window.WebSocket;
	const send = Orig.prototype.send;
	Orig.prototype.send = function (data) {
		if (typeof data === "string" && data.includes('"tokenMoved"')) wire.push({sent: true, data});
		return send.call(this, data);
	};
	window.WebSocket = class extends Orig {
		constructor(...a) {
			super(...a);
			// Added before the page's own handlers: logged before it acts.
			this.addEventListener("message", ev => {
				if (typeof ev.data === "string" && ev.data.includes('"tokenMoved"')) wire.push({sent: false, data: ev.data});
			});
		}
	};
})()`

// WireMessage is one entry of wireRecorder's log.
type WireMessage struct {
	Sent bool
	Data string
}

// OpenPlayer opens the player client (/client/ plus query) in a new tab,
// joins as name when the page asks, and waits until it is connected with
// the map drawn. It skips (fails under CI=true) when the page has no test
// hook, i.e. the old text client is being served.
func OpenPlayer(t *testing.T, srv *Server, name string, size ViewportSize, query string) *BrowserPage {
	t.Helper()
	p := StartPlayer(t, srv, name, size, query)
	FinishPlayer(t, p)
	return p
}

// StartPlayer opens the player client in a new tab and returns while it
// loads; finishPlayer joins and waits for it. A test that needs several
// pages starts them all first, so that they load side by side.
func StartPlayer(t *testing.T, srv *Server, name string, size ViewportSize, query string, scripts ...string) *BrowserPage {
	t.Helper()
	p := NewPage(t, name, size)
	for _, s := range append([]string{fetchRecorder}, scripts...) {
		p.AddInitScript(s)
	}
	p.NavigateAsync(srv.URL + "/client/" + query)
	return p
}

// FinishPlayer is the rest of openPlayer for a page startPlayer opened.
func FinishPlayer(t *testing.T, p *BrowserPage) {
	t.Helper()
	// The page's load (30 s with navigate) and its hook (15 s) together.
	if !p.Poll(`window.companionDebug && typeof window.companionDebug.state === "function"`, 45*time.Second) {
		msg := "the player client at /client/ has no window.companionDebug test hook (see web/client/README.md): the map client is not built yet" + p.ProblemText()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	JoinAs(t, p, p.Name)
	WaitPlayerReady(t, p)
}

// JoinAs fills the join form (a name and a colour picker) when the page
// shows one, as a person would on a first visit.
func JoinAs(t *testing.T, p *BrowserPage, name string) {
	t.Helper()
	p.WaitFor("the hook to report a connection attempt", `window.companionDebug.state().connection !== undefined`, 10*time.Second)
	if p.Eval(`window.companionDebug.state().joined`) == true {
		return
	}
	p.WaitFor("the join form", `document.querySelector("form input[type=color]")`, 15*time.Second)
	p.EvalInto(fmt.Sprintf(`(() => {
		const form = document.querySelector("form input[type=color]").form;
		const text = form.querySelector("input[type=text], input:not([type])");
		text.value = %q;
		text.dispatchEvent(new Event("input", {bubbles: true}));
		form.requestSubmit();
		return true;
	})()`, name), nil)
}

// WaitPlayerReady waits until the page is joined, connected, and has drawn
// the map's background after its queued events.
func WaitPlayerReady(t *testing.T, p *BrowserPage) {
	t.Helper()
	p.WaitFor("the map to be drawn", `(() => {
		const s = window.companionDebug.state();
		return s.joined && s.connection === "open" && s.map && s.map.backgroundLoaded && s.frames > 0;
	})()`, 30*time.Second)
	p.Idle()
}

// Idle waits for companionDebug.idle(): queued events applied and a frame
// rendered after them.
func (p *BrowserPage) Idle() {
	p.T.Helper()
	p.EvalInto(`window.companionDebug.idle()`, nil)
}

// State returns the page's companionDebug.state().
func (p *BrowserPage) State() playerState {
	p.T.Helper()
	var s playerState
	p.EvalInto(`window.companionDebug.state()`, &s)
	return s
}

// MapToScreen returns the page CSS pixel where map point (x, y) is drawn.
func (p *BrowserPage) MapToScreen(x, y float64) (float64, float64) {
	p.T.Helper()
	var pt struct{ X, Y float64 }
	p.EvalInto(fmt.Sprintf(`window.companionDebug.mapToScreen(%g, %g)`, x, y), &pt)
	return pt.X, pt.Y
}

// CanvasAt reports whether page pixel (x, y) shows the map canvas, not a
// panel drawn over it: pixel checks only count such points.
func (p *BrowserPage) CanvasAt(x, y float64) bool {
	p.T.Helper()
	var ok bool
	p.EvalInto(fmt.Sprintf(`(() => { const e = document.elementFromPoint(%g, %g); return !!e && e.tagName === "CANVAS"; })()`, x, y), &ok)
	return ok
}

// VisibleAt reports companionDebug.isVisibleAt(x, y).
func (p *BrowserPage) VisibleAt(x, y float64) bool {
	p.T.Helper()
	var v bool
	p.EvalInto(fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g)`, x, y), &v)
	return v
}

// Pixel returns the colour of img at page pixel (x, y), or ok false when
// that is outside the image.
func Pixel(img image.Image, x, y float64) (color.RGBA, bool) {
	px, py := int(math.Round(x)), int(math.Round(y))
	if !(image.Point{px, py}.In(img.Bounds())) {
		return color.RGBA{}, false
	}
	r, g, b, a := img.At(px, py).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}, true
}

// ColourDistance is the sum of the absolute channel differences.
func ColourDistance(a, b color.RGBA) int {
	abs := func(v int) int {
		if v < 0 {
			return -v
		}
		return v
	}
	return abs(int(a.R)-int(b.R)) + abs(int(a.G)-int(b.G)) + abs(int(a.B)-int(b.B))
}

func Luminance(c color.RGBA) float64 {
	return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
}

// HiddenTokenLeaks returns a description of each place in the JSON texts
// where the token id appears with more than {id, hidden: true, size: ""} (the only
// form a hidden token may reach a player in), or where any of the extra
// strings (e.g. its vision id) appears at all.
func HiddenTokenLeaks(texts []string, id string, extra ...string) []string {
	var leaks []string
	for i, text := range texts {
		for _, s := range extra {
			if strings.Contains(text, s) {
				leaks = append(leaks, fmt.Sprintf("#%d contains %q: %.300s", i, s, text))
			}
		}
		if !strings.Contains(text, id) {
			continue
		}
		var v any
		if json.Unmarshal([]byte(text), &v) != nil {
			leaks = append(leaks, fmt.Sprintf("#%d (not JSON) contains the id: %.300s", i, text))
			continue
		}
		walkJSON(v, func(obj map[string]any) {
			// A combatant may name the token (tokenId); only the token
			// itself, with its place and looks, is the leak.
			if obj["id"] != id {
				return
			}
			for k, v := range obj {
				// The empty size of the hidden token's stub tells nothing
				// (core/views.go, hiddenToken).
				if k != "id" && k != "hidden" && (k != "size" || v != "") {
					leaks = append(leaks, fmt.Sprintf("#%d carries the token with key %q: %.300s", i, k, text))
					return
				}
			}
		})
		// Keys may name tokens too (the old lineOfSightUpdated vision map).
		walkJSON(v, func(obj map[string]any) {
			if _, ok := obj[id]; ok {
				leaks = append(leaks, fmt.Sprintf("#%d has the id as a key: %.300s", i, text))
			}
		})
	}
	return leaks
}

// walkJSON calls fn on every object inside v.
func walkJSON(v any, fn func(map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		fn(v)
		for _, x := range v {
			walkJSON(x, fn)
		}
	case []any:
		for _, x := range v {
			walkJSON(x, fn)
		}
	}
}

// FetchedAPI returns the GET /api bodies the page received (fetchRecorder).
func (p *BrowserPage) FetchedAPI() []string {
	p.T.Helper()
	var out []string
	p.EvalInto(`window.__testFetched || []`, &out)
	return out
}

// NoOverflow fails the test when the page scrolls: the document must fit
// the viewport, with no horizontal scroll at all.
func NoOverflow(t *testing.T, p *BrowserPage) {
	t.Helper()
	var m struct {
		ScrollWidth, ClientWidth, ScrollHeight, ClientHeight, InnerWidth float64
	}
	p.EvalInto(`(() => { const e = document.scrollingElement; return {
		ScrollWidth: e.scrollWidth, ClientWidth: e.clientWidth,
		ScrollHeight: e.scrollHeight, ClientHeight: e.clientHeight, InnerWidth: window.innerWidth}; })()`, &m)
	if m.ScrollWidth > m.ClientWidth || m.ClientWidth > m.InnerWidth {
		t.Errorf("page %s scrolls horizontally: scrollWidth %v > clientWidth %v (innerWidth %v)", p.Name, m.ScrollWidth, m.ClientWidth, m.InnerWidth)
	}
	if m.ScrollHeight > m.ClientHeight {
		t.Errorf("page %s overflows vertically: scrollHeight %v > clientHeight %v", p.Name, m.ScrollHeight, m.ClientHeight)
	}
}

// DemoGrid is the demo map's grid size: 1400x980, the west nave holds
// the party.
const DemoGrid = 70.0

// DragInPage drags with real mouse events from map point (fromX, fromY) to
// (toX, toY) in steps of a few pixels, paced like a hand (about 60 moves a
// second), calling during(i) after move i (nil: nothing) while the button
// is still down.
func DragInPage(t *testing.T, p *BrowserPage, fromX, fromY, toX, toY float64, steps int, during func(i int)) {
	t.Helper()
	ax, ay := p.MapToScreen(fromX, fromY)
	bx, by := p.MapToScreen(toX, toY)
	p.Mouse(input.DispatchMouseEventTypeMouseMoved, ax, ay, 0)
	p.Mouse(input.DispatchMouseEventTypeMousePressed, ax, ay, 1)
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		p.Mouse(input.DispatchMouseEventTypeMouseMoved, ax+(bx-ax)*f, ay+(by-ay)*f, 1)
		time.Sleep(16 * time.Millisecond) // input pacing, not a wait for a result
		if during != nil {
			during(i)
		}
	}
	p.Mouse(input.DispatchMouseEventTypeMouseReleased, bx, by, 0)
}

// UncoveredToken returns the first of the tokens whose place and the
// cells up to cells east of it are drawn on the map canvas, not under one
// of the page's panels, so that real pointer events reach it.
func UncoveredToken(t *testing.T, p *BrowserPage, cells float64, ids ...string) (string, float64, float64) {
	t.Helper()
	s := p.State()
	for _, id := range ids {
		tok := s.Token(id)
		if tok == nil {
			continue
		}
		var open bool
		p.EvalInto(fmt.Sprintf(`(() => {
			const d = window.companionDebug;
			for (let dx = 0; dx <= %g; dx += 10) {
				const s = d.mapToScreen(%g + dx, %g);
				const e = document.elementFromPoint(s.x, s.y);
				if (!e || e.tagName !== "CANVAS") return false;
			}
			return true;
		})()`, cells*DemoGrid, tok.X, tok.Y), &open)
		if open {
			return id, tok.X, tok.Y
		}
	}
	SaveScreenshot(t, p, "covered-tokens")
	t.Fatalf("page %s covers every one of the tokens %v with something other than the map canvas", p.Name, ids)
	return "", 0, 0
}

// quality mirrors companionDebug.state().quality.
type quality struct {
	Level          int     `json:"level"`
	Lowered        bool    `json:"lowered"`
	Pinned         bool    `json:"pinned"`
	Antialias      bool    `json:"antialias"`
	Resolution     float64 `json:"resolution"`
	Darkness       int     `json:"darkness"`
	MaxTextureSize int     `json:"maxTextureSize"`
	Animating      bool    `json:"animating"`
	Notice         bool    `json:"notice"`
}

func (p *BrowserPage) Quality() quality {
	p.T.Helper()
	var q quality
	p.EvalInto(`window.companionDebug.state().quality`, &q)
	return q
}

// CheckMapImagePixels: the map image is a checkerboard of lighter and
// darker floor tiles. Between neighbouring visible cells the page's
// pixels must get lighter or darker as the image's do (lighting changes
// slowly across the map, the checkerboard flips every cell), so the image
// is drawn, and where it belongs.
func CheckMapImagePixels(t *testing.T, p *BrowserPage, shot image.Image) {
	t.Helper()
	src := DecodePNGFile(t, "../../examples/dnd5e/sample/campaign/maps/drowned-chapel.png")
	occupied := map[[2]int]bool{}
	for _, tok := range p.State().Tokens {
		occupied[[2]int{int(tok.X / DemoGrid), int(tok.Y / DemoGrid)}] = true
	}
	type sample struct{ src, page float64 }
	cell := func(col, row int) (sample, bool) {
		if occupied[[2]int{col, row}] {
			return sample{}, false
		}
		x, y := float64(col)*DemoGrid+DemoGrid/2, float64(row)*DemoGrid+DemoGrid/2
		if !p.VisibleAt(x, y) {
			return sample{}, false
		}
		sx, sy := p.MapToScreen(x, y)
		c, ok := Pixel(shot, sx, sy)
		if !ok || !p.CanvasAt(sx, sy) {
			return sample{}, false
		}
		s, _ := Pixel(src, x, y)
		return sample{Luminance(s), Luminance(c)}, true
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

// DecodePNGFile reads a PNG file of the repository, failing the test
// when it cannot.
func DecodePNGFile(t *testing.T, path string) image.Image {
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
