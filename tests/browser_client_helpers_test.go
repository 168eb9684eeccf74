package tests

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// token returns the state of the token with id, or nil.
func (s playerState) token(id string) *playerToken {
	for i := range s.Tokens {
		if s.Tokens[i].ID == id {
			return &s.Tokens[i]
		}
	}
	return nil
}

// The demo campaign's ids (examples/dnd5e/sample/campaign/maps.json).
const (
	demoMapID     = "5e0ca000-0000-4000-8000-000000000400"
	demoDoorID    = "5e0ca000-0000-4000-8000-000000000203"
	demoBrannocID = "5e0ca000-0000-4000-8000-000000000101" // party, west nave
	demoIlsaID    = "5e0ca000-0000-4000-8000-000000000102"
	demoQuillID   = "5e0ca000-0000-4000-8000-000000000103"
	demoKnightID  = "5e0ca000-0000-4000-8000-000000000104" // monster, east sanctum
	demoHoundID   = "5e0ca000-0000-4000-8000-000000000105"
	// The characters (characters.json): their ids are the seats'.
	demoBrannocChar = "5e0ca000-0000-4000-8000-000000000001"
	demoIlsaChar    = "5e0ca000-0000-4000-8000-000000000002"
	demoQuillChar   = "5e0ca000-0000-4000-8000-000000000003"
)

// demoSystem copies the dnd5e example to a temporary folder and lets edit
// change its sample campaign (the maps document and the screen) before a
// fresh server seeds it: that is how a test sets up fog, hidden tokens or
// a crowded map through nothing but the shipped data format.
func demoSystem(t testing.TB, edit func(maps []map[string]any, screen map[string]any)) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../examples/dnd5e")); err != nil {
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

// mapTokens returns the token list of a maps.json map for editing.
func mapTokens(m map[string]any) []map[string]any {
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

// panelsClosed is an init script that starts the page as a player who
// closed the initiative and chat panels last time (the page remembers
// that in localStorage), so that the map has the whole window.
const panelsClosed = `try {
	localStorage.setItem("companion.panel.initiative", "0");
	localStorage.setItem("companion.panel.chat", "0");
} catch (e) {}`

// qualityPinned keeps a page at full quality, as a player's "restore"
// does: for tests that measure one frame's work, which the page lowering
// its own quality on a loaded machine would change mid-test.
const qualityPinned = `try { localStorage.setItem("companion.quality", JSON.stringify({pinned: true})); } catch (e) {}`

// wireRecorder is an init script that keeps, in the order the page's own
// code sees them, the tokenMoved messages the page sends and receives
// (window.__wire, entries {sent: bool, data}). The order is the page's,
// unlike the DevTools frame events, which reach the test later and on a
// loaded machine out of step with what the page did.
const wireRecorder = `(() => {
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

// wireMessage is one entry of wireRecorder's log.
type wireMessage struct {
	Sent bool
	Data string
}

// openPlayer opens the player client (/client/ plus query) in a new tab,
// joins as name when the page asks, and waits until it is connected with
// the map drawn. It skips (fails under CI=true) when the page has no test
// hook, i.e. the old text client is being served.
func openPlayer(t *testing.T, srv *Server, name string, size viewportSize, query string) *browserPage {
	t.Helper()
	p := startPlayer(t, srv, name, size, query)
	finishPlayer(t, p)
	return p
}

// startPlayer opens the player client in a new tab and returns while it
// loads; finishPlayer joins and waits for it. A test that needs several
// pages starts them all first, so that they load side by side.
func startPlayer(t *testing.T, srv *Server, name string, size viewportSize, query string, scripts ...string) *browserPage {
	t.Helper()
	p := newPage(t, name, size)
	for _, s := range append([]string{fetchRecorder}, scripts...) {
		p.addInitScript(s)
	}
	p.navigateAsync(srv.URL + "/client/" + query)
	return p
}

// finishPlayer is the rest of openPlayer for a page startPlayer opened.
func finishPlayer(t *testing.T, p *browserPage) {
	t.Helper()
	// The page's load (30 s with navigate) and its hook (15 s) together.
	if !p.poll(`window.companionDebug && typeof window.companionDebug.state === "function"`, 45*time.Second) {
		msg := "the player client at /client/ has no window.companionDebug test hook (see web/client/README.md): the map client is not built yet" + p.problemText()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	joinAs(t, p, p.name)
	waitPlayerReady(t, p)
}

// joinAs fills the join form (a name and a colour picker) when the page
// shows one, as a person would on a first visit.
func joinAs(t *testing.T, p *browserPage, name string) {
	t.Helper()
	p.waitFor("the hook to report a connection attempt", `window.companionDebug.state().connection !== undefined`, 10*time.Second)
	if p.eval(`window.companionDebug.state().joined`) == true {
		return
	}
	p.waitFor("the join form", `document.querySelector("form input[type=color]")`, 15*time.Second)
	p.evalInto(fmt.Sprintf(`(() => {
		const form = document.querySelector("form input[type=color]").form;
		const text = form.querySelector("input[type=text], input:not([type])");
		text.value = %q;
		text.dispatchEvent(new Event("input", {bubbles: true}));
		form.requestSubmit();
		return true;
	})()`, name), nil)
}

// waitPlayerReady waits until the page is joined, connected, and has drawn
// the map's background after its queued events.
func waitPlayerReady(t *testing.T, p *browserPage) {
	t.Helper()
	p.waitFor("the map to be drawn", `(() => {
		const s = window.companionDebug.state();
		return s.joined && s.connection === "open" && s.map && s.map.backgroundLoaded && s.frames > 0;
	})()`, 30*time.Second)
	p.idle()
}

// idle waits for companionDebug.idle(): queued events applied and a frame
// rendered after them.
func (p *browserPage) idle() {
	p.t.Helper()
	p.evalInto(`window.companionDebug.idle()`, nil)
}

// state returns the page's companionDebug.state().
func (p *browserPage) state() playerState {
	p.t.Helper()
	var s playerState
	p.evalInto(`window.companionDebug.state()`, &s)
	return s
}

// mapToScreen returns the page CSS pixel where map point (x, y) is drawn.
func (p *browserPage) mapToScreen(x, y float64) (float64, float64) {
	p.t.Helper()
	var pt struct{ X, Y float64 }
	p.evalInto(fmt.Sprintf(`window.companionDebug.mapToScreen(%g, %g)`, x, y), &pt)
	return pt.X, pt.Y
}

// canvasAt reports whether page pixel (x, y) shows the map canvas, not a
// panel drawn over it: pixel checks only count such points.
func (p *browserPage) canvasAt(x, y float64) bool {
	p.t.Helper()
	var ok bool
	p.evalInto(fmt.Sprintf(`(() => { const e = document.elementFromPoint(%g, %g); return !!e && e.tagName === "CANVAS"; })()`, x, y), &ok)
	return ok
}

// visibleAt reports companionDebug.isVisibleAt(x, y).
func (p *browserPage) visibleAt(x, y float64) bool {
	p.t.Helper()
	var v bool
	p.evalInto(fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g)`, x, y), &v)
	return v
}

// pixel returns the colour of img at page pixel (x, y), or ok false when
// that is outside the image.
func pixel(img image.Image, x, y float64) (color.RGBA, bool) {
	px, py := int(math.Round(x)), int(math.Round(y))
	if !(image.Point{px, py}.In(img.Bounds())) {
		return color.RGBA{}, false
	}
	r, g, b, a := img.At(px, py).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}, true
}

// colourDistance is the sum of the absolute channel differences.
func colourDistance(a, b color.RGBA) int {
	abs := func(v int) int {
		if v < 0 {
			return -v
		}
		return v
	}
	return abs(int(a.R)-int(b.R)) + abs(int(a.G)-int(b.G)) + abs(int(a.B)-int(b.B))
}

func luminance(c color.RGBA) float64 {
	return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
}

// hiddenTokenLeaks returns a description of each place in the JSON texts
// where the token id appears with more than {id, hidden: true, size: ""} (the only
// form a hidden token may reach a player in), or where any of the extra
// strings (e.g. its vision id) appears at all.
func hiddenTokenLeaks(texts []string, id string, extra ...string) []string {
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

// fetchedAPI returns the GET /api bodies the page received (fetchRecorder).
func (p *browserPage) fetchedAPI() []string {
	p.t.Helper()
	var out []string
	p.evalInto(`window.__testFetched || []`, &out)
	return out
}

// noOverflow fails the test when the page scrolls: the document must fit
// the viewport, with no horizontal scroll at all.
func noOverflow(t *testing.T, p *browserPage) {
	t.Helper()
	var m struct {
		ScrollWidth, ClientWidth, ScrollHeight, ClientHeight, InnerWidth float64
	}
	p.evalInto(`(() => { const e = document.scrollingElement; return {
		ScrollWidth: e.scrollWidth, ClientWidth: e.clientWidth,
		ScrollHeight: e.scrollHeight, ClientHeight: e.clientHeight, InnerWidth: window.innerWidth}; })()`, &m)
	if m.ScrollWidth > m.ClientWidth || m.ClientWidth > m.InnerWidth {
		t.Errorf("page %s scrolls horizontally: scrollWidth %v > clientWidth %v (innerWidth %v)", p.name, m.ScrollWidth, m.ClientWidth, m.InnerWidth)
	}
	if m.ScrollHeight > m.ClientHeight {
		t.Errorf("page %s overflows vertically: scrollHeight %v > clientHeight %v", p.name, m.ScrollHeight, m.ClientHeight)
	}
}
