package player

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// TestPlayerClientAsksForTheSnapshotBeforeItsBundle: a returning player's
// page asks for GET /api as index.html is read, before the bundle has run
// (its own request waited for the bundle's evaluation: half a second on a
// busy CPU renderer), and the bundle uses that answer and the image
// download it started: one GET /api, one image download.
func TestPlayerClientAsksForTheSnapshotBeforeItsBundle(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.OpenPlayerWith(t, srv, "Early")
	var requests []struct {
		Name  string
		Start float64
	}
	p.EvalInto(`performance.getEntriesByType("resource").map((e) => ({Name: new URL(e.name).pathname, Start: e.startTime}))`, &requests)
	start := map[string][]float64{}
	var image string
	for _, r := range requests {
		start[r.Name] = append(start[r.Name], r.Start)
		if strings.Contains(r.Name, "/maps/") {
			image = r.Name
		}
	}
	if len(start["/api"]) != 1 || len(start["/client/app.js"]) != 1 || image == "" || len(start[image]) != 1 {
		t.Fatalf("want one GET /api, one app.js and one map image download, got %v", start)
	}
	var ran float64
	p.EvalInto(`performance.getEntriesByName("companion:bundle-ran")[0].startTime`, &ran)
	if start["/api"][0] >= ran {
		t.Errorf("GET /api started at %.0f ms, the bundle ran at %.0f ms: the bundle asked for it", start["/api"][0], ran)
	}
	var ok bool
	p.EvalInto(`window.companionDebug.state().map.backgroundLoaded && !window.companionEarly.api && Object.values(window.companionEarly.images).every((v) => v === null)`, &ok)
	if !ok {
		t.Errorf("the page did not take the early answers (window.companionEarly still holds them, or the map has no background)")
	}
}

// firstFramesProbe is an init script that keeps, for the page's start-up,
// every link of a WebGL program: its name (PixiJS names each one in its
// source, #define SHADER_NAME), how many times that same program had
// been linked and how many frames the page had drawn then; the count of
// frames once the first frame with the map was drawn (mapFrame); and
// whether a frame was drawn that showed the map without its background
// image.
const firstFramesProbe = `(() => {
	const probe = window.__firstFrames = {links: [], bare: 0};
	const times = new WeakMap();
	for (const C of [window.WebGL2RenderingContext, window.WebGLRenderingContext]) {
		if (!C) continue;
		const link = C.prototype.linkProgram;
		C.prototype.linkProgram = function (program) {
			link.call(this, program);
			times.set(program, (times.get(program) || 0) + 1);
			const names = this.getAttachedShaders(program).map((s) => ((this.getShaderSource(s) || "").match(/SHADER_NAME\s+(\S+)/) || [])[1]);
			const d = window.companionDebug, st = d && d.state();
			probe.links.push({name: names.join(","), time: times.get(program), frames: st ? st.frames : -1});
		};
	}
	let seen = 0;
	const check = () => {
		const d = window.companionDebug, s = d && d.state();
		if (s && s.frames > seen) {
			seen = s.frames;
			if (s.map && !s.map.backgroundLoaded) probe.bare++;
			if (s.map && probe.mapFrame === undefined) probe.mapFrame = s.frames;
		}
		requestAnimationFrame(check);
	};
	requestAnimationFrame(check);
})()`

// TestPlayerClientFirstMapFrame: the start-up's first map frame has what
// it needs at hand. For a returning player, index.html's script has
// downloaded and decoded the map's image, so the first frame that shows
// the map draws its background too (it used to wait a frame, and on a CPU
// renderer that frame's drawing held the next one back by up to 250 ms).
// No darkness program is linked twice: written in GLSL ES 3.00 on WebGL 2,
// PixiJS does not link it again to place its attributes (and the
// start-up's own link of it is handed to PixiJS, warmup.ts).
func TestPlayerClientFirstMapFrame(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.OpenPlayerWith(t, srv, "First frame", firstFramesProbe)
	p.WaitFor("the darkness drawn", `window.__firstFrames.links.some((l) => l.name.includes("companion-darkness"))`, 20*time.Second)
	var probe struct {
		Links []struct {
			Name   string
			Time   int
			Frames int
		}
		Bare     int
		MapFrame int
	}
	p.EvalInto(`window.__firstFrames`, &probe)
	if probe.Bare != 0 {
		t.Errorf("%d frames showed the map without its background image", probe.Bare)
	}
	var webGL2 bool
	p.EvalInto(`!!document.querySelector("canvas").getContext("webgl2")`, &webGL2)
	relinked, darkness := 0, 0
	for _, l := range probe.Links {
		if strings.Contains(l.Name, "companion-darkness") {
			darkness++
			if l.Time > 1 {
				relinked++
			}
		}
	}
	if darkness == 0 {
		t.Fatalf("no darkness program was linked: %+v", probe.Links)
	}
	// The darkness's polygons are drawn by the batcher: the demo map's
	// first frame needs no program for large shapes. The start-up compiles
	// it ahead without waiting (one link, before any frame) and hands it to
	// PixiJS after the first map frame, for the first drag; PixiJS linking
	// it in the first frame would add two links (its own and a second to
	// place the attributes).
	early := 0
	for _, l := range probe.Links {
		if strings.Contains(l.Name, "graphics-vertex") && l.Frames < probe.MapFrame {
			early++
		}
	}
	// The batcher's program, compiled at start-up with its attributes
	// already where PixiJS puts them, is handed to PixiJS: one link in all
	// (PixiJS linking it would be two more, the second to move them).
	batch := 0
	for _, l := range probe.Links {
		if strings.Contains(l.Name, "batch-vertex") {
			batch++
		}
	}
	if batch != 1 && webGL2 {
		t.Errorf("the batcher's program was linked %d times, want once (the start-up's link, handed to PixiJS); every link: %+v", batch, probe.Links)
	}
	if early > 1 {
		t.Errorf("the program for large shapes was linked %d times before the first map frame was drawn (frame %d): the map waited for it; every link: %+v", early, probe.MapFrame, probe.Links)
	}
	if relinked > 0 && webGL2 {
		t.Errorf("a darkness program was linked again %d times on WebGL 2 (PixiJS placing the attributes of GLSL ES 1.00); every link: %+v", relinked, probe.Links)
	}
}

// slowPicture is an init script: the map's picture (an address with
// /maps/ in it) is decoded as usual but handed to the page only 400 ms
// after the page knows its first map (its "companion:map-known" mark), by
// the page's own clock: a slow network, timed where the page is.
const slowPicture = `(() => {
	let release;
	const released = new Promise((resolve) => { release = resolve; });
	const decode = HTMLImageElement.prototype.decode;
	HTMLImageElement.prototype.decode = function () {
		const done = decode.call(this);
		return this.src.includes("/maps/") ? Promise.all([done, released]).then(() => undefined) : done;
	};
	const look = () => {
		const m = performance.getEntriesByName("companion:map-known")[0];
		if (!m) {
			setTimeout(look, 20);
			return;
		}
		setTimeout(release, Math.max(0, m.startTime + 400 - performance.now()));
	};
	look();
})()`

// TestPlayerClientFirstFrameWaitsForThePicture: the page's first frame
// waits for the map's picture (a while: renderer.ts's firstPictureWaitMs),
// so that the first frame drawn is the whole map. On a CPU renderer each
// frame keeps the GPU process busy for a few hundred milliseconds and the
// next waits for it: a first frame of tokens on the plain floor put the
// frame with the picture that much later. Here the picture comes 400 ms
// after the page knows the map: no frame shows the map without it.
func TestPlayerClientFirstFrameWaitsForThePicture(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.NewPage(t, "Slow picture", e2e.DesktopSize)
	p.AddInitScript(e2e.RememberedPlayer(p.Name))
	p.AddInitScript(slowPicture)
	p.Navigate(srv.URL + "/client/")
	e2e.WaitPlayerReady(t, p)
	var frame struct {
		At                float64
		Tokens            int
		Bare              int
		BareSince         float64
		Shown, Known, Got float64
	}
	p.EvalInto(`({...window.companionDebug.mapFrame(), Shown: window.companionDebug.state().tokens.length,
		Known: performance.getEntriesByName("companion:map-known")[0].startTime,
		Got: performance.getEntriesByName("companion:background-loaded")[0].startTime})`, &frame)
	// A page blocked past the wait (a busy machine: the picture's hand-over
	// is a task like any other) draws without the picture then, as it should.
	if wait := frame.BareSince - frame.Known; frame.Bare != 0 && wait < 950 {
		t.Errorf("%d frames showed the map without its picture, the first %.0f ms after the map was known (the picture came after %.0f ms): want the first frame to wait for it", frame.Bare, wait, frame.Got-frame.Known)
	}
	// The test hook's record of that frame (the floor benchmark's figure).
	if !(frame.At > 0) || frame.Tokens == 0 || float64(frame.Tokens) != frame.Shown {
		t.Errorf("companionDebug.mapFrame() = {at %.0f, tokens %d}, want the frame's end and the map's %.0f tokens", frame.At, frame.Tokens, frame.Shown)
	}
}

// TestPlayerClientPictureTooSlowToWaitFor: a picture that does not come
// does not keep the map off the screen; the tokens are drawn without it
// after the first frame's wait, and the picture when it comes.
func TestPlayerClientPictureTooSlowToWaitFor(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.NewPage(t, "Stalled picture", e2e.DesktopSize)
	p.AddInitScript(e2e.RememberedPlayer(p.Name))
	release := p.HoldRequests("*/maps/*")
	p.NavigateAsync(srv.URL + "/client/")
	p.WaitFor("the map drawn without its picture while the picture is held", `(() => {
		const d = window.companionDebug, s = d && d.state();
		return !!s && !!s.map && s.tokens.length > 0 && s.frames > 0 && !s.map.backgroundLoaded;
	})()`, 20*time.Second)
	release()
	e2e.WaitPlayerReady(t, p)
}

// TestPlayerClientStartsThePictureBeforeGETAPI: the server names the
// player screen's picture in the page (routes/client_picture.go), and the
// page starts loading it before GET /api has answered: here GET /api is
// held 1.5 s and the picture's request goes out meanwhile. When the game
// master shows another map in between, the page draws the map GET /api
// names, with its own picture, and lets the other go.
func TestPlayerClientStartsThePictureBeforeGETAPI(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.NewPage(t, "Early picture", e2e.DesktopSize)
	p.AddInitScript(e2e.RememberedPlayer(p.Name))
	hold := 1500 * time.Millisecond
	time.AfterFunc(hold, p.HoldRequests("*/api"))
	p.Navigate(srv.URL + "/client/")
	e2e.WaitPlayerReady(t, p)
	var timing struct {
		Picture, APIEnd float64
		Image           string
	}
	p.EvalInto(`(() => {
		const all = performance.getEntriesByType("resource");
		const pic = all.find((e) => new URL(e.name).pathname.includes("/maps/"));
		const api = all.find((e) => new URL(e.name).pathname === "/api");
		return {Picture: pic ? pic.startTime : -1, APIEnd: api ? api.responseEnd : -1, Image: pic ? new URL(pic.name).pathname : ""};
	})()`, &timing)
	if timing.Picture < 0 || timing.APIEnd < 0 {
		t.Fatalf("the page's requests: the map's picture at %.0f ms, GET /api's answer at %.0f ms (-1: none)", timing.Picture, timing.APIEnd)
	}
	if timing.Picture > timing.APIEnd-float64(hold.Milliseconds())/2 {
		t.Errorf("the map's picture was requested at %.0f ms, GET /api (held %v) answered at %.0f ms: the page waited for GET /api", timing.Picture, hold, timing.APIEnd)
	}

	// The map changes between the page and GET /api's answer.
	release := p.HoldRequests("*/api")
	p.NavigateAsync(srv.URL + "/client/")
	p.WaitFor("the named picture started", fmt.Sprintf(`!!window.companionEarly && %q in window.companionEarly.images`, timing.Image), 20*time.Second)
	id, image, _ := e2e.ShownPictureMap(t, srv, "Changed meanwhile", e2e.BigMapPNG(512, false), 0)
	if !strings.HasPrefix(image, "/") {
		image = "/" + image
	}
	release()
	e2e.WaitPlayerReady(t, p)
	var after struct {
		MapID, Picture string
		Released       bool
	}
	p.EvalInto(fmt.Sprintf(`({
		MapID: window.companionDebug.state().map.id,
		Picture: performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).find((n) => n === %q) || "",
		Released: Object.values(window.companionEarly.images).every((v) => v === null),
	})`, image), &after)
	if after.MapID != id || after.Picture != image || !after.Released {
		t.Errorf("after the map changed: the page shows map %q (want %q), loaded %q (want %q), let go of the early loads: %v", after.MapID, id, after.Picture, image, after.Released)
	}
}

// TestPlayerClientMissingPicture: a map whose picture the server does not
// have is drawn without it at once (the first frame's wait ends with the
// failure), and the page says why, with the server's answer.
func TestPlayerClientMissingPicture(t *testing.T) {
	system := e2e.DemoSystem(t, func(maps []map[string]any, screen map[string]any) {
		maps[0]["image"] = "maps/no-such-picture.png"
	})
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", system}})
	p := e2e.NewPage(t, "Missing picture", e2e.DesktopSize)
	p.AddInitScript(e2e.RememberedPlayer(p.Name))
	p.NavigateAsync(srv.URL + "/client/")
	p.WaitFor("the map drawn without its picture", `(() => {
		const d = window.companionDebug, s = d && d.state();
		return !!s && !!s.map && s.tokens.length > 0 && s.frames > 0 && !!s.lastError;
	})()`, 20*time.Second)
	s := p.State()
	want := "background image failed to load: /…/no-such-picture.png (404 Not Found)"
	if s.LastError == nil || !strings.HasPrefix(*s.LastError, "background image failed to load: /") ||
		!strings.HasSuffix(*s.LastError, "/no-such-picture.png (404 Not Found)") || s.Map.BackgroundLoaded {
		got := "<none>"
		if s.LastError != nil {
			got = *s.LastError
		}
		t.Errorf("the page's error: %q, picture shown %v; want %q", got, s.Map.BackgroundLoaded, want)
	}
}
