package playerview

import (
	"testing"

	"github.com/vttapp/companion/tests/e2e"
)

// TestPlayerClientPanWritesNothingIntoThePage: a pan moves the map and
// nothing else, so nothing in the page around the canvas may be written
// while it lasts. Any write, even of the value already there, has the
// browser paint that part of the page again in the pan's frames: the
// ruler cleared its empty line on every pan frame, and on a CPU renderer
// that raised a pan frame's cost by half (the floor benchmark,
// browser_perf_floor_test.go). Only the canvas's own style (its cursor)
// may change. The page's quality is pinned: on a loaded machine the page
// would otherwise lower it mid-pan, which writes its notice, a change this
// test is not about (browser_quality_test.go tests it).
func TestPlayerClientPanWritesNothingIntoThePage(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.OpenPlayerWith(t, srv, "Pan writes", e2e.QualityPinned)
	p.Idle()
	p.Eval(`(() => {
		window.__writes = [];
		new MutationObserver((list) => {
			for (const m of list) {
				if (m.type === "attributes" && m.attributeName === "style" && m.target.nodeName === "CANVAS") continue;
				const name = m.target.id || (m.target.className && (m.target.className.baseVal ?? m.target.className)) || m.target.nodeName;
				window.__writes.push(m.type + " " + (m.attributeName || "") + " on " + name);
			}
		}).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
	})()`)
	f0 := p.State().Frames
	e2e.MiddlePan(p, 30)
	p.Idle()
	if drawn := p.State().Frames - f0; drawn < 10 {
		t.Fatalf("the pan drew %d frames: not a pan", drawn)
	}
	var writes []string
	p.EvalInto(`window.__writes`, &writes)
	if len(writes) > 0 {
		counts := map[string]int{}
		for _, w := range writes {
			counts[w]++
		}
		t.Errorf("a pan wrote %d times into the page around the map: %v", len(writes), counts)
	}
}
