package playerview

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/tests/e2e"
)

// slowFrames is an init script: while window.__slow is set, every
// animation frame of the page takes at least 90 ms of script, as on a
// device that cannot keep up.
const slowFrames = `(() => {
	const raf = window.requestAnimationFrame.bind(window);
	const spin = () => {
		if (window.__slow) { const t = performance.now(); while (performance.now() - t < 90) {} }
		raf(spin);
	};
	raf(spin);
})()`

// busyMap asks the page for n frames in a row (each one waits for the
// one before: frames drawn back to back, as while a map pans).
func busyMap(p *e2e.BrowserPage, n int) {
	p.T.Helper()
	p.EvalInto(`(async () => { for (let i = 0; i < `+strconv.Itoa(n)+`; i++) await window.companionDebug.idle(); })()`, nil)
}

// TestPlayerClientLowersQualityOnLongFrames: frames of 90 ms and more
// lower the darkness's resolution, the player sees a one-line notice, the
// next visit starts lowered, and "Restore full quality" (a real click)
// brings full quality back for good on this device.
func TestPlayerClientLowersQualityOnLongFrames(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.OpenPlayerWith(t, srv, "Slow tablet", slowFrames)
	q := p.Quality()
	if q.Lowered || q.Notice || q.Darkness != 1024 {
		t.Fatalf("a first visit starts lowered: %+v", q)
	}
	if q.Antialias {
		t.Errorf("a first visit asks for multisampling: %+v", q)
	}
	p.Eval(`window.__slow = true`)
	deadline := time.Now().Add(90 * time.Second)
	for !p.Quality().Lowered {
		if time.Now().After(deadline) {
			t.Fatalf("90 ms frames drawn back to back did not lower quality: %+v", p.Quality())
		}
		busyMap(p, 15)
	}
	p.Eval(`window.__slow = false`)
	p.Idle()
	q = p.Quality()
	if q.Darkness > 512 {
		t.Errorf("quality lowered but the darkness mask is still %d texels", q.Darkness)
	}
	// What the player sees: one line, on screen, saying so, with the way back.
	var shown struct {
		Text   string
		Height float64
		Top    float64
		Lines  int
	}
	p.EvalInto(`(() => {
		const n = document.querySelector(".quality-notice");
		if (!n || n.hidden) return {Text: "", Height: 0, Top: 0, Lines: 0};
		const b = n.getBoundingClientRect();
		const line = parseFloat(getComputedStyle(n).lineHeight) || 20;
		return {Text: n.innerText, Height: b.height, Top: b.top, Lines: Math.round(b.height / Math.max(line, 1))};
	})()`, &shown)
	e2e.SaveScreenshot(t, p, "lowered")
	if !strings.Contains(shown.Text, "quality lowered") || !strings.Contains(shown.Text, "Restore full quality") {
		t.Fatalf("the page shows no notice of the lowered quality with a way back (text %q)", shown.Text)
	}
	if shown.Height > 48 || shown.Top < 0 || shown.Top > 200 {
		t.Errorf("the notice is not one line near the top: %+v", shown)
	}
	var blur string
	p.EvalInto(`getComputedStyle(document.querySelector(".panel-body")).backdropFilter`, &blur)
	if blur != "none" {
		t.Errorf("at lowered quality the panels still blur the map under them (backdrop-filter %q)", blur)
	}

	// The next visit starts where this one ended, notice included.
	p.Navigate(srv.URL + "/client/")
	e2e.WaitPlayerReady(t, p)
	if q2 := p.Quality(); q2.Level != q.Level || !q2.Notice {
		t.Errorf("after a reload quality is %+v, want level %d with the notice", q2, q.Level)
	}

	p.ClickElement("the restore button", `document.querySelector(".quality-notice:not([hidden]) .restore")`)
	p.Idle()
	q = p.Quality()
	if q.Lowered || !q.Pinned || q.Notice || q.Darkness != 1024 {
		t.Errorf("after Restore full quality: %+v, want full quality, pinned, no notice, a 1024-texel darkness", q)
	}
	p.EvalInto(`getComputedStyle(document.querySelector(".panel-body")).backdropFilter`, &blur)
	if blur != "none" {
		// Not at full quality either: the browser blurred the map under
		// each panel on every frame of the map (app.css).
		t.Errorf("at full quality the panels blur the map under them (backdrop-filter %q)", blur)
	}
	// Pinned: slow frames lower nothing any more, on this device.
	p.Eval(`window.__slow = true`)
	for range 4 {
		busyMap(p, 15) // two windows of frames at least
	}
	p.Eval(`window.__slow = false`)
	p.Navigate(srv.URL + "/client/")
	e2e.WaitPlayerReady(t, p)
	if q := p.Quality(); q.Lowered || q.Notice {
		t.Errorf("after restoring, slow frames and a reload lowered quality again: %+v", q)
	}
}

// smallTextures is an init script that makes WebGL behave as on a device
// whose largest texture is 512 pixels: MAX_TEXTURE_SIZE says so, and an
// upload larger than that is refused (nothing is uploaded), as a tablet's
// driver refuses it.
const smallTextures = `(() => {
	const max = 512;
	for (const C of [WebGLRenderingContext, WebGL2RenderingContext]) {
		const P = C.prototype;
		const get = P.getParameter;
		P.getParameter = function (p) { return p === this.MAX_TEXTURE_SIZE ? max : get.call(this, p); };
		const big = (w, h) => w > max || h > max;
		const size = s => s && typeof s === "object" ? [s.naturalWidth || s.videoWidth || s.width || 0, s.naturalHeight || s.videoHeight || s.height || 0] : [0, 0];
		for (const name of ["texImage2D", "texSubImage2D"]) {
			const f = P[name];
			P[name] = function (...a) {
				const sub = name === "texSubImage2D";
				const [w, h] = a.length <= (sub ? 7 : 6) ? size(a[a.length - 1]) : [a[sub ? 4 : 3], a[sub ? 5 : 4]];
				if (big(w, h)) { window.__refusedUploads = (window.__refusedUploads || 0) + 1; return; }
				return f.apply(this, a);
			};
		}
		if (P.texStorage2D) {
			const f = P.texStorage2D;
			P.texStorage2D = function (t, l, fmt, w, h) {
				if (big(w, h)) { window.__refusedUploads = (window.__refusedUploads || 0) + 1; return; }
				return f.apply(this, arguments);
			};
		}
	}
})()`

// TestPlayerClientCapsTexturesAtTheDeviceLimit: on a device whose
// largest texture is 512 pixels, the 1400x980 map image still draws (a
// smaller copy of it), and nothing larger is ever uploaded.
func TestPlayerClientCapsTexturesAtTheDeviceLimit(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.OpenPlayerWith(t, srv, "Small tablet", smallTextures)
	p.Idle()
	q := p.Quality()
	if q.MaxTextureSize != 512 {
		t.Fatalf("the page read a largest texture of %d, want the device's 512", q.MaxTextureSize)
	}
	if q.Darkness > 512 {
		t.Errorf("the darkness mask is %d texels, past the device's 512", q.Darkness)
	}
	var refused int
	p.EvalInto(`window.__refusedUploads || 0`, &refused)
	if refused > 0 {
		t.Errorf("the page tried %d texture uploads larger than the device's limit", refused)
	}
	shot := e2e.SaveScreenshot(t, p, "small-textures")
	e2e.CheckMapImagePixels(t, p, shot)
}

// countAnimationFrames is an init script counting the page's calls of
// requestAnimationFrame (PixiJS's and the client's alike).
const countAnimationFrames = `(() => {
	window.__rafCalls = 0;
	const raf = window.requestAnimationFrame.bind(window);
	window.requestAnimationFrame = cb => { window.__rafCalls++; return raf(cb); };
})()`

// TestPlayerClientIdleMapStopsAnimationFrames: a map where nothing
// changes stops asking for animation frames (a phone is not woken sixty
// times a second to draw nothing), and wakes at once for a change.
func TestPlayerClientIdleMapStopsAnimationFrames(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.OpenPlayerWith(t, srv, "Idle", countAnimationFrames)
	p.WaitFor("the map to go idle", `!window.companionDebug.state().quality.animating`, 30*time.Second)
	var calls int
	p.EvalInto(`(async () => {
		const n0 = window.__rafCalls;
		await new Promise(r => setTimeout(r, 1000));
		return window.__rafCalls - n0;
	})()`, &calls)
	if calls > 2 {
		t.Errorf("an idle map asked for %d animation frames in a second; want none", calls)
	}
	before := p.State().Frames
	p.Idle()
	if after := p.State().Frames; after <= before {
		t.Errorf("a frame asked for on an idle map was not drawn (%d -> %d)", before, after)
	}
	// Someone else's move wakes it too: the token is drawn at its new place.
	a := e2e.OpenPlayerWith(t, srv, "Mover")
	id, x, y := e2e.UncoveredToken(t, a, 2, e2e.DemoBrannocID, e2e.DemoIlsaID, e2e.DemoQuillID)
	p.WaitFor("the map to go idle again", `!window.companionDebug.state().quality.animating`, 30*time.Second)
	e2e.DragInPage(t, a, x, y, x+2*e2e.DemoGrid, y, 10, nil)
	p.WaitFor("the moved token drawn", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && Math.abs(t.drawnX - %g) < 1)`, id, x+2*e2e.DemoGrid), 20*time.Second)
}

// TestPlayerClientLowersCanvasResolutionNotText: on a screen of two
// device pixels per CSS pixel, long frames lower the canvas's resolution
// (fewer pixels to draw) and stop at one canvas pixel per CSS pixel; the
// page's own text keeps the device's full resolution (it is not on the
// canvas), and "Restore full quality" gives the canvas its two device
// pixels back. The device starts where an earlier visit left it (level 2:
// the darkness lowered, the canvas at 1.5), so that the test waits for one
// step down, not three.
func TestPlayerClientLowersCanvasResolutionNotText(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	// A small window: the frames are slow on purpose, their pixels need not be.
	size := e2e.ViewportSize{Width: 640, Height: 400, Mobile: false}
	p := e2e.NewPage(t, "Slow high-DPI tablet", size)
	p.Do(chromedp.EmulateViewport(size.Width, size.Height, chromedp.EmulateScale(2)))
	p.AddInitScript(e2e.RememberedPlayer("Slow high-DPI tablet"))
	p.AddInitScript(slowFrames)
	p.AddInitScript(`localStorage.setItem("companion.quality", JSON.stringify({level: 2}))`)
	p.Navigate(srv.URL + "/client/")
	e2e.WaitPlayerReady(t, p)
	type canvasState struct {
		Resolution, CanvasWidth, DPR, TitleFont float64
		Title                                   string
	}
	read := func() canvasState {
		var c canvasState
		p.EvalInto(`(() => {
			const c = document.querySelector("#map canvas");
			const title = document.getElementById("map-title");
			return {Resolution: window.companionDebug.state().quality.resolution, CanvasWidth: c.width, DPR: window.devicePixelRatio,
				TitleFont: parseFloat(getComputedStyle(title).fontSize), Title: title.textContent};
		})()`, &c)
		return c
	}
	start := read()
	if start.DPR != 2 || start.Resolution != 1.5 || math.Abs(start.CanvasWidth-1.5*float64(size.Width)) > 4 {
		t.Fatalf("a high-DPI device at level 2 does not draw its canvas at 1.5 device pixels per CSS pixel: %+v", start)
	}
	p.Eval(`window.__slow = true`)
	deadline := time.Now().Add(150 * time.Second)
	for p.Quality().Resolution > 1 {
		if time.Now().After(deadline) {
			t.Fatalf("90 ms frames did not lower the canvas's resolution: %+v", p.Quality())
		}
		busyMap(p, 8)
	}
	// Still slow: more windows of long frames, and the canvas never goes under one pixel per CSS pixel.
	for range 6 {
		busyMap(p, 8) // two windows of frames at least
	}
	p.Eval(`window.__slow = false`)
	p.Idle()
	low := read()
	q := p.Quality()
	t.Logf("at level 2 %+v; lowered %+v (%+v)", start, low, q)
	if low.Resolution != 1 || low.CanvasWidth > float64(size.Width)+4 || low.CanvasWidth < float64(size.Width)-4 {
		t.Errorf("lowered: canvas resolution %v, %v device pixels wide; want 1, %d (never under one per CSS pixel)", low.Resolution, low.CanvasWidth, size.Width)
	}
	if q.Darkness > 256 || !q.Notice {
		t.Errorf("lowered to the last level, yet the darkness is %d texels (notice shown: %v)", q.Darkness, q.Notice)
	}
	if low.DPR != 2 || low.TitleFont != start.TitleFont || low.Title != start.Title {
		t.Errorf("the page's text changed with the map's quality: %+v, was %+v", low, start)
	}
	p.ClickElement("the restore button", `document.querySelector(".quality-notice:not([hidden]) .restore")`)
	p.Idle()
	if back := read(); back.Resolution != 2 || back.CanvasWidth < 2*float64(size.Width)-4 {
		t.Errorf("after Restore full quality the canvas is %+v, want two device pixels per CSS pixel", back)
	}
}

// TestPlayerClientKeepsQualityDuringAPan: slow frames while the map pans
// do not change quality in the middle of the pan (a new darkness size
// draws the whole map again, and the pan's saved frame with it: the
// longest frames a pan had); the change comes once the view rests.
func TestPlayerClientKeepsQualityDuringAPan(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.OpenPlayerWith(t, srv, "Slow pan", slowFrames)
	if q := p.Quality(); q.Lowered || q.Darkness != 1024 {
		t.Fatalf("a first visit starts lowered: %+v", q)
	}
	p.Eval(`window.__slow = true`)
	// A pan with the middle button, a pointer move in every animation frame
	// until it has drawn 40 frames, each at least 90 ms long: more than one
	// measuring window (24 frames drawn back to back).
	var pan struct {
		Darkness []int // the darkness mask's side drawn in each frame of the pan
		Notice   bool
		Frames   int
	}
	p.EvalInto(`new Promise((done) => {
		const c = document.querySelector("#map canvas"), r = c.getBoundingClientRect();
		const x0 = r.left + r.width / 2, y0 = r.top + r.height / 2;
		const send = (type, x, y, buttons) => c.dispatchEvent(new PointerEvent(type, {
			clientX: x, clientY: y, button: type === "pointermove" ? -1 : 1, buttons, pointerId: 7, pointerType: "mouse", isPrimary: true, bubbles: true,
		}));
		const f0 = window.companionDebug.state().frames, t0 = performance.now();
		const sides = new Set();
		let notice = false, i = 0;
		send("pointerdown", x0, y0, 4);
		const step = () => {
			i++;
			const dx = 3 * (i % 40);
			send("pointermove", x0 + dx, y0 + dx / 2, 4);
			const q = window.companionDebug.state().quality;
			sides.add(q.darkness);
			notice = notice || q.notice;
			if (window.companionDebug.state().frames - f0 < 40 && performance.now() - t0 < 60000) return requestAnimationFrame(step);
			send("pointerup", x0 + dx, y0 + dx / 2, 0);
			done({Darkness: [...sides], Notice: notice, Frames: window.companionDebug.state().frames - f0});
		};
		requestAnimationFrame(step);
	})`, &pan)
	if pan.Frames < 40 {
		t.Fatalf("the pan drew %d frames in 60 s: not a pan to judge", pan.Frames)
	}
	if len(pan.Darkness) != 1 || pan.Darkness[0] != 1024 || pan.Notice {
		t.Fatalf("quality changed in the middle of a pan of %d frames: darkness mask sides %v, notice %v", pan.Frames, pan.Darkness, pan.Notice)
	}
	// Once the view rests, the slow frames' verdict applies.
	deadline := time.Now().Add(60 * time.Second)
	for q := p.Quality(); q.Darkness > 512 || !q.Notice; q = p.Quality() {
		if time.Now().After(deadline) {
			t.Fatalf("a slow pan of %d frames never lowered quality once the view rested: %+v", pan.Frames, q)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
