package e2e

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/chromedp/cdproto/input"
)

func PerfEnabled(t *testing.T) {
	t.Helper()
	if os.Getenv("COMPANION_BROWSER_PERF") != "1" {
		t.Skip("browser performance figures: set COMPANION_BROWSER_PERF=1 to measure them")
	}
}

// RememberedPlayer is an init script that stores a joined player in the
// page's localStorage (the key web/client/README.md documents), so that
// timings do not include a person typing a name.
func RememberedPlayer(name string) string {
	return fmt.Sprintf(`localStorage.setItem("companion.player", JSON.stringify({name: %q, color: "#4363d8"}))`, name)
}

// CrowdedSystem is the demo system with its map holding tokens tokens
// (copies of the first, spread over the floor with a fixed seed, the
// first visionTokens of them with vision) and walls extra wall segments
// (small four-sided pillars) besides the chapel's own.
func CrowdedSystem(t *testing.T, tokens, visionTokens, segments int) string {
	return DemoSystem(t, func(maps []map[string]any, screen map[string]any) {
		m := maps[0]
		template := MapTokens(m)[0]
		rng := rand.New(rand.NewPCG(12, 34))
		var list []any
		for i := range tokens {
			tok := map[string]any{}
			for k, v := range template {
				tok[k] = v
			}
			tok["id"] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1)
			tok["name"] = fmt.Sprintf("Token %d", i+1)
			tok["label"] = fmt.Sprint(i + 1)
			tok["x"] = 35 + 70*float64(1+rng.IntN(18))
			tok["y"] = 35 + 70*float64(1+rng.IntN(12))
			vision := map[string]any{}
			for k, v := range template["vision"].(map[string]any) {
				vision[k] = v
			}
			vision["id"] = fmt.Sprintf("00000000-0000-4000-9000-%012d", i+1)
			vision["enabled"] = i < visionTokens
			vision["light"] = false
			tok["vision"] = vision
			delete(tok, "reference") // no entity image to fetch: a disc
			list = append(list, tok)
		}
		m["tokens"] = list
		walls := m["walls"].([]any)
		for i := 0; i < segments/4; i++ {
			x := 100 + float64(rng.IntN(1200))
			y := 100 + float64(rng.IntN(780))
			walls = append(walls, map[string]any{
				"id":   fmt.Sprintf("00000000-0000-4000-a000-%012d", i+1),
				"data": []float64{x, y, x + 20, y, x + 20, y + 20, x, y + 20, x, y},
				"type": "normal",
			})
		}
		m["walls"] = walls
	})
}

// MiddleMouse dispatches a middle-button mouse event at page pixel (x, y).
func MiddleMouse(p *BrowserPage, kind input.DispatchMouseEventType, x, y float64, buttons int64) {
	params := input.DispatchMouseEventParams{Type: kind, X: x, Y: y, Buttons: buttons, Button: input.MouseButtonMiddle, PointerType: input.DispatchMouseEventPointerTypeMouse}
	if kind == input.DispatchMouseEventTypeMouseMoved && buttons == 0 {
		params.Button = input.MouseButtonNone
	}
	p.Do(ChromedpCall(input.DispatchMouseEvent, params))
}

// MiddlePan pans the map with the middle mouse button (a left press on a
// token would drag the token) from the page's centre, back and forth by
// 6 px a step, for steps pointer moves.
func MiddlePan(p *BrowserPage, steps int) {
	cx, cy := float64(DesktopSize.Width)/2, float64(DesktopSize.Height)/2
	MiddleMouse(p, input.DispatchMouseEventTypeMouseMoved, cx, cy, 0)
	MiddleMouse(p, input.DispatchMouseEventTypeMousePressed, cx, cy, 4)
	for i := 1; i <= steps; i++ {
		dx := 6 * float64(i%20)
		if (i/20)%2 == 1 {
			dx = 6 * float64(20-i%20)
		}
		MiddleMouse(p, input.DispatchMouseEventTypeMouseMoved, cx+dx, cy+dx/2, 4)
	}
	MiddleMouse(p, input.DispatchMouseEventTypeMouseReleased, cx, cy, 0)
}

// Percentile of sorted durations (ms), nearest rank.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// CountDrawCalls is an init script that counts the WebGL draw calls and
// shader switches of the page's contexts, for drawCallsPerFrame.
const CountDrawCalls = `(() => {
	window.__gl = {draws: 0, programs: 0, stencils: 0};
	const getContext = HTMLCanvasElement.prototype.getContext;
	HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
		const gl = getContext.call(this, kind, ...rest);
		if (gl && /webgl/.test(kind) && !gl.__counted) {
			gl.__counted = true;
			for (const [name, key] of [["drawElements", "draws"], ["drawArrays", "draws"], ["useProgram", "programs"], ["stencilFunc", "stencils"]]) {
				const f = gl[name].bind(gl);
				gl[name] = (...a) => { window.__gl[key]++; return f(...a); };
			}
		}
		return gl;
	};
})()`

// OpenPlayerWith opens a joined player page on the server with init
// scripts installed before the page's own code runs.
func OpenPlayerWith(t *testing.T, srv *Server, name string, scripts ...string) *BrowserPage {
	t.Helper()
	p := NewPage(t, name, DesktopSize)
	p.AddInitScript(RememberedPlayer(name))
	for _, s := range scripts {
		p.AddInitScript(s)
	}
	p.Navigate(srv.URL + "/client/")
	WaitPlayerReady(t, p)
	return p
}

// CountGLWork is an init script that counts, on the page's WebGL contexts,
// draw calls, the indices and vertices they draw (a measure of triangles),
// and the bytes uploaded into buffers.
const CountGLWork = `(() => {
	const w = window.__glWork = {draws: 0, elements: 0, uploaded: 0};
	const getContext = HTMLCanvasElement.prototype.getContext;
	HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
		const gl = getContext.call(this, kind, ...rest);
		if (gl && /webgl/.test(kind) && !gl.__workCounted) {
			gl.__workCounted = true;
			const size = d => typeof d === "number" ? d : (d && d.byteLength) || 0;
			const wrap = (name, f) => { const g = gl[name].bind(gl); gl[name] = (...a) => { f(a); return g(...a); }; };
			wrap("drawElements", a => { w.draws++; w.elements += a[1]; });
			wrap("drawArrays", a => { w.draws++; w.elements += a[2]; });
			wrap("bufferData", a => { w.uploaded += size(a[1]); });
			wrap("bufferSubData", a => { w.uploaded += a.length > 3 && a[3] ? a[3] * (a[2].BYTES_PER_ELEMENT || 1) : size(a[2]); });
		}
		return gl;
	};
})()`
