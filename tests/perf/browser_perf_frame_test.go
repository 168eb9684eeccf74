package perf

// Where a pan frame's time goes (issue 12's frame-time target): the
// JavaScript of the frame (requestAnimationFrame callbacks: the viewport,
// the renderer's tick and Pixi's command recording), the GPU work of the
// WebGL commands (SwiftShader runs them in the GPU process: timed with
// gl.finish() after the frame's callbacks), and the rest of the frame
// interval (compositing the page: the canvas and the DOM above it).
//
// Run with COMPANION_BROWSER_PERF=1 (see browser_perf_test.go).

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// frameProbe is an init script timing each frame's requestAnimationFrame
// callbacks and, when window.__probeFinish is set, the GPU work left after
// them (gl.finish() on the page's WebGL context).
const frameProbe = `(() => {
	const probe = window.__probe = {frames: [], recording: false, gl: null, js: 0};
	const getContext = HTMLCanvasElement.prototype.getContext;
	HTMLCanvasElement.prototype.getContext = function (kind, attrs, ...rest) {
		if (/webgl/.test(kind) && window.__probeContext) attrs = Object.assign({}, attrs, window.__probeContext);
		const gl = getContext.call(this, kind, attrs, ...rest);
		if (gl && /webgl/.test(kind)) probe.gl = gl;
		return gl;
	};
	const raf = window.requestAnimationFrame.bind(window);
	window.requestAnimationFrame = cb => raf(now => {
		const t0 = performance.now();
		try { cb(now); } finally { probe.js += performance.now() - t0; }
	});
	let last = 0;
	const loop = now => {
		// Registered after the page's own callbacks each frame: runs last.
		let gpu = 0;
		if (probe.recording && window.__probeFinish && probe.gl) {
			const t0 = performance.now();
			probe.gl.finish();
			gpu = performance.now() - t0;
		}
		if (probe.recording && last) probe.frames.push({interval: now - last, js: probe.js, gpu});
		probe.js = 0;
		last = now;
		raf(loop);
	};
	window.__probeStart = () => { probe.frames = []; probe.recording = true; last = 0; raf(loop); };
})()`

type probeFrame struct{ Interval, JS, GPU float64 }

// panProbe is one pan: its frames and the browser's CPU time per frame.
type panProbe struct {
	frames []probeFrame
	cpu    e2e.BrowserCPU // per frame
}

// probePan opens the system's map with the extra init scripts, pans it
// with the middle button as panFrameTimes does, and returns the frames.
func probePan(t *testing.T, system, name string, scripts ...string) panProbe {
	t.Helper()
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", system}})
	p := e2e.OpenPlayerWith(t, srv, name, append(scripts, frameProbe)...)
	p.Eval(`window.__probeStart()`)
	cpu0 := e2e.ReadBrowserCPU()
	e2e.MiddlePan(p, 40)
	var frames []probeFrame
	p.EvalInto(`(() => { window.__probe.recording = false; return window.__probe.frames; })()`, &frames)
	cpu := e2e.ReadBrowserCPU().Sub(cpu0)
	n := float64(max(1, len(frames)))
	cpu.GPU /= n
	cpu.All /= n
	e2e.SaveScreenshot(t, p, strings.ReplaceAll(name, " ", "-"))
	return panProbe{frames: frames, cpu: cpu}
}

func probeSummary(t *testing.T, name string, pp panProbe) float64 {
	t.Helper()
	frames := pp.frames
	var in, js, gpu []float64
	for _, f := range frames {
		in = append(in, f.Interval)
		js = append(js, f.JS)
		gpu = append(gpu, f.GPU)
	}
	i50, i95 := sortedStats95(in)
	j50, j95 := sortedStats95(js)
	g50, g95 := sortedStats95(gpu)
	t.Logf("  %-34s interval p50 %6.1f p95 %6.1f | JS p50 %5.1f p95 %5.1f | gl.finish p50 %5.1f p95 %5.1f | CPU/frame GPU process %6.1f, browser %6.1f (%d frames)",
		name, i50, i95, j50, j95, g50, g95, pp.cpu.GPU, pp.cpu.All, len(frames))
	return i95
}

func sortedStats95(v []float64) (p50, p95 float64) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return e2e.Percentile(s, 50), e2e.Percentile(s, 95)
}

// TestPlayerClientPerfFrameBreakdown pans the empty and the crowded map
// and splits the frame into JavaScript, GPU and the rest; then repeats
// the empty map with one suspect removed at a time (the WebGL context's
// multisampling and preserved buffer, the panels' backdrop blur), so that
// each suspect's share is a ratio of the same run.
func TestPlayerClientPerfFrameBreakdown(t *testing.T) {
	e2e.PerfEnabled(t)
	empty := e2e.CrowdedSystem(t, 0, 0, 400)
	crowded := e2e.CrowdedSystem(t, 500, 20, 400)
	noBlur := `document.addEventListener("DOMContentLoaded", () => { const s = document.createElement("style"); s.textContent = "*{backdrop-filter:none!important}"; document.head.append(s); })`
	closed := `localStorage.setItem("companion.panel.chat", "0"); localStorage.setItem("companion.panel.initiative", "0")`
	variants := []struct {
		name, system string
		scripts      []string
	}{
		{"empty map", empty, nil},
		{"empty, gl.finish", empty, []string{`window.__probeFinish = true`}},
		{"500 tokens", crowded, nil},
		{"empty, antialias off", empty, []string{`window.__probeContext = {antialias: false}`}},
		{"empty, no preserveDrawingBuffer", empty, []string{`window.__probeContext = {preserveDrawingBuffer: false}`}},
		{"empty, no backdrop-filter", empty, []string{noBlur}},
		{"empty, panels closed", empty, []string{closed}},
		{"empty, all three off", empty, []string{noBlur, `window.__probeContext = {antialias: false, preserveDrawingBuffer: false}`}},
		{"500 tokens, all three off", crowded, []string{noBlur, `window.__probeContext = {antialias: false, preserveDrawingBuffer: false}`}},
	}
	if only := os.Getenv("COMPANION_PERF_VARIANTS"); only != "" {
		kept := variants[:0]
		for _, v := range variants {
			if strings.Contains(only, v.name) {
				kept = append(kept, v)
			}
		}
		variants = kept
	}
	// Two rounds, interleaved, so that a change of the machine's load
	// touches every variant alike.
	for round := range 2 {
		t.Logf("round %d, pan frames (ms):", round+1)
		for _, v := range variants {
			probeSummary(t, v.name, probePan(t, v.system, v.name, v.scripts...))
		}
	}
}

// TestPlayerClientPerfStartStages splits the time from navigation to the
// map drawn with 50 tokens into the page's stages: the document and
// bundle downloaded, the bundle evaluated (the page joined), the renderer
// (WebGL) ready, GET /api answered and applied, the background image
// loaded, and the first frame with everything.
func TestPlayerClientPerfStartStages(t *testing.T) {
	e2e.PerfEnabled(t)
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", e2e.CrowdedSystem(t, 50, 5, 0)}})
	for round := range 2 {
		p := e2e.NewPage(t, fmt.Sprintf("start %d", round), e2e.DesktopSize)
		p.AddInitScript(e2e.RememberedPlayer("Bench"))
		p.AddInitScript(`(() => {
			const check = () => {
				const d = window.companionDebug;
				const s = d && d.state();
				if (s && s.map && s.map.backgroundLoaded && s.tokens.length >= 50 && s.frames > 0) {
					performance.mark("test:map-drawn");
					return;
				}
				requestAnimationFrame(check);
			};
			requestAnimationFrame(check);
		})()`)
		p.Navigate(srv.URL + "/client/")
		p.WaitFor("the map with 50 tokens", `performance.getEntriesByName("test:map-drawn").length > 0`, 60*time.Second)
		var stages []struct {
			Name       string
			Start, End float64
		}
		p.EvalInto(`(() => {
			const out = [];
			const nav = performance.getEntriesByType("navigation")[0];
			out.push({name: "document response end", start: nav.requestStart, end: nav.responseEnd});
			for (const r of performance.getEntriesByType("resource")) out.push({name: r.name.replace(location.origin, ""), start: r.startTime, end: r.responseEnd});
			for (const m of performance.getEntriesByType("mark")) out.push({name: "mark " + m.name, start: m.startTime, end: m.startTime});
			for (const p of performance.getEntriesByType("paint")) out.push({name: p.name, start: p.startTime, end: p.startTime});
			out.sort((a, b) => a.end - b.end);
			return out;
		})()`, &stages)
		var lines []string
		for _, s := range stages {
			lines = append(lines, fmt.Sprintf("  %7.0f -> %7.0f ms  %s", s.Start, s.End, s.Name))
		}
		t.Logf("round %d, stages from navigation:\n%s", round, strings.Join(lines, "\n"))
	}
}
