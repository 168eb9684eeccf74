package tests

import (
	"strings"
	"testing"
)

// TestPlayerClientAsksForTheSnapshotBeforeItsBundle: a returning player's
// page asks for GET /api as index.html is read, before the bundle has run
// (its own request waited for the bundle's evaluation: half a second on a
// busy CPU renderer), and the bundle uses that answer and the image
// download it started: one GET /api, one image download.
func TestPlayerClientAsksForTheSnapshotBeforeItsBundle(t *testing.T) {
	srv := StartServer(t, ServerOptions{})
	p := openPlayerWith(t, srv, "Early")
	var requests []struct {
		Name  string
		Start float64
	}
	p.evalInto(`performance.getEntriesByType("resource").map((e) => ({Name: new URL(e.name).pathname, Start: e.startTime}))`, &requests)
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
	p.evalInto(`performance.getEntriesByName("companion:bundle-ran")[0].startTime`, &ran)
	if start["/api"][0] >= ran {
		t.Errorf("GET /api started at %.0f ms, the bundle ran at %.0f ms: the bundle asked for it", start["/api"][0], ran)
	}
	var ok bool
	p.evalInto(`window.companionDebug.state().map.backgroundLoaded && !window.companionEarly.api && Object.values(window.companionEarly.images).every((v) => v === null)`, &ok)
	if !ok {
		t.Errorf("the page did not take the early answers (window.companionEarly still holds them, or the map has no background)")
	}
}
