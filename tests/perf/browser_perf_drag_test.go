package perf

import (
	"fmt"
	"math"
	"sort"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// dragStageRecorder is an init script: every tokenMoved the page sends and
// receives, and every pointer move with buttons pressed, with the time.
const dragStageRecorder = `(() => {
	const now = () => performance.timeOrigin + performance.now();
	const st = window.__dragStages = {moves: [], raw: [], sent: [], recv: []};
	const Orig = window.WebSocket;
	const send = Orig.prototype.send;
	Orig.prototype.send = function (data) {
		try {
			const e = JSON.parse(data);
			if (e.name === "tokenMoved") st.sent.push({t: now(), x: e.data.x, y: e.data.y, state: e.data.state});
		} catch {}
		return send.call(this, data);
	};
	window.WebSocket = class extends Orig {
		constructor(...a) {
			super(...a);
			// Added before the page's own onmessage: stamped on arrival.
			this.addEventListener("message", ev => {
				if (typeof ev.data !== "string" || !ev.data.includes('"tokenMoved"')) return;
				try {
					const e = JSON.parse(ev.data);
					if (e.name === "tokenMoved") st.recv.push({t: now(), x: e.data.x, y: e.data.y, state: e.data.state});
				} catch {}
			});
		}
	};
	window.addEventListener("pointerrawupdate", e => {
		if (e.buttons) st.raw.push({t: performance.timeOrigin + e.timeStamp, h: now()});
	}, true);
	window.addEventListener("pointermove", e => {
		if (!e.buttons || !window.companionDebug) return;
		const p = window.companionDebug.screenToMap(e.clientX, e.clientY);
		st.moves.push({t: performance.timeOrigin + e.timeStamp, h: now(), x: p.x, y: p.y});
	}, true);
})()`

// drawnRecorder starts a requestAnimationFrame loop in the page that keeps
// where token id is drawn after each frame (the loop is registered after
// the renderer's, so it reads the frame just drawn).
func drawnRecorder(id string) string {
	return fmt.Sprintf(`(() => {
		window.__drawnLog = [];
		const loop = () => {
			const d = window.companionDebug;
			const tok = d.state().tokens.find(t => t.id === %q);
			if (tok) window.__drawnLog.push({t: performance.timeOrigin + performance.now(), x: tok.drawnX, y: tok.drawnY, f: d.state().frames});
			requestAnimationFrame(loop);
		};
		requestAnimationFrame(loop);
	})()`, id)
}

type stampedPoint struct {
	T, H, X, Y float64
	F          int
	State      string
}

// dragStages is what one drag from A to B recorded.
type dragStages struct {
	Moves, Raw, Sent, Recv, Drawn []stampedPoint
}

// firstDrawnAt is the first of B's frames at or after t that drew the
// token within tol map pixels of (x, y) (x only when y is NaN), or -1.
func firstDrawnAt(drawn []stampedPoint, t, x, y, tol float64) int {
	for i, d := range drawn {
		if d.T >= t && math.Abs(d.X-x) <= tol && (math.IsNaN(y) || math.Abs(d.Y-y) <= tol) {
			return i
		}
	}
	return -1
}

// recordDrag drags the first uncovered demo token of page a by five cells
// in steps pointer moves and returns every stage's stamps.
func recordDrag(t *testing.T, a, b *e2e.BrowserPage, steps int) (dragStages, string) {
	t.Helper()
	tokID, fromX, fromY := e2e.UncoveredToken(t, a, 5, e2e.DemoBrannocID, e2e.DemoIlsaID, e2e.DemoQuillID)
	b.Eval(drawnRecorder(tokID))
	e2e.DragInPage(t, a, fromX, fromY, fromX+5*e2e.DemoGrid, fromY, steps, nil)
	b.WaitFor("the drag to end in B", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.x !== %g)`, tokID, fromX), 20*time.Second)
	b.Idle()
	b.Idle()
	var s dragStages
	a.EvalInto(`window.__dragStages.moves`, &s.Moves)
	a.EvalInto(`window.__dragStages.raw`, &s.Raw)
	a.EvalInto(`window.__dragStages.sent`, &s.Sent)
	b.EvalInto(`window.__dragStages.recv`, &s.Recv)
	b.EvalInto(`window.__drawnLog`, &s.Drawn)
	return s, tokID
}

func sortedStats(v []float64) (p50, p99 float64) {
	sort.Float64s(v)
	return e2e.Percentile(v, 50), e2e.Percentile(v, 99)
}

// TestPlayerClientPerfDragStages breaks the A-to-B drag latency into its
// stages and reports the figure two ways: from each pointer move to the
// first frame of B at its x (the measure), and from each control
// A actually sent (at most 30 a second, so not every pointer position
// reaches B) to the first frame of B drawing exactly that position.
func TestPlayerClientPerfDragStages(t *testing.T) {
	e2e.PerfEnabled(t)
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	a := e2e.OpenPlayerWith(t, srv, "Player A", dragStageRecorder)
	b := e2e.OpenPlayerWith(t, srv, "Player B", dragStageRecorder, frameProbe)
	b.Eval(`window.__probeStart()`)
	cpu0 := e2e.ReadBrowserCPU()
	s, _ := recordDrag(t, a, b, 40)
	cpu := e2e.ReadBrowserCPU().Sub(cpu0)
	var bFrames []probeFrame
	b.EvalInto(`(() => { window.__probe.recording = false; return window.__probe.frames; })()`, &bFrames)
	n := float64(max(1, len(bFrames)))
	cpu.GPU /= n
	cpu.All /= n
	probeSummary(t, "B's frames during the drag", panProbe{frames: bFrames, cpu: cpu})

	// Stage 1: the pointer event's creation to A's handler.
	var inputDelay []float64
	for _, m := range s.Moves {
		inputDelay = append(inputDelay, m.H-m.T)
	}
	var rawDelay []float64
	for _, m := range s.Raw {
		rawDelay = append(rawDelay, m.H-m.T)
	}
	// Stages per control A sent: handler -> send, send -> B receives,
	// B receives -> B draws it exactly. The server relays one client's
	// moves in order: the i-th control sent is the i-th received.
	var handlerToSend, wire, recvToDrawn, sentToDrawn, moveToDrawn []float64
	var sent, recv []stampedPoint
	for _, c := range s.Sent {
		if c.State == "control" {
			sent = append(sent, c)
		}
	}
	for _, c := range s.Recv {
		if c.State == "control" {
			recv = append(recv, c)
		}
	}
	unmatchedRecv, undrawn := max(0, len(sent)-len(recv)), 0
	for i, c := range sent {
		if i >= len(recv) || recv[i].X != c.X || recv[i].Y != c.Y {
			t.Fatalf("control %d: A sent %v,%v, B received %+v: the relay is not in order", i, c.X, c.Y, recv[min(i, len(recv)-1)])
		}
		r := recv[i]
		// The newest pointer event (raw or not) created before this send made it.
		mi, created := -1, math.Inf(-1)
		for j, m := range s.Moves {
			if m.H <= c.T {
				mi, created = j, m.T
			}
		}
		for _, m := range s.Raw {
			if m.H <= c.T && m.T > created {
				created = m.T
			}
		}
		if mi >= 0 {
			handlerToSend = append(handlerToSend, c.T-s.Moves[mi].H)
		}
		wire = append(wire, r.T-c.T)
		d := firstDrawnAt(s.Drawn, r.T, c.X, c.Y, 0.5)
		if d < 0 {
			undrawn++
			continue
		}
		recvToDrawn = append(recvToDrawn, s.Drawn[d].T-r.T)
		sentToDrawn = append(sentToDrawn, s.Drawn[d].T-c.T)
		if !math.IsInf(created, -1) {
			moveToDrawn = append(moveToDrawn, s.Drawn[d].T-created)
		}
	}
	// The measure: each pointer move to B's first frame at its x.
	var byMove []float64
	for _, m := range s.Moves {
		if d := firstDrawnAt(s.Drawn, m.T, m.X, math.NaN(), 1.5); d >= 0 {
			byMove = append(byMove, s.Drawn[d].T-m.T)
		}
	}
	var frameGaps []float64
	for i := 1; i < len(s.Drawn); i++ {
		frameGaps = append(frameGaps, s.Drawn[i].T-s.Drawn[i-1].T)
	}
	row := func(name string, v []float64) {
		p50, p99 := sortedStats(v)
		t.Logf("  %-44s p50 %7.1f ms  p99 %7.1f ms  (n=%d)", name, p50, p99, len(v))
	}
	t.Logf("drag A -> B, %d pointer moves, %d tokenMoved sent (%d received in B), %d frames of B recorded:", len(s.Moves), len(s.Sent), len(s.Recv), len(s.Drawn))
	row("A pointer event created -> A pointermove", inputDelay)
	row("A pointer event created -> A pointerrawupdate", rawDelay)
	row("A pointermove handled -> A sends control", handlerToSend)
	row("A sends -> B receives (server + sockets)", wire)
	row("B receives -> B frame drawn exactly there", recvToDrawn)
	row("B frame interval during the drag", frameGaps)
	row("A sends -> B drawn there", sentToDrawn)
	p50, p99 := sortedStats(moveToDrawn)
	t.Logf("FIGURE drag latency, A pointer event -> B draws the control it produced exactly: p50 %.1f ms, p99 %.1f ms (%d controls; %d never received, %d never drawn exactly)",
		p50, p99, len(moveToDrawn), unmatchedRecv, undrawn)
	p50, p99 = sortedStats(byMove)
	t.Logf("FIGURE drag latency, A pointer move -> B drawn at its x (issue measure): p50 %.1f ms, p99 %.1f ms over %d of %d moves",
		p50, p99, len(byMove), len(s.Moves))
}
