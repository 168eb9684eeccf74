package tests

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The three screens players bring to the table (issue 24): a phone, a
// desktop and a TV.
var uxSizes = []struct {
	name string
	size viewportSize
}{
	{"phone", viewportSize{390, 844, true}},
	{"desktop", viewportSize{1280, 800, false}},
	{"tv", viewportSize{1920, 1080, false}},
}

// TestPlayerMapReadsAtAGlance opens the demo at each size, as a person
// would, and checks what they see at load: every party token on the map
// and not under a panel, a condition's name written out in the initiative
// (phones have no hover), and a token that says its name when tapped.
func TestPlayerMapReadsAtAGlance(t *testing.T) {
	srv := StartServer(t, ServerOptions{})
	// Ilsa is poisoned: her row must say so in words.
	var camp struct {
		Game struct {
			Combatants []struct{ ID, Name string }
		}
	}
	r := gmuiDo(t, srv, "GET", "/host/api/campaign", nil, "")
	if r.status != 200 {
		t.Fatalf("campaign: %d %s", r.status, r.body)
	}
	if err := json.Unmarshal([]byte(r.body), &camp); err != nil {
		t.Fatal(err)
	}
	ilsa := ""
	for _, c := range camp.Game.Combatants {
		if c.Name == "Ilsa Reedwhisper" {
			ilsa = c.ID
		}
	}
	if ilsa == "" {
		t.Fatalf("the demo has no Ilsa Reedwhisper in combat: %s", r.body)
	}
	if r := gmuiDo(t, srv, "POST", "/host/api/combatants/"+ilsa+"/effects", strings.NewReader(`{"name": "Poisoned"}`), "application/json"); r.status != 200 && r.status != 201 {
		t.Fatalf("effect: %d %s", r.status, r.body)
	}
	for _, sz := range uxSizes {
		t.Run(sz.name, func(t *testing.T) {
			p := openTablePlayer(t, srv, "Ann "+sz.name, sz.size, "")
			saveScreenshot(t, p, "load-"+sz.name)
			var party []struct {
				Name string
				X, Y float64
			}
			p.evalInto(`fetch("/api").then(r => r.json()).then(a => a.map.tokens.filter(t => t.player || t.role === "friendly").map(t => ({name: t.name, x: t.x, y: t.y})))`, &party)
			if len(party) == 0 {
				t.Fatal("the demo shows no party token")
			}
			for _, tok := range party {
				x, y := p.mapToScreen(tok.X, tok.Y)
				if x < 0 || y < 0 || x > float64(sz.size.Width) || y > float64(sz.size.Height) {
					t.Errorf("%s at load: %s is off screen at (%.0f, %.0f)", sz.name, tok.Name, x, y)
					continue
				}
				if !p.canvasAt(x, y) {
					var what string
					p.evalInto(fmt.Sprintf(`(() => { const e = document.elementFromPoint(%g, %g); return e ? e.tagName + "." + e.className + " in " + (e.closest("[id]") || {}).id : "nothing"; })()`, x, y), &what)
					t.Errorf("%s at load: %s at (%.0f, %.0f) is covered by %s", sz.name, tok.Name, x, y, what)
				}
			}

			// The condition's name, in words, on Ilsa's row.
			if sz.size.Mobile {
				p.clickElement("the initiative tab", findButton(`/initiative/i`))
			}
			p.waitFor("Ilsa's condition written out", `[...document.querySelectorAll(".combatant")].some(li => li.querySelector(".name").textContent === "Ilsa Reedwhisper" && li.querySelector(".conditions") && li.querySelector(".conditions").innerText.includes("Poisoned"))`, 10*time.Second)
			// Her whole name shows (not cut with an ellipsis).
			var cut bool
			p.evalInto(`(() => { const n = [...document.querySelectorAll(".combatant .who")].find(e => e.textContent.includes("Ilsa")); return !n || n.scrollWidth > n.clientWidth + 1; })()`, &cut)
			if cut {
				t.Errorf("%s: Ilsa Reedwhisper's name is cut in the initiative", sz.name)
			}
			if sz.size.Mobile {
				p.clickElement("the map tab", findButton(`/^map$/i`)) // back to the map
			}

			// Tapping a token shows its name beside it.
			tok := party[0]
			x, y := p.mapToScreen(tok.X, tok.Y)
			p.waitFor("the map uncovered again", fmt.Sprintf(`(() => { const e = document.elementFromPoint(%g, %g); return !!e && e.tagName === "CANVAS"; })()`, x, y), 5*time.Second)
			if p.eval(`!!document.querySelector(".token-name") && !document.querySelector(".token-name").hidden`) == true {
				t.Fatal("a token's name shows before any tap")
			}
			p.click(x, y)
			p.waitFor(tok.Name+"'s name on tap", fmt.Sprintf(`(() => { const e = document.querySelector(".token-name"); if (!e || e.hidden || e.textContent !== %q) return false; const b = e.getBoundingClientRect(); return b.width > 0 && Math.abs(b.left + b.width / 2 - %g) < 200 && Math.abs(b.top - %g) < 150; })()`, tok.Name, x, y), 5*time.Second)
			saveScreenshot(t, p, "tap-"+sz.name)
		})
	}
}
