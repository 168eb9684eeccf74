package playerview

// Screenshots of five vision cases compared with those of another build
// of the client: what a change of how vision is drawn does to what
// people see, counted in pixels. Opt-in, as a tool:
//
//	# with the other build in web/client/dist (say main's):
//	COMPANION_VISION_BASELINE=/tmp/vision-main go test -run TestPlayerClientVisionBaseline ./tests/playerview/
//	# then with this build:
//	COMPANION_VISION_BASELINE=/tmp/vision-main go test -run TestPlayerClientVisionBaseline -v ./tests/playerview/
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

	"github.com/vttapp/companion/tests/e2e"
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
		sys := e2e.DemoSystem(t, func(maps []map[string]any, screen map[string]any) {
			if c.edit != nil {
				c.edit(maps[0])
			}
		})
		srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}})
		p := e2e.OpenPlayerWith(t, srv, "Vision "+c.name, closed)
		p.WaitFor("the party's polygons", `window.companionDebug.state().vision.polygons > 0`, 20*time.Second)
		p.Idle()
		shots[c.name] = e2e.SaveScreenshot(t, p, c.name)
		if c.name == "demo" {
			// After a drag: Brannoc five cells east, by another page.
			a := e2e.OpenPlayerWith(t, srv, "Vision dragger", closed)
			id, x, y := e2e.UncoveredToken(t, a, 5, e2e.DemoBrannocID, e2e.DemoIlsaID, e2e.DemoQuillID)
			e2e.DragInPage(t, a, x, y, x+2*e2e.DemoGrid, y, 20, nil)
			p.WaitFor("the drag to end", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.x !== %g && t.drawnX === t.x)`, id, x), 30*time.Second)
			p.WaitFor("the polygon after the drag", fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g)`, x+2*e2e.DemoGrid, y), 10*time.Second)
			// The darkness at rest: baked at full size again (darkness.ts's
			// settleMs after the last move), as both builds show it then.
			p.WaitFor("the darkness at full size again", `window.companionDebug.state().quality.darknessShown === window.companionDebug.state().quality.darkness`, 10*time.Second)
			p.Idle()
			p.Idle()
			shots["after-drag"] = e2e.SaveScreenshot(t, p, "after-drag")
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
				p, _ := e2e.Pixel(img, float64(x), float64(y))
				q, _ := e2e.Pixel(base, float64(x), float64(y))
				d := e2e.ColourDistance(p, q)
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
