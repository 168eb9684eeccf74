package perf

// The floor benchmark's machinery (see browser_perf_floor_test.go): a
// Chromium of its own per flag set, tabs that open either the player
// client or the floor page on the same server, the floor page served by
// the browser's request interception, and Chromium traces.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/vttapp/companion/tests/e2e"

	cdpfetch "github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// benchBrowser is a Chromium started for one flag set of the benchmark,
// apart from the suite's shared browser, so that the flags differ and no
// other test's tab shares its GPU process.
type benchBrowser struct {
	ctx     context.Context
	dataDir string
	// noShots: take no screenshots (with --disable-frame-rate-limit a
	// screenshot of a page drawing on demand waited for a frame past the
	// page's time limit on a busy machine).
	noShots bool
	// throttle slows every tab's CPU by this factor (0: not at all), the
	// player's and the floor's alike.
	throttle float64
}

func startBenchBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) *benchBrowser {
	t.Helper()
	path := e2e.FindBrowser(t)
	dir, err := os.MkdirTemp("", "companion-bench-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append([]chromedp.ExecAllocatorOption{chromedp.ExecPath(path), chromedp.UserDataDir(dir)}, e2e.BrowserFlags...)
	// The floor page comes from request interception, which gives it no
	// address; Chromium then counts it as a public page and blocks its
	// WebSocket to the loopback server (Local Network Access). Both
	// kinds of page run in this browser, so the flag touches both alike.
	opts = append(opts, chromedp.Flag("disable-features", "LocalNetworkAccessChecks"))
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc(); os.RemoveAll(dir) })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return &benchBrowser{ctx: ctx, dataDir: dir}
}

// pageKind is which page a tab of the benchmark opens.
type pageKind string

const (
	playerPage pageKind = "player"
	floorPage  pageKind = "floor"
)

// floorFiles is the built floor page (web/client/build.mjs writes it).
func floorFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range []string{"floor.html", "floor.js"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "floor", name))
		if err != nil {
			t.Fatalf("the floor page is not built (cd web/client && npm run build): %v", err)
		}
		files[name] = b
	}
	return files
}

// floorPath is where the floor page appears on the server's origin. The
// server has nothing there: the browser's request interception answers.
const floorPath = "/__floor/"

// newBenchPage opens a tab of b (its own browser context: a first visit)
// at desktop size, as newPage does for the shared browser. A floor tab
// gets the floor page's files from the test for any URL under floorPath.
func newBenchPage(t *testing.T, b *benchBrowser, name string, kind pageKind) *e2e.BrowserPage {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &e2e.BrowserPage{T: t, Name: name, Ctx: ctx, Requests: map[network.RequestID]*e2e.PageRequest{}}
	var files map[string][]byte
	if kind == floorPage {
		files = floorFiles(t)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		p.Record(ev)
		if e, ok := ev.(*cdpfetch.EventRequestPaused); ok {
			go serveFloorFile(ctx, e, files)
		}
	})
	if err != nil {
		t.Fatalf("page %s: %v", name, err)
	}
	p.Do(
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
				return err
			}
			if b.throttle > 1 {
				if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: b.throttle}); err != nil {
					return err
				}
			}
			if kind != floorPage {
				return nil
			}
			_, err := chromedp.Call(ctx, cdpfetch.Enable, cdpfetch.EnableParams{Patterns: []*cdpfetch.RequestPattern{{URLPattern: "*" + floorPath + "*"}}})
			return err
		}),
		chromedp.EmulateViewport(e2e.DesktopSize.Width, e2e.DesktopSize.Height, func(m *emulation.SetDeviceMetricsOverrideParams, touch *emulation.SetTouchEmulationEnabledParams) {
			m.Mobile, touch.Enabled = false, false
		}),
	)
	return p
}

func serveFloorFile(ctx context.Context, e *cdpfetch.EventRequestPaused, files map[string][]byte) {
	name := path.Base(strings.SplitN(e.Request.URL, "?", 2)[0])
	body, ok := files[name]
	if !ok {
		chromedp.Call(ctx, cdpfetch.FailRequest, cdpfetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonFailed})
		return
	}
	kind := "text/html; charset=utf-8"
	if strings.HasSuffix(name, ".js") {
		kind = "text/javascript; charset=utf-8"
	}
	chromedp.Call(ctx, cdpfetch.FulfillRequest, cdpfetch.FulfillRequestParams{
		RequestID: e.RequestID, ResponseCode: 200, Body: body,
		ResponseHeaders: []*cdpfetch.HeaderEntry{{Name: "Content-Type", Value: kind}, {Name: "Cache-Control", Value: "no-store"}},
	})
}

// openBenchPage opens the player client (joined as name, remembered) or
// the floor page on srv with the init scripts, and waits until the map is
// drawn unless wait is false.
func openBenchPage(t *testing.T, b *benchBrowser, srv *e2e.Server, kind pageKind, name string, wait bool, scripts ...string) *e2e.BrowserPage {
	t.Helper()
	p := prepareBenchPage(t, b, kind, name, scripts...)
	navigateBenchPage(p, srv, kind)
	if wait {
		e2e.WaitPlayerReady(t, p)
	}
	return p
}

// prepareBenchPage is openBenchPage's tab before it navigates (a profile
// may start there).
func prepareBenchPage(t *testing.T, b *benchBrowser, kind pageKind, name string, scripts ...string) *e2e.BrowserPage {
	t.Helper()
	p := newBenchPage(t, b, fmt.Sprintf("%s (%s)", name, kind), kind)
	if kind == playerPage {
		p.AddInitScript(e2e.RememberedPlayer(name))
	}
	for _, s := range scripts {
		p.AddInitScript(s)
	}
	return p
}

func navigateBenchPage(p *e2e.BrowserPage, srv *e2e.Server, kind pageKind) {
	if kind == floorPage {
		p.Navigate(srv.URL + floorPath + "floor.html")
	} else {
		p.Navigate(srv.URL + "/client/")
	}
}

// closePage closes a tab now (not at the end of the test), so that no
// idle page of an earlier round shares the browser with the next.
func closePage(p *e2e.BrowserPage) {
	_ = chromedp.Cancel(p.Ctx)
}

// traceEvent is one event of a Chromium trace (the JSON trace format).
type traceEvent struct {
	Ph   string         `json:"ph"`
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Dur  float64        `json:"dur"`  // wall µs
	Tdur float64        `json:"tdur"` // thread CPU µs
	Args map[string]any `json:"args"`
}

// browserTrace records a Chromium trace of the whole browser (every
// process) through page p's session.
type browserTrace struct {
	p      *e2e.BrowserPage
	mu     sync.Mutex
	events []traceEvent
	done   chan struct{}
}

func startTrace(p *e2e.BrowserPage, categories ...string) *browserTrace {
	p.T.Helper()
	tr := &browserTrace{p: p, done: make(chan struct{})}
	var once sync.Once
	if err := chromedp.Listen(p.Ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			tr.mu.Lock()
			for _, raw := range ev.Value {
				var e traceEvent
				if json.Unmarshal(raw, &e) == nil {
					tr.events = append(tr.events, e)
				}
			}
			tr.mu.Unlock()
		case *tracing.EventTracingComplete:
			once.Do(func() { close(tr.done) })
		}
	}); err != nil {
		p.T.Fatalf("page %s: trace: %v", p.Name, err)
	}
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: append([]string{"__metadata"}, categories...)},
		})
		return err
	}))
	return tr
}

// stop ends the trace and returns its events.
func (tr *browserTrace) stop() []traceEvent {
	tr.p.T.Helper()
	tr.p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, tracing.End, cdp.Empty{})
		return err
	}))
	select {
	case <-tr.done:
	case <-time.After(120 * time.Second):
		tr.p.T.Fatalf("page %s: the trace did not complete", tr.p.Name)
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.events
}

// gpuProcessCPU sums the thread CPU time (ms) of the top-level tasks of
// the GPU process in a trace with the "toplevel" category: every task its
// threads ran (SwiftShader drawing WebGL, compositing). Tasks without a
// thread time (none seen on Linux) count their wall time.
func gpuProcessCPU(events []traceEvent) (ms float64, ok bool) {
	gpu := map[int]bool{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "process_name" && e.Args["name"] == "GPU Process" {
			gpu[e.Pid] = true
		}
	}
	if len(gpu) == 0 {
		return 0, false
	}
	// Top-level tasks do not nest on a thread, but a trace may hold a
	// task's begin/end pair as one complete event only ('X').
	for _, e := range events {
		if e.Ph != "X" || !gpu[e.Pid] || !strings.Contains(e.Cat, "toplevel") {
			continue
		}
		if e.Tdur > 0 {
			ms += e.Tdur / 1000
		} else {
			ms += e.Dur / 1000
		}
	}
	return ms, true
}

// machineLoad is the load average line of /proc/loadavg (the figures are
// only comparable within one run; the load says how busy the machine was).
func machineLoad() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// series is one measure's values for one page kind: each round's
// samples, and each round's own figure (for measures of one value a round).
type series struct {
	samples [][]float64
	figures []float64
}

func (s *series) addRound(samples []float64, figure float64) {
	s.samples = append(s.samples, samples)
	s.figures = append(s.figures, figure)
}

// minMax is "min-max" of v.
func minMax(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	r := sortedCopy(v)
	return fmt.Sprintf("%.0f-%.0f", r[0], r[len(r)-1])
}

// pct is the p-th percentile of every round's samples together.
func (s series) pct(p float64) float64 {
	var all []float64
	for _, r := range s.samples {
		all = append(all, r...)
	}
	return e2e.Percentile(sortedCopy(all), p)
}

// pctSpread is "min-max" of the rounds' own p-th percentiles.
func (s series) pctSpread(p float64) string {
	var v []float64
	for _, r := range s.samples {
		if len(r) > 0 {
			v = append(v, e2e.Percentile(sortedCopy(r), p))
		}
	}
	return minMax(v)
}

// median of the rounds' figures, and their spread.
func (s series) median() float64 { return e2e.Percentile(sortedCopy(s.figures), 50) }

func (s series) spread() string { return minMax(s.figures) }

func sortedCopy(v []float64) []float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s
}

// floorRow is one line of the benchmark's table.
type floorRow struct {
	measure       string
	player, floor float64
	pSpread, fSpr string
	target        float64 // the ratio player/floor at or under which the target is met
	unit          string
	informational bool // reported, no target
}

func (r floorRow) String() string {
	ratio := r.player / r.floor
	verdict := "met"
	if r.informational {
		verdict = "-"
	} else if !(ratio <= r.target) {
		verdict = "MISSED"
	}
	target := "-"
	if !r.informational {
		target = fmt.Sprintf("<= %.1fx", r.target)
	}
	return fmt.Sprintf("| %-52s | %8.1f %s (%s) | %8.1f %s (%s) | %5.2fx | %-7s | %-6s |",
		r.measure, r.player, r.unit, r.pSpread, r.floor, r.unit, r.fSpr, ratio, target, verdict)
}

// longestTasks logs the longest complete events of a trace (top-level
// tasks and the timeline's own events), with the process and thread they
// ran on: what held a page or the GPU process for long.
func longestTasks(t *testing.T, title string, events []traceEvent, top int) {
	t.Helper()
	procs, threads := map[int]string{}, map[[2]int]string{}
	for _, e := range events {
		if e.Ph != "M" {
			continue
		}
		name, _ := e.Args["name"].(string)
		switch e.Name {
		case "process_name":
			procs[e.Pid] = name
		case "thread_name":
			threads[[2]int{e.Pid, e.Tid}] = name
		}
	}
	var long []traceEvent
	for _, e := range events {
		if e.Ph == "X" && e.Dur >= 20000 {
			long = append(long, e)
		}
	}
	sort.Slice(long, func(i, j int) bool { return long[i].Dur > long[j].Dur })
	var lines []string
	for i := 0; i < len(long) && i < top; i++ {
		e := long[i]
		detail := ""
		if d, ok := e.Args["data"].(map[string]any); ok {
			for _, k := range []string{"functionName", "url", "type", "name"} {
				if v, ok := d[k].(string); ok && v != "" {
					detail += " " + k + "=" + v
				}
			}
		}
		lines = append(lines, fmt.Sprintf("  %8.1f ms wall %8.1f ms cpu  %s / %s  %s (%s)%s", e.Dur/1000, e.Tdur/1000, procs[e.Pid], threads[[2]int{e.Pid, e.Tid}], e.Name, e.Cat, detail))
	}
	t.Logf("%s: the longest of %d events (>= 20 ms)\n%s", title, len(long), strings.Join(lines, "\n"))
}
