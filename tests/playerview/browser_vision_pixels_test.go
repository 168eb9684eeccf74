package playerview

// What the darkness of line of sight looks like, pixel by pixel: the same
// map with line of sight on and off, and each sampled pixel of the first
// is the second's darkened by exactly the layers the zone it lies in
// should have (web/client/src/map/darkness.ts). A change of how the
// darkness is drawn (textures, shaders, resolutions) must keep this.

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// darknessScene is the demo map with only Brannoc (a light of 10 ft
// bright, 25 ft dim, no darkvision, a tint or none) in the west room, the east
// room behind the closed door, no other light, at daylight 0.2. With
// standalone, the same light is a light of the map's own at Brannoc's
// place, and Brannoc carries none, and 24 more lights shine in the east
// room, which the party cannot see: enough points for the client to bake
// the map's lights apart from the tokens' sight (darkness.ts).
func darknessScene(t *testing.T, lineOfSight, tinted, standalone bool) string {
	return e2e.DemoSystem(t, func(maps []map[string]any, screen map[string]any) {
		m := maps[0]
		var kept []any
		for _, tok := range e2e.MapTokens(m) {
			if tok["id"] != e2e.DemoBrannocID {
				continue
			}
			v := tok["vision"].(map[string]any)
			v["dark"] = false
			v["lightOpacity"] = 0.0
			if tinted {
				v["lightOpacity"] = 0.4 // tint alpha min(0.35, 0.4 x 0.35) = 0.14
				v["lightColor"] = "#ffcc88"
			}
			v["lightRadiusMin"] = 10.0
			v["lightRadiusMax"] = 25.0
			kept = append(kept, tok)
		}
		m["tokens"] = kept
		m["lights"] = []any{}
		if standalone {
			v := kept[0].(map[string]any)["vision"].(map[string]any)
			v["light"] = false
			lights := []any{map[string]any{"id": "5e0ca000-0000-4000-8000-000000000399", "enabled": true, "x": 245.0, "y": 385.0,
				"radiusMin": 10.0, "radiusMax": 25.0, "color": v["lightColor"], "opacity": v["lightOpacity"]}}
			for i := range 24 {
				lights = append(lights, map[string]any{"id": fmt.Sprintf("5e0ca000-0000-4000-8000-%012d", 500+i), "enabled": true,
					"x": 850.0 + float64(i%6)*80, "y": 150.0 + float64(i/6)*180, "radiusMin": 5.0, "radiusMax": 10.0, "color": "#ffffff", "opacity": 0.5})
			}
			m["lights"] = lights
		}
		m["lineOfSight"] = lineOfSight
		m["losDaylight"] = 0.2
	})
}

// darknessAt is what the layers do to a pixel of zone: the share of the
// map that shows through, and the darkness colour added (premultiplied,
// 0-255), for daylight 0.2 (dark 0.72: unlit 0.5625 and undim 0.36).
func darknessAt(zone string) (keep float64, add color.RGBA) {
	dark := 0.72
	half := dark / 2
	outer := 1 - (1-dark)/(1-half)
	tint := func(w float64) color.RGBA {
		return color.RGBA{uint8(math.Round(5 * w)), uint8(math.Round(6 * w)), uint8(math.Round(10 * w)), 0}
	}
	switch zone {
	case "bright":
		return 1, color.RGBA{}
	case "dim":
		return 1 - half, tint(half)
	case "unlit":
		a := 1 - (1-outer)*(1-half)
		return 1 - a, tint(outer*(1-half) + half)
	}
	return 0, color.RGBA{} // blind: black
}

// TestPlayerClientDarknessShades: bright light shows the map as it is,
// dim light darkens it by 36%, unlit sight by 72%, and what the party
// cannot see (behind the closed door) is black. With a light colour, the
// light's tint is added to the map under the darkness, within its dim
// radius. The same light standing alone on the map (not carried) shades
// the same.
func TestPlayerClientDarknessShades(t *testing.T) {
	plain := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", darknessScene(t, false, false, false)}})
	// The side panels closed (remembered per device), so that more of the map shows.
	closed := `localStorage.setItem("companion.panel.chat", "0"); localStorage.setItem("companion.panel.initiative", "0")`
	ref := e2e.OpenPlayerWith(t, plain, "Plain", closed)
	refShot := e2e.SaveScreenshot(t, ref, "no-line-of-sight")
	for _, c := range []struct {
		name               string
		tinted, standalone bool
	}{{"untinted", false, false}, {"tinted", true, false}, {"tinted standalone light", true, true}} {
		name, tinted := c.name, c.tinted
		t.Run(name, func(t *testing.T) {
			lit := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", darknessScene(t, true, tinted, c.standalone)}})
			p := e2e.OpenPlayerWith(t, lit, "Dark "+name, closed)
			p.WaitFor("the party's polygon", `window.companionDebug.state().vision.polygons > 0`, 20*time.Second)
			p.Idle()
			shot := e2e.SaveScreenshot(t, p, "line-of-sight-"+name)
			if p.State().Viewport != ref.State().Viewport {
				t.Fatalf("the two pages show the map differently: %+v vs %+v", p.State().Viewport, ref.State().Viewport)
			}
			if c.standalone {
				var apart bool
				p.EvalInto(`window.companionDebug.state().quality.lightsApart`, &apart)
				if !apart {
					t.Errorf("the map's 25 lights are not baked apart from the tokens' sight")
				}
			}
			checkDarkness(t, p, shot, refShot, tinted)
		})
	}
}

// checkDarkness compares shot (line of sight on) with ref (off) at cell
// centres of each zone around Brannoc.
func checkDarkness(t *testing.T, p *e2e.BrowserPage, shot, refShot image.Image, tinted bool) {
	const bx, by = 245.0, 385.0 // Brannoc
	const ppu = 70.0 / 5
	tint := [3]float64{}
	if tinted {
		tint = [3]float64{255 * 0.14, 204 * 0.14, 136 * 0.14} // #ffcc88 at 0.14, added
	}
	counts := map[string]int{}
	var bad []string
	for y := 105.0; y <= 875; y += 70 {
		for x := 105.0; x <= 1295; x += 70 {
			d := math.Hypot(x-bx, y-by)
			zone := ""
			switch {
			case x > 700:
				zone = "blind"
			case d < 50:
				continue // the token
			case d < 10*ppu-25:
				zone = "bright"
			case d > 10*ppu+25 && d < 25*ppu-25:
				zone = "dim"
			case d > 25*ppu+25:
				zone = "unlit"
			default:
				continue // near a light's edge
			}
			sx, sy := p.MapToScreen(x, y)
			if !p.CanvasAt(sx, sy) {
				continue // under a panel
			}
			got, ok1 := e2e.Pixel(shot, sx, sy)
			base, ok2 := e2e.Pixel(refShot, sx, sy)
			if !ok1 || !ok2 {
				continue
			}
			keep, add := darknessAt(zone)
			lit := [3]float64{float64(base.R), float64(base.G), float64(base.B)}
			if zone != "unlit" && zone != "blind" {
				for i := range lit {
					lit[i] = math.Min(255, lit[i]+tint[i])
				}
			}
			want := color.RGBA{
				uint8(math.Round(lit[0]*keep)) + add.R,
				uint8(math.Round(lit[1]*keep)) + add.G,
				uint8(math.Round(lit[2]*keep)) + add.B, 255}
			counts[zone]++
			if e2e.ColourDistance(got, want) > 12 {
				bad = append(bad, fmt.Sprintf("%s at %v,%v: %v, want %v (no darkness: %v)", zone, x, y, got, want, base))
			}
		}
	}
	t.Logf("sampled pixels by zone: %v", counts)
	for _, z := range []string{"bright", "dim", "unlit", "blind"} {
		if counts[z] < 3 {
			t.Fatalf("only %d samples in the %s zone: %v", counts[z], z, counts)
		}
	}
	total := counts["bright"] + counts["dim"] + counts["unlit"] + counts["blind"]
	if len(bad)*20 > total {
		t.Errorf("%d of %d sampled pixels are not darkened as their zone wants (within 12 levels):\n%s", len(bad), total, joinFirst(bad, 15))
	}
}

func joinFirst(lines []string, n int) string {
	out := ""
	for i, l := range lines {
		if i == n {
			out += fmt.Sprintf("... and %d more\n", len(lines)-n)
			break
		}
		out += "  " + l + "\n"
	}
	return out
}
