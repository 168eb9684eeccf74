package playerview

// What a frame costs while a party token moves (issue 12's drag latency):
// the token carries the party's sight, so every such frame draws the
// darkness again. Counted rather than timed, in the ordinary suite.

import (
	"fmt"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// movingFrameWork is an init script that keeps, after each frame, where
// token id is drawn and the page's running WebGL counts (countDrawCalls'
// window.__gl, installed before it).
func movingFrameWork(id string) string {
	return fmt.Sprintf(`(() => {
		window.__movingLog = [];
		const loop = () => {
			const d = window.companionDebug;
			const tok = d && d.state().tokens.find(t => t.id === %q);
			if (tok && window.__gl) window.__movingLog.push({x: tok.drawnX, y: tok.drawnY, draws: window.__gl.draws, stencils: window.__gl.stencils});
			requestAnimationFrame(loop);
		};
		requestAnimationFrame(loop);
	})()`, id)
}

type movingFrame struct {
	X, Y            float64
	Draws, Stencils int
}

// TestPlayerClientMovingVisionFrameWork: in a frame of page B where
// another page's drag moves a party token (its sight moves, so the
// darkness is drawn again), the darkness is cut with erased polygons,
// not stencil masks: no stencil operation at all, and few draw calls.
// Three inverse stencil masks re-baked every such frame were the largest
// part of the frame on a CPU renderer.
func TestPlayerClientMovingVisionFrameWork(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	// Counts, not pixels: the map alone in a small window is enough. The
	// two pages load side by side.
	a := e2e.StartPlayer(t, srv, "Player A", e2e.MapOnlySize, "", e2e.PanelsClosed)
	// B stays at full quality: on a loaded machine it may lower itself
	// mid-drag, halving the full-size mask this compares against.
	b := e2e.StartPlayer(t, srv, "Player B", e2e.MapOnlySize, "", e2e.PanelsClosed, e2e.QualityPinned, e2e.CountDrawCalls)
	e2e.FinishPlayer(t, a)
	e2e.FinishPlayer(t, b)
	tokID, fromX, fromY := e2e.UncoveredToken(t, a, 5, e2e.DemoBrannocID, e2e.DemoIlsaID, e2e.DemoQuillID)
	var party bool
	b.EvalInto(fmt.Sprintf(`(() => {
		const t = window.companionDebug.state().tokens.find(t => t.id === %q);
		return !!t && window.companionDebug.state().vision.lineOfSight;
	})()`, tokID), &party)
	if !party {
		t.Fatalf("page B does not show token %s on a map with line of sight: the demo map changed", tokID)
	}
	b.Eval(movingFrameWork(tokID))
	// The darkness mask B shows during the drag (half size while the
	// polygons stream, to bake a quarter of the texels).
	// And the side of the first mask baked once the token moved, on both
	// pages: a drag's first move is part of the stream too (it was baked at
	// full size, which made each drag's first move the slowest).
	probe := darknessSidesProbe(tokID, fromX)
	b.Eval(probe)
	a.Eval(probe)
	// The side panels: a token's move changes nothing in them, so nothing
	// in them may be written (a write repaints the panel, which on a CPU
	// renderer held the next drag's first frames back by a frame).
	b.Eval(`(() => {
		window.__panelWrites = [];
		const panel = document.querySelector("#panel-initiative");
		new MutationObserver((list) => { for (const m of list) window.__panelWrites.push(m.type + " " + (m.target.className || m.target.nodeName)); })
			.observe(panel, {subtree: true, childList: true, characterData: true, attributes: true});
	})()`)
	e2e.DragInPage(t, a, fromX, fromY, fromX+5*e2e.DemoGrid, fromY, 30, nil)
	b.WaitFor("the drag to end in B", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.x !== %g)`, tokID, fromX), 20*time.Second)
	b.Idle()
	b.Idle()
	var panelWrites []string
	b.EvalInto(`window.__panelWrites`, &panelWrites)
	if len(panelWrites) > 0 {
		t.Errorf("a token's drag wrote %d times into B's initiative panel, whose content did not change: %q", len(panelWrites), panelWrites)
	}
	var log []movingFrame
	b.EvalInto(`window.__movingLog`, &log)
	moving, stencils, draws := 0, 0, 0
	for i := 1; i < len(log); i++ {
		if log[i].X == log[i-1].X && log[i].Y == log[i-1].Y {
			continue
		}
		moving++
		stencils += log[i].Stencils - log[i-1].Stencils
		draws += log[i].Draws - log[i-1].Draws
	}
	if moving < 5 {
		t.Fatalf("page B drew only %d frames with the party token moving (of %d recorded); the drag did not reach it", moving, len(log))
	}
	t.Logf("%d frames of B with the party token moving: %.1f draw calls and %.1f stencil operations a frame",
		moving, float64(draws)/float64(moving), float64(stencils)/float64(moving))
	var sides struct {
		During       []int
		Full, AtRest int
	}
	b.WaitFor("the darkness at full size again", `window.companionDebug.state().quality.darknessShown === window.companionDebug.state().quality.darkness`, 10*time.Second)
	b.EvalInto(`(() => { window.__stopSides = true; const q = window.companionDebug.state().quality; return {During: [...window.__shownSides], Full: q.darkness, AtRest: q.darknessShown}; })()`, &sides)
	halved := false
	for _, s := range sides.During {
		halved = halved || (s > 0 && s <= sides.Full/2)
	}
	if !halved {
		t.Errorf("while the party token moved, B's darkness mask was %v texels, never half of the full %d (baked at full size each move)", sides.During, sides.Full)
	}
	var firstMoved, firstMovedA int
	b.EvalInto(`window.__firstMovedSide`, &firstMoved)
	a.EvalInto(`window.__firstMovedSide`, &firstMovedA)
	if firstMovedA == 0 || firstMovedA > sides.Full/2 {
		t.Errorf("the first darkness mask A baked once it dragged its party token was %d texels; want half of the full %d or less (a drag's first move baked at full size)", firstMovedA, sides.Full)
	}
	if firstMoved == 0 || firstMoved > sides.Full/2 {
		t.Errorf("the first darkness mask B baked once the dragged party token moved was %d texels; want half of the full %d or less (a drag's first move baked at full size)", firstMoved, sides.Full)
	}
	if stencils != 0 {
		t.Errorf("frames in which a party token moved made %d stencil operations (%.1f a frame); want none (the darkness is cut by erasing, not masked)",
			stencils, float64(stencils)/float64(moving))
	}
}

// darknessSidesProbe is a script that keeps, in every animation frame,
// the side of the darkness mask shown (window.__shownSides, until
// window.__stopSides), and the side of the first mask baked once token id
// is drawn away from map x fromX (window.__firstMovedSide).
func darknessSidesProbe(id string, fromX float64) string {
	return fmt.Sprintf(`(() => {
		window.__shownSides = new Set();
		let bakes;
		const loop = () => {
			const s = window.companionDebug.state();
			window.__shownSides.add(s.quality.darknessShown);
			const tok = s.tokens.find(t => t.id === %q);
			if (bakes === undefined && tok && tok.drawnX !== %g) bakes = s.quality.darknessBakes;
			if (window.__firstMovedSide === undefined && bakes !== undefined && s.quality.darknessBakes > bakes) window.__firstMovedSide = s.quality.darknessShown;
			if (!window.__stopSides) requestAnimationFrame(loop);
		};
		requestAnimationFrame(loop);
	})()`, id, fromX)
}
