package perf

import (
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/vttapp/companion/tests/e2e"
)

type glWork struct{ Draws, Elements, Uploaded float64 }

// panFrameWork opens the system's map and returns the WebGL work of the
// frame that draws one step of a pan (middle-button drag).
func panFrameWork(t *testing.T, system, name string) glWork {
	t.Helper()
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", system}})
	p := e2e.OpenPlayerWith(t, srv, name, e2e.CountGLWork)
	cx, cy := float64(e2e.DesktopSize.Width)/2, float64(e2e.DesktopSize.Height)/2
	move := func(kind input.DispatchMouseEventType, x, y float64, buttons int64) {
		e2e.MiddleMouse(p, kind, x, y, buttons)
	}
	move(input.DispatchMouseEventTypeMousePressed, cx, cy, 4)
	move(input.DispatchMouseEventTypeMouseMoved, cx+20, cy+10, 4)
	p.Idle()
	p.Idle()
	before := p.State().Viewport
	p.Eval(`(() => { const w = window.__glWork; w.draws = w.elements = w.uploaded = 0; window.__framesBefore = window.companionDebug.state().frames; })()`)
	move(input.DispatchMouseEventTypeMouseMoved, cx+50, cy+25, 4)
	// The frame the move asked for, and nothing else: the test hook's
	// idle() would ask for a full frame on top of it.
	var w glWork
	p.EvalInto(`(async () => {
		while (window.companionDebug.state().frames === window.__framesBefore) await new Promise(r => requestAnimationFrame(r));
		return window.__glWork;
	})()`, &w)
	move(input.DispatchMouseEventTypeMouseReleased, cx+50, cy+25, 0)
	if after := p.State().Viewport; after == before {
		t.Fatalf("%s: the middle-button drag did not pan the map (viewport %+v)", name, after)
	}
	return w
}

// TestPlayerClientPanFrameWork: a pan frame of a map with 500 tokens does
// little more WebGL work than the same map with only its 20 seeing
// tokens. A token is a few textured quads from shared textures (its disc
// and ring, its label's glyphs from one atlas), batched together; and a
// pan moves the map's render group, so no token's vertices are computed
// or uploaded again. Before, each token was hundreds of stroke triangles
// and a label texture of its own, and every pan frame re-uploaded every
// token's vertices.
//
// The frame measured is the first of a pan after the map was drawn: it
// draws the whole scene once, into the saved frame (screencache.ts), and
// shows it; browser_pan_replay_test.go holds the frames after it, which
// draw only the saved frame. Both maps have the same seeing tokens: a
// map nobody sees is all darkness, and the renderer then draws less of
// the map under it, which is not what a token costs.
func TestPlayerClientPanFrameWork(t *testing.T) {
	t.Parallel()
	few := panFrameWork(t, e2e.CrowdedSystem(t, 20, 20, 400), "20 tokens")
	crowded := panFrameWork(t, e2e.CrowdedSystem(t, 500, 20, 400), "500 tokens")
	t.Logf("a pan frame: %.0f draw calls, %.0f indices drawn, %.0f bytes uploaded with 500 tokens; %.0f, %.0f, %.0f with 20",
		crowded.Draws, crowded.Elements, crowded.Uploaded, few.Draws, few.Elements, few.Uploaded)
	if extra := crowded.Draws - few.Draws; extra > 8 {
		t.Errorf("480 more tokens add %.0f draw calls to a pan frame; want at most 8 (tokens share textures and batches)", extra)
	}
	// A quad is 6 indices: disc and ring (one quad for a plain token) and
	// up to three label glyphs is 24; 40 leaves room, a stroked ellipse
	// alone was over 200.
	if extra := crowded.Elements - few.Elements; extra > 480*40 {
		t.Errorf("480 more tokens add %.0f indices to a pan frame (%.0f a token); want at most 40 a token (a few quads)", extra, extra/480)
	}
	// A pan changes the render group's transform, not the tokens' vertices.
	if crowded.Uploaded > 64*1024 {
		t.Errorf("a pan frame with 500 tokens uploaded %.0f bytes of buffers; want under 64 KB (a pan moves the render group, not each token)", crowded.Uploaded)
	}
}
