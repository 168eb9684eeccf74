package perf

// The floor benchmark (issue 27): the player client against a bare PixiJS
// 8 page of our own (web/client/floor/, built into testdata/floor/), on
// the same server, the same canvas (1280x800), the same map image, grid
// and number of sprites, and the same WebSocket stream, in one Chromium,
// rounds interleaved (player, floor, floor, player, ...) so that a change
// of the machine's load touches both alike. Each figure is reported as
// the ratio player/floor next to its target. A measurement, never a timed
// assertion: it runs only with COMPANION_BROWSER_PERF=1:
//
//	COMPANION_BROWSER_PERF=1 go test -timeout 40m -run TestFloorBenchmark -v ./tests/perf/
//
// COMPANION_FLOOR_ROUNDS (default 3) sets the rounds; COMPANION_FLOOR_FLAGS
// picks the browser flag sets ("default", "unlimited" for
// --disable-frame-rate-limit, "throttled" for the default flags with each
// tab's CPU slowed 4x; all three when unset); COMPANION_FLOOR_PROFILE=1
// adds a JavaScript CPU profile of pages A and B during the drags after
// the first, with the browser's longest tasks then, and
// COMPANION_FLOOR_PROFILE=first one of pages A and B during the first
// drag after load with the browser's longest tasks in that drag, and
// COMPANION_FLOOR_PROFILE=start the same of each start-up (=return of
// each return visit instead; the
// profile costs time of its own: not for the figures).
// COMPANION_FLOOR_PARTS picks the measures ("start", "pan", "marks" (the
// pan over a map with 50 templates and 200 strokes), "drag", "objects"
// (pan and drag over a map that also has 40 lights and 2,000 walls),
// "bigmap"; all when unset), for a run that checks one change.

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/tests/e2e"
)

// mapDrawnProbe is an init script: window.__mapDrawnAt is set (ms since
// navigation) to when the page's first frame that drew the map's
// background and at least `tokens` tokens ended, as the page records it
// (companionDebug.mapFrame(), on both pages alike). An earlier probe
// looked for a frame after the one in which it first saw the page ready;
// when the page's animation-frame callback ran before the probe's, that
// was the page's next frame, up to a second later on a throttled page.
func mapDrawnProbe(tokens int) string {
	return fmt.Sprintf(`(() => {
		const tick = () => {
			const d = window.companionDebug, f = d && d.mapFrame && d.mapFrame();
			if (f && f.tokens >= %d) {
				window.__mapDrawnAt = f.at;
				return;
			}
			requestAnimationFrame(tick);
		};
		requestAnimationFrame(tick);
	})()`, tokens)
}

// frameLog is a script that keeps the interval of every animation frame
// while window.__frameLog.on is set.
const frameLog = `(() => {
	const log = window.__frameLog = {on: false, intervals: [], last: 0};
	const loop = now => {
		if (log.on && log.last) log.intervals.push(now - log.last);
		log.last = now;
		requestAnimationFrame(loop);
	};
	requestAnimationFrame(loop);
})()`

// tokenLog keeps, after each animation frame (registered after the
// page's own drawing loop, so it reads the frame just drawn), where token
// id is drawn; window.__tokenLog.length = 0 starts over.
func tokenLog(id string) string {
	return fmt.Sprintf(`(() => {
		window.__tokenLog = [];
		const loop = () => {
			const d = window.companionDebug;
			const tok = d.state().tokens.find(t => t.id === %q);
			if (tok) window.__tokenLog.push({t: performance.timeOrigin + performance.now(), x: tok.drawnX, y: tok.drawnY, f: d.state().frames});
			requestAnimationFrame(loop);
		};
		requestAnimationFrame(loop);
	})()`, id)
}

// pointerLog is an init script that keeps A's pointer moves with a
// button down (when the event was created, and the map point under it).
const pointerLog = `(() => {
	window.__pointerLog = [];
	window.addEventListener("pointermove", e => {
		if (!e.buttons || !window.companionDebug) return;
		const p = window.companionDebug.screenToMap(e.clientX, e.clientY);
		window.__pointerLog.push({t: performance.timeOrigin + e.timeStamp, x: p.x, y: p.y});
	}, true);
})()`

// floorFlagSets are the browser flag sets the benchmark runs under.
// "throttled" is the default flags on a slow device: every tab of both
// kinds runs with its CPU slowed 4x (DevTools'
// Emulation.setCPUThrottlingRate), as a cheap phone would.
var floorFlagSets = []struct {
	name     string
	flags    []chromedp.ExecAllocatorOption
	throttle float64
}{
	{"default", nil, 0},
	{"unlimited", []chromedp.ExecAllocatorOption{chromedp.Flag("disable-frame-rate-limit", true)}, 0},
	{"throttled", nil, 4},
}

func TestFloorBenchmark(t *testing.T) {
	e2e.PerfEnabled(t)
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("COMPANION_FLOOR_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	only := os.Getenv("COMPANION_FLOOR_FLAGS")
	for _, fs := range floorFlagSets {
		if only != "" && !strings.Contains(only, fs.name) {
			continue
		}
		t.Run(fs.name, func(t *testing.T) {
			loadBefore := machineLoad()
			b := startBenchBrowser(t, fs.flags...)
			b.noShots = fs.name != "default"
			b.throttle = fs.throttle
			var rows []floorRow
			parts := os.Getenv("COMPANION_FLOOR_PARTS")
			if parts == "" || strings.Contains(parts, "start") {
				rows = append(rows, floorStart(t, b, rounds)...)
			}
			if parts == "" || strings.Contains(parts, "pan") {
				rows = append(rows, floorPan(t, b, rounds)...)
			}
			if parts == "" || strings.Contains(parts, "marks") {
				rows = append(rows, floorPanMarks(t, b, rounds)...)
			}
			if parts == "" || strings.Contains(parts, "drag") {
				rows = append(rows, floorDrag(t, b, rounds)...)
			}
			if parts == "" || strings.Contains(parts, "objects") {
				rows = append(rows, floorObjects(t, b, rounds)...)
			}
			if parts == "" || strings.Contains(parts, "bigmap") {
				rows = append(rows, floorBigMap(t, b, rounds)...)
			}
			var lines []string
			for _, r := range rows {
				lines = append(lines, r.String())
			}
			t.Logf("FLOOR BENCHMARK, flags %s, %d interleaved rounds, load average %s at the start and %s at the end (spread: the rounds' min-max)\n"+
				"| %-52s | %-26s | %-26s | %-6s | %-7s | %-6s |\n%s",
				fs.name, rounds, loadBefore, machineLoad(), "measure", "player", "floor", "ratio", "target", "", strings.Join(lines, "\n"))
		})
	}
}

// kindsOf is the order of page kinds in round r: alternating which goes
// first, so that neither always follows the other.
func kindsOf(r int) []pageKind {
	if r%2 == 0 {
		return []pageKind{playerPage, floorPage}
	}
	return []pageKind{floorPage, playerPage}
}

// startTimeline is a script that lists when the page's requests started
// and ended and its performance marks (ms since navigation): where a
// start-up's time went.
const startTimeline = `(() => {
	const out = [];
	for (const e of performance.getEntriesByType("resource")) {
		const name = e.name.replace(location.origin, "").split("?")[0];
		out.push(name.slice(-24) + " " + Math.round(e.startTime) + "-" + Math.round(e.responseEnd));
	}
	for (const e of performance.getEntriesByType("mark")) out.push(e.name.replace("companion:", "") + " " + Math.round(e.startTime));
	return out.join(", ");
})()`

// floorStart: navigation to the map drawn with 50 tokens, a first visit
// each time (a fresh browser context: nothing cached), then a return
// visit in the same tab (the browser's cache kept).
func floorStart(t *testing.T, b *benchBrowser, rounds int) []floorRow {
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", e2e.CrowdedSystem(t, 50, 5, 0)}})
	got := map[pageKind]*series{playerPage: {}, floorPage: {}}
	again := map[pageKind]*series{playerPage: {}, floorPage: {}}
	// One visit of each page first, not counted: the browser keeps
	// compiled shaders for all its pages (its GPU program cache), so the
	// page that happened to come first would pay for both. A first visit
	// on a fresh browser pays for compiling them, once.
	for _, kind := range kindsOf(0) {
		p := openBenchPage(t, b, srv, kind, "Warm-up", false, mapDrawnProbe(50))
		p.WaitFor("the map drawn with 50 tokens", `window.__mapDrawnAt !== undefined`, 90*time.Second)
		closePage(p)
	}
	for r := range rounds {
		for _, kind := range kindsOf(r) {
			// COMPANION_FLOOR_PROFILE=start: where the page's main thread
			// and the browser went until the map was drawn.
			profiling := os.Getenv("COMPANION_FLOOR_PROFILE") == "start"
			p := prepareBenchPage(t, b, kind, "Start", mapDrawnProbe(50))
			var tr *browserTrace
			if profiling {
				e2e.StartProfile(p)
				tr = startTrace(p, "toplevel", "disabled-by-default-devtools.timeline", "gpu", "v8")
			}
			navigateBenchPage(p, srv, kind)
			p.WaitFor("the map drawn with 50 tokens", `window.__mapDrawnAt !== undefined`, 90*time.Second)
			if profiling {
				e2e.ProfileSummary(t, fmt.Sprintf("round %d %s, the page until the map was drawn", r+1, kind), e2e.StopProfile(p), 30)
				longestTasks(t, fmt.Sprintf("round %d %s, until the map was drawn", r+1, kind), tr.stop(), 30)
			}
			var at float64
			p.EvalInto(`window.__mapDrawnAt`, &at)
			got[kind].addRound([]float64{at}, at)
			var timeline string
			p.EvalInto(startTimeline, &timeline)
			t.Logf("round %d %s: map drawn %.0f ms after navigation; %s", r+1, kind, at, timeline)
			// A return visit: the same tab again, what the browser keeps
			// cached (the bundle, the map's picture) kept.
			// COMPANION_FLOOR_PROFILE=return profiles it as "start" does
			// the first visit.
			profiling = os.Getenv("COMPANION_FLOOR_PROFILE") == "return"
			if profiling {
				e2e.StartProfile(p)
				tr = startTrace(p, "toplevel", "disabled-by-default-devtools.timeline", "gpu", "v8")
			}
			navigateBenchPage(p, srv, kind)
			p.WaitFor("the map drawn again", `window.__mapDrawnAt !== undefined`, 90*time.Second)
			if profiling {
				e2e.ProfileSummary(t, fmt.Sprintf("round %d %s, return visit until the map was drawn", r+1, kind), e2e.StopProfile(p), 30)
				longestTasks(t, fmt.Sprintf("round %d %s, return visit until the map was drawn", r+1, kind), tr.stop(), 30)
			}
			p.EvalInto(`window.__mapDrawnAt`, &at)
			again[kind].addRound([]float64{at}, at)
			p.EvalInto(startTimeline, &timeline)
			t.Logf("round %d %s, return visit: map drawn %.0f ms after navigation; %s", r+1, kind, at, timeline)
			closePage(p)
		}
	}
	pl, fl := got[playerPage], got[floorPage]
	pa, fa := again[playerPage], again[floorPage]
	return []floorRow{
		{measure: "navigation to map drawn, 50 tokens (median)", player: pl.median(), floor: fl.median(), pSpread: pl.spread(), fSpr: fl.spread(), target: 1.5, unit: "ms"},
		{measure: "the same, return visit (cached)", player: pa.median(), floor: fa.median(), pSpread: pa.spread(), fSpr: fa.spread(), target: 1.5, unit: "ms"},
	}
}

// floorPan: frame intervals while panning a map of 500 tokens with the
// middle button, and the GPU process's CPU per drawn frame from a trace.
func floorPan(t *testing.T, b *benchBrowser, rounds int) []floorRow {
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", e2e.CrowdedSystem(t, 500, 20, 400)}})
	return floorPanOn(t, b, rounds, srv, "")
}

// floorPanMarks: the same pan over a map that also carries 50 area
// templates and 200 freehand strokes (issue 36), against the floor page
// drawing the same marks: what the marks cost a pan.
func floorPanMarks(t *testing.T, b *benchBrowser, rounds int) []floorRow {
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", e2e.CrowdedSystem(t, 500, 20, 400)}})
	var snap struct{ Map struct{ ID string } }
	e2e.HttpJSON(t, "GET", srv.URL+"/api", "", &snap)
	addMarks(t, srv, snap.Map.ID)
	return floorPanOn(t, b, rounds, srv, ", 50 templates and 200 strokes")
}

// addMarks adds 50 area templates and 200 freehand strokes of 40 points
// to map mapID through the host API.
func addMarks(t *testing.T, srv *e2e.Server, mapID string) {
	t.Helper()
	shapes := []string{"sphere", "cone", "line", "square"}
	var templates, strokes []string
	for i := range 50 {
		x, y := 140+float64(i%10)*130, 140+float64(i/10)*150
		templates = append(templates, fmt.Sprintf(`{"shape": %q, "x": %g, "y": %g, "radius": 140, "length": 210, "width": 70, "angle": %g, "color": "#ff6600", "opacity": 0.4, "hidden": false}`,
			shapes[i%4], x, y, float64(i)*0.3))
	}
	for i := range 200 {
		var pts []string
		x0, y0 := 50+float64(i%20)*60, 60+float64(i/20)*75
		for k := range 40 {
			pts = append(pts, fmt.Sprintf("%g,%g", x0+float64(k)*3, y0+10*math.Sin(float64(k)/4)))
		}
		strokes = append(strokes, fmt.Sprintf(`{"data": [%s], "strokeColor": "#3366ff", "strokeWidth": 4}`, strings.Join(pts, ",")))
	}
	postMapObjects(t, srv, mapID, "areaEffects", templates)
	postMapObjects(t, srv, mapID, "drawings", strokes)
}

// postMapObjects adds the objects (JSON) of one kind to a map through
// the host API, 500 a request (a JSON body's bounds).
func postMapObjects(t *testing.T, srv *e2e.Server, mapID, kind string, list []string) {
	t.Helper()
	for len(list) > 0 {
		n := min(500, len(list))
		if code := e2e.HttpJSON(t, "POST", srv.HostURL+"/host/api/maps/"+mapID+"/"+kind, "["+strings.Join(list[:n], ",")+"]", nil); code != 201 {
			t.Fatalf("the %s of map %s: %d", kind, mapID, code)
		}
		list = list[n:]
	}
}

// floorPanOn measures floorPan's figures on srv's map; what names the
// map's marks in the rows.
func floorPanOn(t *testing.T, b *benchBrowser, rounds int, srv *e2e.Server, what string) []floorRow {
	frames := map[pageKind]*series{playerPage: {}, floorPage: {}}
	gpu := map[pageKind]*series{playerPage: {}, floorPage: {}}
	gpuTraced := map[pageKind]*series{playerPage: {}, floorPage: {}}
	for r := range rounds {
		for _, kind := range kindsOf(r) {
			p := openBenchPage(t, b, srv, kind, "Pan", true, frameLog)
			p.Idle()
			f0 := p.State().Frames
			tr := startTrace(p, "toplevel")
			cpu0 := e2e.ReadBrowserCPUOf(b.dataDir)
			p.Eval(`window.__frameLog.on = true`)
			e2e.MiddlePan(p, 60)
			var intervals []float64
			p.EvalInto(`(() => { window.__frameLog.on = false; return window.__frameLog.intervals; })()`, &intervals)
			drawn := p.State().Frames - f0
			used := e2e.ReadBrowserCPUOf(b.dataDir).Sub(cpu0)
			events := tr.stop()
			traced, ok := gpuProcessCPU(events)
			if !ok {
				t.Fatalf("the trace names no GPU process (%d events)", len(events))
			}
			n := float64(max(1, drawn))
			frames[kind].addRound(intervals, e2e.Percentile(sortedCopy(intervals), 95))
			gpu[kind].addRound(nil, used.GPU/n)
			gpuTraced[kind].addRound(nil, traced/n)
			longest := sortedCopy(intervals)
			longest = longest[max(0, len(longest)-5):]
			t.Logf("round %d %s: %d frames drawn while panning, interval p50 %.1f p95 %.1f ms (the longest %.0f); GPU process CPU a frame: %.1f ms (/proc, all threads), %.1f ms (trace, top-level tasks)%s",
				r+1, kind, drawn, e2e.Percentile(sortedCopy(intervals), 50), e2e.Percentile(sortedCopy(intervals), 95), longest, used.GPU/n, traced/n, qualityNote(kind, p))
			if !b.noShots {
				e2e.SaveScreenshot(t, p, fmt.Sprintf("pan-%d-%s", r+1, kind))
			}
			closePage(p)
		}
	}
	pl, fl := frames[playerPage], frames[floorPage]
	gp, gf := gpu[playerPage], gpu[floorPage]
	gt, ft := gpuTraced[playerPage], gpuTraced[floorPage]
	return []floorRow{
		{measure: "pan frame interval p95, 500 tokens" + what, player: pl.pct(95), floor: fl.pct(95), pSpread: pl.pctSpread(95), fSpr: fl.pctSpread(95), target: 1.5, unit: "ms"},
		{measure: "GPU-process CPU per pan frame (/proc, median)" + what, player: gp.median(), floor: gf.median(), pSpread: gp.spread(), fSpr: gf.spread(), target: 1.5, unit: "ms"},
		{measure: "  the same, top-level tasks of the trace only", player: gt.median(), floor: ft.median(), pSpread: gt.spread(), fSpr: ft.spread(), unit: "ms", informational: true},
	}
}

// floorDrag: page A drags a party token five cells east, and page B (the
// same kind, freshly loaded) draws it; the latency of a move is from A's
// pointer event to the first frame of B that draws the token at or past
// the pointer's place. The first drag after B loaded is reported apart;
// then three more drags (west, east, west) on pages that have dragged.
func floorDrag(t *testing.T, b *benchBrowser, rounds int) []floorRow {
	return floorDragOn(t, b, rounds, e2e.StartServer(t, e2e.ServerOptions{}), "", true)
}

// floorDragOn measures floorDrag's figures on srv's demo map; what names
// the map's objects in the rows; withWall adds the wall row (issue 35).
func floorDragOn(t *testing.T, b *benchBrowser, rounds int, srv *e2e.Server, what string, withWall bool) []floorRow {
	first := map[pageKind]*series{playerPage: {}, floorPage: {}}
	warm := map[pageKind]*series{playerPage: {}, floorPage: {}}
	cpu := map[pageKind]*series{playerPage: {}, floorPage: {}}
	wall := &series{} // the player's page only: the floor page has no line of sight
	for r := range rounds {
		for _, kind := range kindsOf(r) {
			a := openBenchPage(t, b, srv, kind, "Player A", true, pointerLog)
			bp := openBenchPage(t, b, srv, kind, "Player B", true)
			id, x, y := e2e.UncoveredToken(t, a, 5, e2e.DemoBrannocID, e2e.DemoIlsaID, e2e.DemoQuillID)
			bp.Eval(tokenLog(id))
			bp.Idle()
			// COMPANION_FLOOR_PROFILE=first: where pages A and B and the
			// browser's other processes go during the first drag.
			profiling := os.Getenv("COMPANION_FLOOR_PROFILE")
			var tr *browserTrace
			if profiling == "first" {
				e2e.StartProfile(a)
				e2e.StartProfile(bp)
				tr = startTrace(bp, "toplevel", "disabled-by-default-devtools.timeline", "gpu", "v8")
			}
			lat, missed := dragLatencies(t, a, bp, id, x, y, x+5*e2e.DemoGrid)
			if profiling == "first" {
				e2e.ProfileSummary(t, fmt.Sprintf("round %d %s, page A during the first drag", r+1, kind), e2e.StopProfile(a), 25)
				e2e.ProfileSummary(t, fmt.Sprintf("round %d %s, page B during the first drag", r+1, kind), e2e.StopProfile(bp), 25)
				longestTasks(t, fmt.Sprintf("round %d %s, the first drag", r+1, kind), tr.stop(), 25)
			}
			first[kind].addRound(lat, e2e.Percentile(sortedCopy(lat), 99))
			t.Logf("round %d %s: first drag after load: p50 %.0f, p99 %.0f, max %.0f ms (%d moves, %d never reached)",
				r+1, kind, e2e.Percentile(sortedCopy(lat), 50), e2e.Percentile(sortedCopy(lat), 99), e2e.Percentile(sortedCopy(lat), 100), len(lat), missed)
			var all []float64
			// COMPANION_FLOOR_PROFILE=1: where page B's main thread goes
			// during the drags below (JavaScript CPU profile; build the
			// client readable first, browser_perf_profile_test.go).
			if profiling == "1" {
				e2e.StartProfile(a)
				e2e.StartProfile(bp)
				tr = startTrace(bp, "toplevel", "disabled-by-default-devtools.timeline", "gpu", "v8")
			}
			cpu0 := e2e.ReadBrowserCPUOf(b.dataDir)
			f0 := bp.State().Frames
			for i, to := range []float64{x, x + 5*e2e.DemoGrid, x} {
				from := x + 5*e2e.DemoGrid
				if i == 1 {
					from = x
				}
				lat, missed := dragLatencies(t, a, bp, id, from, y, to)
				all = append(all, lat...)
				t.Logf("round %d %s: drag %d: the slowest moves %s", r+1, kind, i+2, slowest(lat, 4))
				if missed > 0 {
					t.Logf("round %d %s: drag %d: %d moves never reached in B", r+1, kind, i+2, missed)
				}
			}
			used := e2e.ReadBrowserCPUOf(b.dataDir).Sub(cpu0)
			drawn := bp.State().Frames - f0
			if profiling == "1" {
				e2e.ProfileSummary(t, fmt.Sprintf("round %d %s, page A during drags 2-4", r+1, kind), e2e.StopProfile(a), 25)
				e2e.ProfileSummary(t, fmt.Sprintf("round %d %s, page B during drags 2-4", r+1, kind), e2e.StopProfile(bp), 25)
				longestTasks(t, fmt.Sprintf("round %d %s, drags 2-4", r+1, kind), tr.stop(), 25)
			}
			warm[kind].addRound(all, e2e.Percentile(sortedCopy(all), 50))
			cpu[kind].addRound(nil, used.GPU/float64(max(1, drawn)))
			t.Logf("round %d %s: drags 2-4: p50 %.0f, p95 %.0f, p99 %.0f ms over %d moves; B drew %d frames, GPU process %.1f ms CPU a frame of B (/proc)%s",
				r+1, kind, e2e.Percentile(sortedCopy(all), 50), e2e.Percentile(sortedCopy(all), 95), e2e.Percentile(sortedCopy(all), 99), len(all), drawn, used.GPU/float64(max(1, drawn)), qualityNote(kind, a, bp))
			if kind == playerPage && withWall {
				// Issue 35: a wall drawn by the game master, honoured by a
				// player's vision, beside the drag's figure.
				lat := wallLatencies(t, srv, bp, e2e.DemoMapID, x, y, 5)
				if len(lat) > 0 {
					wall.addRound(lat, e2e.Percentile(sortedCopy(lat), 50))
					t.Logf("round %d: wall drawn -> B's vision stops at it: p50 %.0f, max %.0f ms over %d walls", r+1,
						e2e.Percentile(sortedCopy(lat), 50), e2e.Percentile(sortedCopy(lat), 100), len(lat))
				}
			}
			closePage(a)
			closePage(bp)
		}
	}
	pf, ff := first[playerPage], first[floorPage]
	pw, fw := warm[playerPage], warm[floorPage]
	pc, fc := cpu[playerPage], cpu[floorPage]
	rows := []floorRow{
		{measure: "drag A->B p50, pages that have dragged" + what, player: pw.pct(50), floor: fw.pct(50), pSpread: pw.pctSpread(50), fSpr: fw.pctSpread(50), target: 1.5, unit: "ms"},
		{measure: "drag A->B p95, pages that have dragged" + what, player: pw.pct(95), floor: fw.pct(95), pSpread: pw.pctSpread(95), fSpr: fw.pctSpread(95), unit: "ms", informational: true},
		{measure: "drag A->B p99, pages that have dragged" + what, player: pw.pct(99), floor: fw.pct(99), pSpread: pw.pctSpread(99), fSpr: fw.pctSpread(99), target: 2, unit: "ms"},
		{measure: "first drag after load, p99 of its moves" + what, player: pf.pct(99), floor: ff.pct(99), pSpread: pf.pctSpread(99), fSpr: ff.pctSpread(99), target: 3, unit: "ms"},
		{measure: "first drag after load, p50 of its moves" + what, player: pf.pct(50), floor: ff.pct(50), pSpread: pf.pctSpread(50), fSpr: ff.pctSpread(50), unit: "ms", informational: true},
	}
	if withWall {
		rows = append(rows, floorRow{measure: "wall drawn by the GM -> B's vision stops, vs drag p50", player: wall.median(), floor: fw.pct(50), pSpread: wall.spread(), fSpr: fw.pctSpread(50), unit: "ms", informational: true})
	}
	return append(rows, floorRow{measure: "GPU-process CPU per frame of B while dragging (/proc)" + what, player: pc.median(), floor: fc.median(), pSpread: pc.spread(), fSpr: fc.spread(), unit: "ms", informational: true})
}

// qualityNote says at which quality level (web/client/src/map/quality.ts)
// the player client's pages ended a measure: the client lowers it when its
// frames run long, and the figures are those of the page as it adapted.
func qualityNote(kind pageKind, pages ...*e2e.BrowserPage) string {
	if kind != playerPage {
		return ""
	}
	var levels []string
	for _, p := range pages {
		var q struct{ Level int }
		p.EvalInto(`window.companionDebug.state().quality`, &q)
		levels = append(levels, fmt.Sprint(q.Level))
	}
	return "; quality level " + strings.Join(levels, "/")
}

// dragLatencies drags token id in page a from map x from to x to (at y)
// in 40 pointer moves, waits for b to settle, and returns for each of A's
// pointer moves the time (ms) to the first frame of b drawing the token at
// or past the pointer's x (in the drag's direction), and how many moves b
// never reached.
func dragLatencies(t *testing.T, a, b *e2e.BrowserPage, id string, from, y, to float64) ([]float64, int) {
	t.Helper()
	a.Eval(`window.__pointerLog.length = 0`)
	b.Eval(`window.__tokenLog.length = 0`)
	// The pointer comes to rest on the token before the press, as a
	// person's does. Pressed at once, the player's first move waited for
	// the frame of its hover (the token's name label): its pointermove
	// is delivered with the next frame, and on this CPU renderer a frame
	// is shown 150-450 ms after it is drawn. That put 300-700 ms into
	// move #0 of most drags; the floor page draws nothing for a hover.
	ax, ay := a.MapToScreen(from, y)
	a.Mouse(input.DispatchMouseEventTypeMouseMoved, ax, ay, 0)
	a.EvalInto(settled, nil)
	e2e.DragInPage(t, a, from, y, to, y, 40, nil)
	b.WaitFor("the drag to end in B", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && Math.abs(t.x - %g) < 1 && Math.abs(t.drawnX - %g) < 1)`, id, to, to), 30*time.Second)
	b.Idle()
	b.Idle()
	var moves, drawn []stampedPoint
	a.EvalInto(`window.__pointerLog`, &moves)
	b.EvalInto(`window.__tokenLog`, &drawn)
	dir := math.Copysign(1, to-from)
	var lat []float64
	missed := 0
	for _, m := range moves {
		found := false
		for _, d := range drawn {
			if d.T >= m.T && dir*(d.X-m.X) >= -1.5 {
				lat = append(lat, d.T-m.T)
				found = true
				break
			}
		}
		if !found {
			missed++
		}
	}
	return lat, missed
}

// settled is a script whose promise resolves once the page has had three
// animation frames: whatever an input asked it to draw is drawn and
// shown (a frame's callbacks wait for the previous frame's display).
const settled = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))))`

// slowest lists the n longest latencies with their move's index in the
// drag (#0 the first move): whether a drag's slow moves come at its
// start, its end or anywhere.
func slowest(lat []float64, n int) string {
	idx := make([]int, len(lat))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return lat[idx[a]] > lat[idx[b]] })
	var out []string
	for _, i := range idx[:min(n, len(idx))] {
		out = append(out, fmt.Sprintf("#%d %.0f ms", i, lat[i]))
	}
	return strings.Join(out, ", ")
}
