package perf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// floorBigMap (issue 39, item 2): a 12,000-pixel battle map, past the
// browser's largest texture. The player client draws it from the
// server's tiles (package maptiles, web/client/src/map/tiled.ts); the
// floor page draws the same picture as one texture scaled down to fit,
// as a client without tiles must. Both on a first visit (a fresh browser
// context each round). Reported: navigation to the map drawn (the
// player's first frame shows the one-tile top level), navigation to the
// player's tiles of the view's level all drawn, and the texture bytes
// each page holds for the background then (4 bytes a pixel; the GPU
// holds at least that).
func floorBigMap(t *testing.T, b *benchBrowser, rounds int) []floorRow {
	const side = 12000
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	picture := e2e.BigMapPNG(side, true)
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	form.WriteField("name", "Great hall")
	part, _ := form.CreateFormFile("file", "great-hall.png")
	part.Write(picture)
	form.Close()
	r := e2e.GmuiDo(t, srv, "POST", "/host/api/maps", &body, form.FormDataContentType())
	if r.Status != 201 {
		t.Fatalf("POST /host/api/maps: %d %s", r.Status, r.Body)
	}
	var m struct{ ID, Image string }
	json.Unmarshal([]byte(r.Body), &m)
	if r := e2e.GmuiDo(t, srv, "POST", "/host/api/screen", strings.NewReader(`{"mapId":"`+m.ID+`"}`), "application/json"); r.Status != 200 {
		t.Fatalf("POST /host/api/screen: %d %s", r.Status, r.Body)
	}
	// The cut, once, as the first player's request pays for it.
	began := time.Now()
	if status, raw := e2e.HttpGet(t, srv.URL+m.Image+"?tiles"); status != 200 {
		t.Fatalf("the tile index: %d %s", status, raw)
	}
	t.Logf("big map: a %d-pixel PNG of %.1f MB, cut into tiles in %.1f s (once, on the first request)", side, float64(len(picture))/1e6, time.Since(began).Seconds())

	detailProbe := `(() => {
		const tick = () => {
			const s = window.companionDebug && window.companionDebug.state();
			const tiles = s && s.map && s.map.backgroundTiles;
			const done = s && s.map && s.map.backgroundLoaded && (!tiles || tiles.loading === 0);
			if (done) setTimeout(() => { window.__detailAt = performance.now(); }, 0);
			else requestAnimationFrame(tick);
		};
		requestAnimationFrame(tick);
	})()`
	drawn := map[pageKind]*series{playerPage: {}, floorPage: {}}
	detail := map[pageKind]*series{playerPage: {}, floorPage: {}}
	bytesHeld := map[pageKind]*series{playerPage: {}, floorPage: {}}
	for r := -1; r < rounds; r++ { // round -1 warms the browser's caches of shaders, not counted
		for _, kind := range kindsOf(max(r, 0)) {
			p := prepareBenchPage(t, b, kind, "Big map", mapDrawnProbe(0), detailProbe)
			navigateBenchPage(p, srv, kind)
			p.WaitFor("the map drawn", `window.__mapDrawnAt !== undefined && window.__detailAt !== undefined`, 120*time.Second)
			var at, full, held float64
			p.EvalInto(`window.__mapDrawnAt`, &at)
			p.EvalInto(`window.__detailAt`, &full)
			p.EvalInto(`(() => { const m = window.companionDebug.state().map; return m.backgroundTiles ? m.backgroundTiles.bytes : (m.backgroundBytes || 0); })()`, &held)
			if kind == playerPage && p.Eval(`!!window.companionDebug.state().map.backgroundTiles`) != true {
				t.Fatalf("the player client drew the %d-pixel map without tiles", side)
			}
			closePage(p)
			if r < 0 {
				continue
			}
			drawn[kind].addRound([]float64{at}, at)
			detail[kind].addRound([]float64{full}, full)
			bytesHeld[kind].addRound([]float64{held / 1e6}, held/1e6)
			t.Logf("round %d %s: map drawn %.0f ms, every tile in view %.0f ms after navigation; %.1f MB of background texture", r+1, kind, at, full, held/1e6)
		}
	}
	row := func(name string, s map[pageKind]*series, unit string, target float64) floorRow {
		return floorRow{measure: name, player: s[playerPage].median(), floor: s[floorPage].median(), pSpread: s[playerPage].spread(), fSpr: s[floorPage].spread(), target: target, unit: unit}
	}
	return []floorRow{
		row(fmt.Sprintf("%dpx map: navigation to map drawn (median)", side), drawn, "ms", 1.5),
		row(fmt.Sprintf("%dpx map: navigation to full detail in view", side), detail, "ms", 1.5),
		row(fmt.Sprintf("%dpx map: background texture held", side), bytesHeld, "MB", 1.0),
	}
}
