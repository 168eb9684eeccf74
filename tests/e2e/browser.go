package e2e

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
	cdpfetch "github.com/chromedp/cdproto/fetch"
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
	PhoneSize   = ViewportSize{360, 740, true}
	DesktopSize = ViewportSize{1280, 800, false}
	TvSize      = ViewportSize{1920, 1080, false}
	// MapOnlySize is a small desktop window for tests that read the
	// page's state and the frames it sends rather than its pixels: with
	// the panels closed (panelsClosed) the map fills it. SwiftShader draws
	// on the CPU, so a frame costs less with fewer pixels (a drag test's
	// GPU-process CPU time went from about 25 s to 18 s).
	MapOnlySize = ViewportSize{800, 500, false}
)

type ViewportSize struct {
	Width, Height int64
	Mobile        bool
}

// BrowserFlags run Chromium headless with WebGL on the CPU (SwiftShader):
// the player map is drawn with WebGL, and CI machines have no GPU. The
// rest keep the browser from reaching the network or doing first-run work.
var BrowserFlags = []chromedp.ExecAllocatorOption{
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
	// The table's sound plays without a tap (a muted element still plays
	// and its position advances); a test that wants a browser that blocks
	// it refuses play() itself until the page is touched.
	chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
}

// FindBrowser returns a Chromium binary, or skips the test when there is
// none, except under CI=true where a missing browser fails it: CI must run
// the pages for real.
func FindBrowser(t testing.TB) string {
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
	Ctx     context.Context
	cancel  func()
	dataDir string
	err     error
	tests   int // tests with pages on it now; guarded by browsers.mu
}

// SharedBrowser is the first of them, the only one when tests run one
// at a time (the performance figures read its processes' CPU time).
var SharedBrowser browserInstance

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
	path := FindBrowser(t)
	browsers.mu.Lock()
	b := browsers.byTest[t]
	if b == nil {
		if browsers.pool == nil {
			browsers.pool = []*browserInstance{&SharedBrowser}
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
	return b.Ctx
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
	}, BrowserFlags...)
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
	b.Ctx = ctx
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

// BrowserPage is one tab of the shared browser. It records the page's
// console errors and uncaught exceptions (printed when a wait fails) and
// the WebSocket frames the page received.
type BrowserPage struct {
	T    testing.TB
	Name string
	Ctx  context.Context

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
	wsSent   []SentFrame
	Requests map[network.RequestID]*PageRequest
	// HoldRequests' gate: closed by its release.
	holdGate    chan struct{}
	releaseHeld func()
	holdOnce    sync.Once
}

// PageRequest is one network request of a page, for transfer figures.
type PageRequest struct {
	URL, MimeType, Encoding string
	Type                    network.ResourceType
	Bytes                   float64 // encoded bytes on the wire, headers included
	Finished                bool
}

// NewPage opens a tab of size in the shared browser. name tells the page
// apart in failure messages and screenshots. The tab closes when the test
// ends.
func NewPage(t testing.TB, name string, size ViewportSize) *BrowserPage {
	t.Helper()
	// Each page gets its own browser context (own storage and cookies), as
	// each player has their own device.
	ctx, cancel := chromedp.NewContext(browserContext(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &BrowserPage{T: t, Name: name, Ctx: ctx, Requests: map[network.RequestID]*PageRequest{}, hostSockets: map[network.RequestID]bool{}}
	if err := chromedp.Listen(ctx, p.Record); err != nil {
		t.Fatalf("page %s: %v", name, err)
	}
	t.Cleanup(p.checkPlayerFrames)
	p.Do(
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

// Record keeps what the tests look at later from the page's events.
func (p *BrowserPage) Record(ev any) {
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
			p.wsSent = append(p.wsSent, SentFrame{At: ev.Timestamp.Float64(), Text: string(ev.Response.PayloadData)})
		}
	case *network.EventResponseReceived:
		if ev.Response != nil {
			enc := ""
			for k, v := range ev.Response.Headers {
				if strings.EqualFold(k, "Content-Encoding") {
					enc = fmt.Sprint(v)
				}
			}
			p.Requests[ev.RequestID] = &PageRequest{URL: ev.Response.URL, MimeType: ev.Response.MimeType, Encoding: enc, Type: ev.Type}
		}
	case *network.EventLoadingFinished:
		if r := p.Requests[ev.RequestID]; r != nil {
			r.Bytes, r.Finished = ev.EncodedDataLength, true
		}
	}
}

// checkPlayerFrames validates every frame the page's player sockets
// received against the wire description (x-events and x-replies), as the
// WebSocket tests' own clients are: what a browser receives, the Encounter+
// client included, is what the description promises.
func (p *BrowserPage) checkPlayerFrames() {
	p.mu.Lock()
	frames := append([]string(nil), p.playerFrames...)
	p.mu.Unlock()
	if len(frames) == 0 {
		return
	}
	d := EventDescription(p.T)
	bad := 0
	for _, f := range frames {
		var m WsMsg
		err := json.Unmarshal([]byte(f), &m)
		if err == nil {
			err = d.CheckFrame(m)
		}
		if err != nil {
			if bad++; bad <= 5 {
				p.T.Errorf("page %s received a frame that contradicts the wire description: %v\n  frame: %.400s", p.Name, err, f)
			}
		}
	}
	if bad > 5 {
		p.T.Errorf("page %s: %d frames in all contradict the wire description", p.Name, bad)
	}
}

// ConsoleProblems returns the console errors and exceptions seen so far.
func (p *BrowserPage) ConsoleProblems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// ReceivedFrames returns the text WebSocket frames the page received.
func (p *BrowserPage) ReceivedFrames() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.wsFrames...)
}

// FrameReceived returns a channel that is closed when the page receives
// its next WebSocket frame.
func (p *BrowserPage) FrameReceived() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.framed == nil {
		p.framed = make(chan struct{})
	}
	return p.framed
}

// SentFrame is a text WebSocket frame a page sent, At in seconds of the
// browser's monotonic clock.
type SentFrame struct {
	At   float64
	Text string
}

// SentFrames returns the text WebSocket frames the page sent.
func (p *BrowserPage) SentFrames() []SentFrame {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]SentFrame(nil), p.wsSent...)
}

// FinishedRequests returns the page's finished network requests.
func (p *BrowserPage) FinishedRequests() []PageRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []PageRequest
	for _, r := range p.Requests {
		if r.Finished {
			out = append(out, *r)
		}
	}
	return out
}

// Do runs actions on the page (30 s at most) and fails the test on error.
func (p *BrowserPage) Do(actions ...chromedp.Action[chromedp.Void]) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.T.Fatalf("page %s: %v%s", p.Name, err, p.ProblemText())
	}
}

// Navigate loads url in the page.
func (p *BrowserPage) Navigate(url string) {
	p.T.Helper()
	p.Do(chromedp.Navigate(url))
}

// NavigateAsync starts loading url in the page and returns without
// waiting for it to load: the caller waits for what it needs to see.
func (p *BrowserPage) NavigateAsync(url string) {
	p.T.Helper()
	p.Do(ChromedpCall(page.Navigate, page.NavigateParams{URL: url}))
}

// HoldRequests keeps each request of the page whose URL matches pattern
// (the whole URL, "*" for any characters) back from the server until
// release is called (or the test ends): a slow network for that resource,
// as long as the test wants. Call it before the page navigates; one
// pattern a page, a later call replaces it (and releases the earlier).
func (p *BrowserPage) HoldRequests(pattern string) (release func()) {
	p.T.Helper()
	gate := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	p.T.Cleanup(release)
	p.mu.Lock()
	if p.releaseHeld != nil {
		p.releaseHeld()
	}
	p.releaseHeld, p.holdGate = release, gate
	p.mu.Unlock()
	p.holdOnce.Do(func() {
		if err := chromedp.Listen(p.Ctx, func(ev any) {
			if e, ok := ev.(*cdpfetch.EventRequestPaused); ok {
				p.mu.Lock()
				gate := p.holdGate
				p.mu.Unlock()
				go func() {
					select {
					case <-gate:
					case <-p.Ctx.Done():
						return
					}
					_, _ = chromedp.Call(p.Ctx, cdpfetch.ContinueRequest, cdpfetch.ContinueRequestParams{RequestID: e.RequestID})
				}()
			}
		}); err != nil {
			p.T.Fatalf("page %s: %v", p.Name, err)
		}
	})
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdpfetch.Enable, cdpfetch.EnableParams{Patterns: []*cdpfetch.RequestPattern{{URLPattern: pattern}}})
		return err
	}))
	return release
}

// AddInitScript runs source in every document the page loads from now
// on, before the page's own scripts.
func (p *BrowserPage) AddInitScript(source string) {
	p.T.Helper()
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: source})
		return err
	}))
}

// EvalErr runs a JavaScript expression (awaiting a promise) and decodes
// its value into v (nil: ignore it).
func (p *BrowserPage) EvalErr(expr string, v any) error {
	ctx, cancel := context.WithTimeout(p.Ctx, 30*time.Second)
	defer cancel()
	// undefined becomes null so that statements may be evaluated too.
	wrapped := "Promise.resolve((" + expr + ")).then(v => v === undefined ? null : v)"
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](wrapped, chromedp.EvalAwaitPromise))
	if err != nil || v == nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// Eval is evalErr that fails the test on error and returns the value.
func (p *BrowserPage) Eval(expr string) any {
	p.T.Helper()
	var v any
	if err := p.EvalErr(expr, &v); err != nil {
		p.T.Fatalf("page %s: %s: %v%s", p.Name, expr, err, p.ProblemText())
	}
	return v
}

// EvalInto is eval decoding into v.
func (p *BrowserPage) EvalInto(expr string, v any) {
	p.T.Helper()
	if err := p.EvalErr(expr, v); err != nil {
		p.T.Fatalf("page %s: %s: %v%s", p.Name, expr, err, p.ProblemText())
	}
}

// WaitFor polls expr until it is truthy (timeout at most), then returns.
// On timeout it fails the test with the page's text and console errors.
func (p *BrowserPage) WaitFor(what, expr string, timeout time.Duration) {
	p.T.Helper()
	if !p.Poll(expr, timeout) {
		var text any
		_ = p.EvalErr(`document.body ? document.body.innerText.slice(0, 2000) : ""`, &text)
		p.T.Fatalf("page %s: waiting %s for %s: %s is still false; page text:\n%v%s", p.Name, timeout, what, expr, text, p.ProblemText())
	}
}

// Poll waits until expr is truthy or timeout passes. The page itself
// checks expr (awaiting it when it is a promise) every 20 ms, one
// DevTools call for the whole wait, instead of a round trip from here
// every 50 ms: on a loaded machine each round trip waits for the
// browser's processes to be scheduled. Errors in expr count
// as false; a navigation ends the page's loop and this starts another.
func (p *BrowserPage) Poll(expr string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		// Each call stays well inside evalErr's 30 s limit.
		left := min(time.Until(deadline), 10*time.Second)
		var ok bool
		err := p.EvalErr(fmt.Sprintf(pollScript, expr, max(left.Milliseconds(), 0)), &ok)
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

func (p *BrowserPage) ProblemText() string {
	problems := p.ConsoleProblems()
	if len(problems) == 0 {
		return ""
	}
	return "\nconsole errors of page " + p.Name + ":\n  " + strings.Join(problems, "\n  ")
}

// ChromedpCall is an action that runs one DevTools command on the page.
func ChromedpCall[P, R any](cmd cdp.Command[P, R], params P) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cmd, params)
		return err
	})
}

// Mouse dispatches one mouse event at page CSS pixel (x, y); buttons is
// the pressed-buttons mask (1 while the left button is down).
func (p *BrowserPage) Mouse(kind input.DispatchMouseEventType, x, y float64, buttons int64) {
	p.T.Helper()
	params := input.DispatchMouseEventParams{Type: kind, X: x, Y: y, Buttons: buttons, PointerType: input.DispatchMouseEventPointerTypeMouse}
	if kind == input.DispatchMouseEventTypeMousePressed || kind == input.DispatchMouseEventTypeMouseReleased {
		params.Button, params.ClickCount = input.MouseButtonLeft, 1
	}
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, input.DispatchMouseEvent, params)
		return err
	}))
}

// Key dispatches a key press and release (e.g. "Escape").
func (p *BrowserPage) Key(key string) {
	p.T.Helper()
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, kind := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
			if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: kind, Key: key, Code: key}); err != nil {
				return err
			}
		}
		return nil
	}))
}

// Screenshot captures the page's viewport as PNG bytes.
func (p *BrowserPage) Screenshot() []byte {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 30*time.Second)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.T.Fatalf("page %s: screenshot: %v", p.Name, err)
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
		// Tests run in their package's folder (tests/<package>): one
		// folder for all of them, beside the packages.
		root = filepath.Join("..", "artifacts")
	}
	dir := filepath.Join(root, regexp.MustCompile(`[^A-Za-z0-9_.-]+`).ReplaceAllString(t.Name(), "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("artifacts folder: %v", err)
	}
	return dir
}

// SaveScreenshot writes the page's viewport to <artifacts>/<TestName>/name.png
// and returns it decoded, so that tests can read its pixels. Page CSS
// pixels are image pixels: pages run at device scale factor 1.
func SaveScreenshot(t testing.TB, p *BrowserPage, name string) image.Image {
	t.Helper()
	shot := p.Screenshot()
	path := filepath.Join(artifactDir(t), name+".png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatalf("saving screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("decoding screenshot %s: %v", path, err)
	}
	t.Logf("screenshot of page %s: %s", p.Name, path)
	return img
}

// ClickText clicks the first element matching selector whose text contains text.
func ClickText(p *BrowserPage, selector, text string) {
	p.T.Helper()
	p.WaitFor(fmt.Sprintf("%s %q to click", selector, text), fmt.Sprintf(`[...document.querySelectorAll(%q)].some((e) => e.textContent.includes(%q) && !e.disabled)`, selector, text), 15*time.Second)
	p.EvalInto(fmt.Sprintf(`(() => { [...document.querySelectorAll(%q)].find((e) => e.textContent.includes(%q) && !e.disabled).click(); return true; })()`, selector, text), nil)
}
