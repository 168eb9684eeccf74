package tests

import (
	"testing"
)

// TestPlayerClientPanWritesNothingIntoThePage: a pan moves the map and
// nothing else, so nothing in the page around the canvas may be written
// while it lasts. Any write, even of the value already there, has the
// browser paint that part of the page again in the pan's frames: the
// ruler cleared its empty line on every pan frame, and on a CPU renderer
// that raised a pan frame's cost by half (the floor benchmark,
// browser_perf_floor_test.go). Only the canvas's own style (its cursor)
// may change.
func TestPlayerClientPanWritesNothingIntoThePage(t *testing.T) {
	t.Parallel()
	srv := StartServer(t, ServerOptions{})
	p := openPlayerWith(t, srv, "Pan writes")
	p.idle()
	p.eval(`(() => {
		window.__writes = [];
		new MutationObserver((list) => {
			for (const m of list) {
				if (m.type === "attributes" && m.attributeName === "style" && m.target.nodeName === "CANVAS") continue;
				const name = m.target.id || (m.target.className && (m.target.className.baseVal ?? m.target.className)) || m.target.nodeName;
				window.__writes.push(m.type + " " + (m.attributeName || "") + " on " + name);
			}
		}).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
	})()`)
	f0 := p.state().Frames
	middlePan(p, 30)
	p.idle()
	if drawn := p.state().Frames - f0; drawn < 10 {
		t.Fatalf("the pan drew %d frames: not a pan", drawn)
	}
	var writes []string
	p.evalInto(`window.__writes`, &writes)
	if len(writes) > 0 {
		counts := map[string]int{}
		for _, w := range writes {
			counts[w]++
		}
		t.Errorf("a pan wrote %d times into the page around the map: %v", len(writes), counts)
	}
}
