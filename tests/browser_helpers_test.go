package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browserNames are the Chromium binaries the browser tests can drive.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome"}

// Viewport sizes of the screens the player client must serve.
var (
	phoneSize   = viewportSize{360, 740, true}
	desktopSize = viewportSize{1280, 800, false}
	tvSize      = viewportSize{1920, 1080, false}
	// mapOnlySize is a small desktop window for tests that read the
	// page's state and the frames it sends rather than its pixels: with
	// the panels closed (panelsClosed) the map fills it. SwiftShader draws
	// on the CPU, so a frame costs less with fewer pixels (a drag test's
	// GPU-process CPU time went from about 25 s to 18 s).
	mapOnlySize = viewportSize{800, 500, false}
)

type viewportSize struct {
	Width, Height int64
	Mobile        bool
}

// browserFlags run Chromium headless with WebGL on the CPU (SwiftShader):
// the player map is drawn with WebGL, and CI machines have no GPU. The
// rest keep the browser from reaching the network or doing first-run work.
var browserFlags = []chromedp.ExecAllocatorOption{
	chromedp.Flag("headless", "new"),
	chromedp.Flag("no-sandbox", true),
	chromedp.Flag("use-angle", "swiftshader"),
	chromedp.Flag("enable-unsafe-swiftshader", true),
	chromedp.Flag("ignore-gpu-blocklist", true),
	chromedp.Flag("disable-quic", true),
	chromedp.Flag("no-first-run", true),
	chromedp.Flag("no-default-browser-check", true),
	chromedp.Flag("disable-background-networking", true),
	chromedp.Flag("disable-component-update", true),
	chromedp.Flag("disable-sync", true),
	chromedp.Flag("disable-dev-shm-usage", true),
	chromedp.Flag("disable-extensions", true),
	// Pages in background tabs must keep drawing: several pages are open
	// at once and only one is in front.
	chromedp.Flag("disable-background-timer-throttling", true),
	chromedp.Flag("disable-backgrounding-occluded-windows", true),
	chromedp.Flag("disable-renderer-backgrounding", true),
	chromedp.Flag("hide-scrollbars", true),
	chromedp.Flag("mute-audio", true),
}

// findBrowser returns a Chromium binary, or skips the test when there is
// none, except under CI=true where a missing browser fails it: CI must run
// the pages for real.
func findBrowser(t testing.TB) string {
	t.Helper()
	for _, name := range browserNames {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	msg := fmt.Sprintf("no headless browser found (looked for %s on PATH); install one, e.g. apt-get install -y chromium",
		strings.Join(browserNames, ", "))
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI=true: the browser tests must run)")
	}
	t.Skip(msg)
	return ""
}

// A test binary runs its pages in a few Chromiums it starts once (starting
// one costs a second or two): each test opens its own tabs in the one
// that has the fewest tests on it when the test opens its first page. Two
// Chromiums have two GPU processes, where SwiftShader draws every page's
// WebGL: with tests running side by side, one GPU process's main thread
// would be the queue they all wait in. TestMain closes them.
type browserInstance struct {
	once    sync.Once
	ctx     context.Context
	cancel  func()
	dataDir string
	err     error
	tests   int // tests with pages on it now; guarded by browsers.mu
}

// sharedBrowser is the first of them, the only one when tests run one
// at a time (the performance figures read its processes' CPU time).
var sharedBrowser browserInstance

var browsers struct {
	mu     sync.Mutex
	pool   []*browserInstance
	byTest map[testing.TB]*browserInstance
}

// browserPoolSize is how many Chromiums tests may spread over: as many as
// tests run side by side (-test.parallel, by default GOMAXPROCS), so that
// each running test has a GPU process of its own. TestMain sets it.
var browserPoolSize = 1

// setBrowserPoolSize sizes the pool after -test.parallel.
func setBrowserPoolSize() {
	if f := flag.Lookup("test.parallel"); f != nil {
		if n, ok := f.Value.(flag.Getter).Get().(int); ok && n > 1 {
			browserPoolSize = n
		}
	}
}

// browserContext returns the context of the browser that test t's pages
// open in, starting it on first use; pages are tabs opened from it.
func browserContext(t testing.TB) context.Context {
	t.Helper()
	path := findBrowser(t)
	browsers.mu.Lock()
	b := browsers.byTest[t]
	if b == nil {
		if browsers.pool == nil {
			browsers.pool = []*browserInstance{&sharedBrowser}
			for len(browsers.pool) < browserPoolSize {
				browsers.pool = append(browsers.pool, &browserInstance{})
			}
			browsers.byTest = map[testing.TB]*browserInstance{}
		}
		b = browsers.pool[0]
		for _, c := range browsers.pool[1:] {
			if c.tests < b.tests {
				b = c
			}
		}
		b.tests++
		browsers.byTest[t] = b
		t.Cleanup(func() {
			browsers.mu.Lock()
			b.tests--
			delete(browsers.byTest, t)
			browsers.mu.Unlock()
		})
	}
	browsers.mu.Unlock()
	b.once.Do(func() { b.start(path) })
	if b.err != nil {
		t.Fatalf("starting %s: %v", path, b.err)
	}
	return b.ctx
}

// start starts the browser at path.
func (b *browserInstance) start(path string) {
	// The profile folder is under TMPDIR, the sandbox's root; the browser
	// runs in its own process group and dies with the test process
	// (sandbox_test.go).
	b.dataDir, b.err = os.MkdirTemp("", "companion-chromium-")
	if b.err != nil {
		return
	}
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(b.dataDir),
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) { cmd.SysProcAttr = childProcAttr() }),
	}, browserFlags...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	// The first Run starts the browser (with its initial blank tab).
	if b.err = chromedp.Do(ctx); b.err != nil {
		cancelCtx()
		cancelAlloc()
		return
	}
	proc := chromedp.FromContext(ctx).Browser.Process()
	if proc != nil {
		tellWatchdog("pgid", proc.Pid)
	}
	b.ctx = ctx
	b.cancel = func() {
		cancelCtx()
		cancelAlloc()
		// chromedp kills the browser process; its helpers (zygote, GPU,
		// renderers) may outlive it for a moment.
		killProcessesOf(b.dataDir)
		if proc != nil {
			tellWatchdog("gone", proc.Pid)
		}
	}
}

// closeBrowsers ends the browsers that were started.
func closeBrowsers() {
	for _, b := range browsers.pool {
		if b.cancel != nil {
			b.cancel()
		}
		if b.dataDir != "" {
			os.RemoveAll(b.dataDir)
		}
	}
}

// browserPage is one tab of the shared browser. It records the page's
// console errors and uncaught exceptions (printed when a wait fails) and
// the WebSocket frames the page received.
type browserPage struct {
	t    testing.TB
	name string
	ctx  context.Context

	mu       sync.Mutex
	problems []string
	wsFrames []string
	// playerFrames are the frames of the page's player sockets (not the
	// host console's), checked against the served description when the
	// test ends (checkPlayerFrames); hostSockets names the others.
	playerFrames []string
	hostSockets  map[network.RequestID]bool
	// framed is closed (and replaced) when a frame is received, to wake
	// those waiting for one.
	framed   chan struct{}
	wsSent   []sentFrame
	requests map[network.RequestID]*pageRequest
}

// pageRequest is one network request of a page, for transfer figures.
type pageRequest struct {
	URL, MimeType, Encoding string
	Type                    network.ResourceType
	Bytes                   float64 // encoded bytes on the wire, headers included
	Finished                bool
}

// newPage opens a tab of size in the shared browser. name tells the page
// apart in failure messages and screenshots. The tab closes when the test
// ends.
func newPage(t testing.TB, name string, size viewportSize) *browserPage {
	t.Helper()
	// Each page gets its own browser context (own storage and cookies), as
	// each player has their own device.
	ctx, cancel := chromedp.NewContext(browserContext(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &browserPage{t: t, name: name, ctx: ctx, requests: map[network.RequestID]*pageRequest{}, hostSockets: map[network.RequestID]bool{}}
	if err := chromedp.Listen(ctx, p.record); err != nil {
		t.Fatalf("page %s: %v", name, err)
	}
	t.Cleanup(p.checkPlayerFrames)
	p.do(
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Call(ctx, network.Enable, network.EnableParams{})
			return err
		}),
		chromedp.EmulateViewport(size.Width, size.Height, func(m *emulation.SetDeviceMetricsOverrideParams, touch *emulation.SetTouchEmulationEnabledParams) {
			// A phone is a touch screen in portrait; the others a mouse.
			m.Mobile, touch.Enabled = size.Mobile, size.Mobile
			if size.Height > size.Width {
				m.ScreenOrientation = &emulation.ScreenOrientation{Type: emulation.ScreenOrientationTypePortraitPrimary, Angle: 0}
			}
		}),
	)
	return p
}

// record keeps what the tests look at later from the page's events.
func (p *browserPage) record(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			var parts []string
			for _, a := range ev.Args {
				if a.Value != nil {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			p.problems = append(p.problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " ")))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		p.problems = append(p.problems, fmt.Sprintf("uncaught %s (%s:%d)", text, d.URL, d.LineNumber))
	case *network.EventWebSocketCreated:
		if u, err := url.Parse(ev.URL); err == nil && strings.HasPrefix(u.Path, "/host/") {
			p.hostSockets[ev.RequestID] = true
		}
	case *network.EventWebSocketFrameReceived:
		if ev.Response != nil && ev.Response.Opcode == 1 {
			p.wsFrames = append(p.wsFrames, string(ev.Response.PayloadData))
			if !p.hostSockets[ev.RequestID] {
				p.playerFrames = append(p.playerFrames, string(ev.Response.PayloadData))
			}
			if p.framed != nil {
				close(p.framed)
				p.framed = nil
			}
		}
	case *network.EventWebSocketFrameSent:
		if ev.Response != nil && ev.Response.Opcode == 1 {
			p.wsSent = append(p.wsSent, sentFrame{At: ev.Timestamp.Float64(), Text: string(ev.Response.PayloadData)})
		}
	case *network.EventResponseReceived:
		if ev.Response != nil {
			enc := ""
			for k, v := range ev.Response.Headers {
				if strings.EqualFold(k, "Content-Encoding") {
					enc = fmt.Sprint(v)
				}
			}
			p.requests[ev.RequestID] = &pageRequest{URL: ev.Response.URL, MimeType: ev.Response.MimeType, Encoding: enc, Type: ev.Type}
		}
	case *network.EventLoadingFinished:
		if r := p.requests[ev.RequestID]; r != nil {
			r.Bytes, r.Finished = ev.EncodedDataLength, true
		}
	}
}

// checkPlayerFrames validates every frame the page's player sockets
// received against the wire description (x-events and x-replies), as the
// WebSocket tests' own clients are: what a browser receives, the Encounter+
// client included, is what the description promises.
func (p *browserPage) checkPlayerFrames() {
	p.mu.Lock()
	frames := append([]string(nil), p.playerFrames...)
	p.mu.Unlock()
	if len(frames) == 0 {
		return
	}
	d := eventDescription(p.t)
	bad := 0
	for _, f := range frames {
		var m wsMsg
		err := json.Unmarshal([]byte(f), &m)
		if err == nil {
			err = d.checkFrame(m)
		}
		if err != nil {
			if bad++; bad <= 5 {
				p.t.Errorf("page %s received a frame that contradicts the wire description: %v\n  frame: %.400s", p.name, err, f)
			}
		}
	}
	if bad > 5 {
		p.t.Errorf("page %s: %d frames in all contradict the wire description", p.name, bad)
	}
}

// consoleProblems returns the console errors and exceptions seen so far.
func (p *browserPage) consoleProblems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// receivedFrames returns the text WebSocket frames the page received.
func (p *browserPage) receivedFrames() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.wsFrames...)
}

// frameReceived returns a channel that is closed when the page receives
// its next WebSocket frame.
func (p *browserPage) frameReceived() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.framed == nil {
		p.framed = make(chan struct{})
	}
	return p.framed
}

// sentFrame is a text WebSocket frame a page sent, At in seconds of the
// browser's monotonic clock.
type sentFrame struct {
	At   float64
	Text string
}

// sentFrames returns the text WebSocket frames the page sent.
func (p *browserPage) sentFrames() []sentFrame {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]sentFrame(nil), p.wsSent...)
}

// finishedRequests returns the page's finished network requests.
func (p *browserPage) finishedRequests() []pageRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []pageRequest
	for _, r := range p.requests {
		if r.Finished {
			out = append(out, *r)
		}
	}
	return out
}

// do runs actions on the page (30 s at most) and fails the test on error.
func (p *browserPage) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("page %s: %v%s", p.name, err, p.problemText())
	}
}

// navigate loads url in the page.
func (p *browserPage) navigate(url string) {
	p.t.Helper()
	p.do(chromedp.Navigate(url))
}

// navigateAsync starts loading url in the page and returns without
// waiting for it to load: the caller waits for what it needs to see.
func (p *browserPage) navigateAsync(url string) {
	p.t.Helper()
	p.do(chromedpCall(page.Navigate, page.NavigateParams{URL: url}))
}

// addInitScript runs source in every document the page loads from now
// on, before the page's own scripts.
func (p *browserPage) addInitScript(source string) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: source})
		return err
	}))
}

// evalErr runs a JavaScript expression (awaiting a promise) and decodes
// its value into v (nil: ignore it).
func (p *browserPage) evalErr(expr string, v any) error {
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	// undefined becomes null so that statements may be evaluated too.
	wrapped := "Promise.resolve((" + expr + ")).then(v => v === undefined ? null : v)"
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](wrapped, chromedp.EvalAwaitPromise))
	if err != nil || v == nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// eval is evalErr that fails the test on error and returns the value.
func (p *browserPage) eval(expr string) any {
	p.t.Helper()
	var v any
	if err := p.evalErr(expr, &v); err != nil {
		p.t.Fatalf("page %s: %s: %v%s", p.name, expr, err, p.problemText())
	}
	return v
}

// evalInto is eval decoding into v.
func (p *browserPage) evalInto(expr string, v any) {
	p.t.Helper()
	if err := p.evalErr(expr, v); err != nil {
		p.t.Fatalf("page %s: %s: %v%s", p.name, expr, err, p.problemText())
	}
}

// waitFor polls expr until it is truthy (timeout at most), then returns.
// On timeout it fails the test with the page's text and console errors.
func (p *browserPage) waitFor(what, expr string, timeout time.Duration) {
	p.t.Helper()
	if !p.poll(expr, timeout) {
		var text any
		_ = p.evalErr(`document.body ? document.body.innerText.slice(0, 2000) : ""`, &text)
		p.t.Fatalf("page %s: waiting %s for %s: %s is still false; page text:\n%v%s", p.name, timeout, what, expr, text, p.problemText())
	}
}

// poll waits until expr is truthy or timeout passes. The page itself
// checks expr (awaiting it when it is a promise) every 20 ms, one
// DevTools call for the whole wait, instead of a round trip from here
// every 50 ms: on a loaded machine each round trip waits for the
// browser's processes to be scheduled. Errors in expr count
// as false; a navigation ends the page's loop and this starts another.
func (p *browserPage) poll(expr string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		// Each call stays well inside evalErr's 30 s limit.
		left := min(time.Until(deadline), 10*time.Second)
		var ok bool
		err := p.evalErr(fmt.Sprintf(pollScript, expr, max(left.Milliseconds(), 0)), &ok)
		if err == nil && ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		if err != nil {
			time.Sleep(50 * time.Millisecond) // e.g. no document while navigating
		}
	}
}

// pollScript checks an expression (%s) until it is truthy or %d ms pass.
// A check that returned a promise (a fetch) is repeated less often, so as
// not to flood the server.
const pollScript = `(async () => {
	const until = performance.now() + %[2]d;
	for (;;) {
		let v = false, slow = false;
		try {
			v = (%[1]s);
			if (v && typeof v.then === "function") { slow = true; v = await v; }
		} catch (e) { v = false; }
		if (v) return true;
		if (performance.now() >= until) return false;
		await new Promise(r => setTimeout(r, slow ? 100 : 20));
	}
})()`

func (p *browserPage) problemText() string {
	problems := p.consoleProblems()
	if len(problems) == 0 {
		return ""
	}
	return "\nconsole errors of page " + p.name + ":\n  " + strings.Join(problems, "\n  ")
}

// chromedpCall is an action that runs one DevTools command on the page.
func chromedpCall[P, R any](cmd cdp.Command[P, R], params P) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cmd, params)
		return err
	})
}

// mouse dispatches one mouse event at page CSS pixel (x, y); buttons is
// the pressed-buttons mask (1 while the left button is down).
func (p *browserPage) mouse(kind input.DispatchMouseEventType, x, y float64, buttons int64) {
	p.t.Helper()
	params := input.DispatchMouseEventParams{Type: kind, X: x, Y: y, Buttons: buttons, PointerType: input.DispatchMouseEventPointerTypeMouse}
	if kind == input.DispatchMouseEventTypeMousePressed || kind == input.DispatchMouseEventTypeMouseReleased {
		params.Button, params.ClickCount = input.MouseButtonLeft, 1
	}
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, input.DispatchMouseEvent, params)
		return err
	}))
}

// key dispatches a key press and release (e.g. "Escape").
func (p *browserPage) key(key string) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, kind := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
			if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: kind, Key: key, Code: key}); err != nil {
				return err
			}
		}
		return nil
	}))
}

// screenshot captures the page's viewport as PNG bytes.
func (p *browserPage) screenshot() []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("page %s: screenshot: %v", p.name, err)
	}
	return shot
}

// artifactDir is where a test's screenshots go:
// $COMPANION_ARTIFACTS/<TestName>/, by default tests/artifacts/<TestName>/
// (gitignored). CI keeps the folder as an artifact.
func artifactDir(t testing.TB) string {
	t.Helper()
	root := os.Getenv("COMPANION_ARTIFACTS")
	if root == "" {
		root = "artifacts"
	}
	dir := filepath.Join(root, regexp.MustCompile(`[^A-Za-z0-9_.-]+`).ReplaceAllString(t.Name(), "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("artifacts folder: %v", err)
	}
	return dir
}

// saveScreenshot writes the page's viewport to <artifacts>/<TestName>/name.png
// and returns it decoded, so that tests can read its pixels. Page CSS
// pixels are image pixels: pages run at device scale factor 1.
func saveScreenshot(t testing.TB, p *browserPage, name string) image.Image {
	t.Helper()
	shot := p.screenshot()
	path := filepath.Join(artifactDir(t), name+".png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatalf("saving screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("decoding screenshot %s: %v", path, err)
	}
	t.Logf("screenshot of page %s: %s", p.name, path)
	return img
}
