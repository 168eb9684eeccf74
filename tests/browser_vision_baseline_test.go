package tests

// Screenshots of five vision cases compared with those of another build
// of the client: what a change of how vision is drawn does to what
// people see, counted in pixels. Opt-in, as a tool:
//
//	# with the other build in web/client/dist (say main's):
//	COMPANION_VISION_BASELINE=/tmp/vision-main go test -run TestPlayerClientVisionBaseline ./tests/
//	# then with this build:
//	COMPANION_VISION_BASELINE=/tmp/vision-main go test -run TestPlayerClientVisionBaseline -v ./tests/
//
// The first run writes the folder's screenshots, the second compares with
// them and fails past the tolerance below. The pages run at full quality
// (quality pinned, as a player's "restore" does) with the side panels
// closed, so that the map fills the canvas.

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// visionCases are the maps of the comparison: the demo as shipped, the
// fog of war (blind at 0.7), no daylight, daylight with fog.
var visionCases = []struct {
	name string
	edit func(m map[string]any)
}{
	{"demo", nil},
	{"fog", func(m map[string]any) { m["fogOfWar"] = true; m["fogExploration"] = true }},
	{"night", func(m map[string]any) { m["losDaylight"] = 0.0 }},
	{"daylight-fog", func(m map[string]any) { m["losDaylight"] = 1.0; m["fogOfWar"] = true }},
}

// Tolerance: a pixel counts as changed when its channels differ by more
// than 24 in sum; at most 0.5% of the canvas may change.
const (
	baselineChannelSum = 24
	baselineShare      = 0.005
)

func TestPlayerClientVisionBaseline(t *testing.T) {
	dir := os.Getenv("COMPANION_VISION_BASELINE")
	if dir == "" {
		t.Skip("a comparison tool: set COMPANION_VISION_BASELINE to a folder (see the file's comment)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	closed := `localStorage.setItem("companion.panel.chat", "0"); localStorage.setItem("companion.panel.initiative", "0"); localStorage.setItem("companion.quality", JSON.stringify({pinned: true}))`
	shots := map[string]image.Image{}
	for _, c := range visionCases {
		sys := demoSystem(t, func(maps []map[string]any, screen map[string]any) {
			if c.edit != nil {
				c.edit(maps[0])
			}
		})
		srv := StartServer(t, ServerOptions{Args: []string{"--system", sys}})
		p := openPlayerWith(t, srv, "Vision "+c.name, closed)
		p.waitFor("the party's polygons", `window.companionDebug.state().vision.polygons > 0`, 20*time.Second)
		p.idle()
		shots[c.name] = saveScreenshot(t, p, c.name)
		if c.name == "demo" {
			// After a drag: Brannoc five cells east, by another page.
			a := openPlayerWith(t, srv, "Vision dragger", closed)
			id, x, y := uncoveredToken(t, a, 5, demoBrannocID, demoIlsaID, demoQuillID)
			dragInPage(t, a, x, y, x+2*demoGrid, y, 20, nil)
			p.waitFor("the drag to end", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.x !== %g && t.drawnX === t.x)`, id, x), 30*time.Second)
			p.waitFor("the polygon after the drag", fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g)`, x+2*demoGrid, y), 10*time.Second)
			// The darkness at rest: baked at full size again (darkness.ts's
			// settleMs after the last move), as both builds show it then.
			p.waitFor("the darkness at full size again", `window.companionDebug.state().quality.darknessShown === window.companionDebug.state().quality.darkness`, 10*time.Second)
			p.idle()
			p.idle()
			shots["after-drag"] = saveScreenshot(t, p, "after-drag")
		}
	}
	for name, img := range shots {
		path := filepath.Join(dir, name+".png")
		f, err := os.Open(path)
		if os.IsNotExist(err) {
			out, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := png.Encode(out, img); err != nil {
				t.Fatal(err)
			}
			out.Close()
			t.Logf("%s: baseline written to %s", name, path)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		base, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if base.Bounds() != img.Bounds() {
			t.Errorf("%s: %v, the baseline %v", name, img.Bounds(), base.Bounds())
			continue
		}
		var any0, changed, worst int
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				p, _ := pixel(img, float64(x), float64(y))
				q, _ := pixel(base, float64(x), float64(y))
				d := colourDistance(p, q)
				if d > 0 {
					any0++
				}
				if d > baselineChannelSum {
					changed++
				}
				worst = max(worst, d)
			}
		}
		total := b.Dx() * b.Dy()
		t.Logf("%-12s %7d pixels differ at all, %6d by more than %d (%.3f%% of %d; largest difference %d)",
			name, any0, changed, baselineChannelSum, 100*float64(changed)/float64(total), total, worst)
		if float64(changed) > baselineShare*float64(total) {
			t.Errorf("%s: %d pixels changed by more than %d, past the tolerance of %.1f%%", name, changed, baselineChannelSum, 100*baselineShare)
		}
	}
}
