package tests

// What a pan frame costs a CPU renderer, counted rather than timed (issue
// 12's frame-time target): SwiftShader spends a pan frame on pixels and
// triangles, and on re-uploading vertices that a pan did not change.
// These run in the ordinary suite; counts do not depend on the machine.

import (
	"testing"

	"github.com/chromedp/cdproto/input"
)

// countGLWork is an init script that counts, on the page's WebGL contexts,
// draw calls, the indices and vertices they draw (a measure of triangles),
// and the bytes uploaded into buffers.
const countGLWork = `(() => {
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

type glWork struct{ Draws, Elements, Uploaded float64 }

// panFrameWork opens the system's map and returns the WebGL work of the
// frame that draws one step of a pan (middle-button drag).
func panFrameWork(t *testing.T, system, name string) glWork {
	t.Helper()
	srv := StartServer(t, ServerOptions{Args: []string{"--system", system}})
	p := openPlayerWith(t, srv, name, countGLWork)
	cx, cy := float64(desktopSize.Width)/2, float64(desktopSize.Height)/2
	move := func(kind input.DispatchMouseEventType, x, y float64, buttons int64) {
		middleMouse(p, kind, x, y, buttons)
	}
	move(input.DispatchMouseEventTypeMousePressed, cx, cy, 4)
	move(input.DispatchMouseEventTypeMouseMoved, cx+20, cy+10, 4)
	p.idle()
	p.idle()
	before := p.state().Viewport
	p.eval(`(() => { const w = window.__glWork; w.draws = w.elements = w.uploaded = 0; window.__framesBefore = window.companionDebug.state().frames; })()`)
	move(input.DispatchMouseEventTypeMouseMoved, cx+50, cy+25, 4)
	// The frame the move asked for, and nothing else: the test hook's
	// idle() would ask for a full frame on top of it.
	var w glWork
	p.evalInto(`(async () => {
		while (window.companionDebug.state().frames === window.__framesBefore) await new Promise(r => requestAnimationFrame(r));
		return window.__glWork;
	})()`, &w)
	move(input.DispatchMouseEventTypeMouseReleased, cx+50, cy+25, 0)
	if after := p.state().Viewport; after == before {
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
	few := panFrameWork(t, crowdedSystem(t, 20, 20, 400), "20 tokens")
	crowded := panFrameWork(t, crowdedSystem(t, 500, 20, 400), "500 tokens")
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
