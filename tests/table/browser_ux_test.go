package table

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// The three screens players bring to the table (issue 24): a phone, a
// desktop and a TV.
var uxSizes = []struct {
	name string
	size e2e.ViewportSize
}{
	{"phone", e2e.ViewportSize{Width: 390, Height: 844, Mobile: true}},
	{"desktop", e2e.ViewportSize{Width: 1280, Height: 800, Mobile: false}},
	{"tv", e2e.ViewportSize{Width: 1920, Height: 1080, Mobile: false}},
}

// TestPlayerMapReadsAtAGlance opens the demo at each size, as a person
// would, and checks what they see at load: every party token on the map
// and not under a panel, a condition's name written out in the initiative
// (phones have no hover), and a token that says its name when tapped.
func TestPlayerMapReadsAtAGlance(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	// Ilsa is poisoned: her row must say so in words.
	var camp struct {
		Game struct {
			Combatants []struct{ ID, Name string }
		}
	}
	r := e2e.GmuiDo(t, srv, "GET", "/host/api/campaign", nil, "")
	if r.Status != 200 {
		t.Fatalf("campaign: %d %s", r.Status, r.Body)
	}
	if err := json.Unmarshal([]byte(r.Body), &camp); err != nil {
		t.Fatal(err)
	}
	ilsa := ""
	for _, c := range camp.Game.Combatants {
		if c.Name == "Ilsa Reedwhisper" {
			ilsa = c.ID
		}
	}
	if ilsa == "" {
		t.Fatalf("the demo has no Ilsa Reedwhisper in combat: %s", r.Body)
	}
	if r := e2e.GmuiDo(t, srv, "POST", "/host/api/combatants/"+ilsa+"/effects", strings.NewReader(`{"name": "Poisoned"}`), "application/json"); r.Status != 200 && r.Status != 201 {
		t.Fatalf("effect: %d %s", r.Status, r.Body)
	}
	for _, sz := range uxSizes {
		t.Run(sz.name, func(t *testing.T) {
			p := e2e.OpenTablePlayer(t, srv, "Ann "+sz.name, sz.size, "")
			e2e.SaveScreenshot(t, p, "load-"+sz.name)
			var party []struct {
				Name string
				X, Y float64
			}
			p.EvalInto(`fetch("/api").then(r => r.json()).then(a => a.map.tokens.filter(t => t.player || t.role === "friendly").map(t => ({name: t.name, x: t.x, y: t.y})))`, &party)
			if len(party) == 0 {
				t.Fatal("the demo shows no party token")
			}
			for _, tok := range party {
				x, y := p.MapToScreen(tok.X, tok.Y)
				if x < 0 || y < 0 || x > float64(sz.size.Width) || y > float64(sz.size.Height) {
					t.Errorf("%s at load: %s is off screen at (%.0f, %.0f)", sz.name, tok.Name, x, y)
					continue
				}
				if !p.CanvasAt(x, y) {
					var what string
					p.EvalInto(fmt.Sprintf(`(() => { const e = document.elementFromPoint(%g, %g); return e ? e.tagName + "." + e.className + " in " + (e.closest("[id]") || {}).id : "nothing"; })()`, x, y), &what)
					t.Errorf("%s at load: %s at (%.0f, %.0f) is covered by %s", sz.name, tok.Name, x, y, what)
				}
			}

			// The condition's name, in words, on Ilsa's row.
			if sz.size.Mobile {
				p.ClickElement("the initiative tab", e2e.FindButton(`/initiative/i`))
			}
			p.WaitFor("Ilsa's condition written out", `[...document.querySelectorAll(".combatant")].some(li => li.querySelector(".name").textContent === "Ilsa Reedwhisper" && li.querySelector(".conditions") && li.querySelector(".conditions").innerText.includes("Poisoned"))`, 10*time.Second)
			// Her whole name shows (not cut with an ellipsis).
			var cut bool
			p.EvalInto(`(() => { const n = [...document.querySelectorAll(".combatant .who")].find(e => e.textContent.includes("Ilsa")); return !n || n.scrollWidth > n.clientWidth + 1; })()`, &cut)
			if cut {
				t.Errorf("%s: Ilsa Reedwhisper's name is cut in the initiative", sz.name)
			}
			if sz.size.Mobile {
				p.ClickElement("the map tab", e2e.FindButton(`/^map$/i`)) // back to the map
			}

			// Tapping a token shows its name beside it.
			tok := party[0]
			x, y := p.MapToScreen(tok.X, tok.Y)
			p.WaitFor("the map uncovered again", fmt.Sprintf(`(() => { const e = document.elementFromPoint(%g, %g); return !!e && e.tagName === "CANVAS"; })()`, x, y), 5*time.Second)
			if p.Eval(`!!document.querySelector(".token-name") && !document.querySelector(".token-name").hidden`) == true {
				t.Fatal("a token's name shows before any tap")
			}
			p.Click(x, y)
			p.WaitFor(tok.Name+"'s name on tap", fmt.Sprintf(`(() => { const e = document.querySelector(".token-name"); if (!e || e.hidden || e.textContent !== %q) return false; const b = e.getBoundingClientRect(); return b.width > 0 && Math.abs(b.left + b.width / 2 - %g) < 200 && Math.abs(b.top - %g) < 150; })()`, tok.Name, x, y), 5*time.Second)
			e2e.SaveScreenshot(t, p, "tap-"+sz.name)
		})
	}
}

// TestPlayerTableDetails: what a player at a desktop meets around the map.
// The console shows where the page looks before it pans; + zooms about the
// party, which stays put on screen; a drag that starts on a panel selects
// no text; a roll card prints its formula once; a bad roll says what is
// wrong in words; the tray's two d20 with advantage are two rolls of
// 2d20kh1; a chat link to /monster/cinder-hound opens a panel titled with
// the monster's name.
func TestPlayerTableDetails(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.OpenTablePlayer(t, srv, "Ann", e2e.DesktopSize, "")
	host := e2e.NewPage(t, "host console", e2e.DesktopSize)
	host.Navigate(srv.HostURL + "/host/")
	host.WaitFor("the console's way to more content", `(() => { const a = document.querySelector("#more-content a"); return !!a && a.textContent === "Get more content" && !!document.querySelector(a.getAttribute("href") + " input[type=file]"); })()`, 10*time.Second)
	host.WaitFor("Ann's view in the console", `[...document.querySelectorAll("#client-rows tr")].some(tr => tr.textContent.includes("Ann") && /zoom \d\.\d\d/.test(tr.textContent) && !tr.textContent.includes("zoom 0.00"))`, 15*time.Second)

	// + about the party.
	var party []struct{ X, Y float64 }
	p.EvalInto(`fetch("/api").then(r => r.json()).then(a => a.map.tokens.filter(t => t.player).map(t => ({x: t.x, y: t.y})))`, &party)
	cx, cy := 0.0, 0.0
	for _, tok := range party {
		cx, cy = cx+tok.X/float64(len(party)), cy+tok.Y/float64(len(party))
	}
	bx, by := p.MapToScreen(cx, cy)
	p.ClickElement("the zoom-in button", e2e.FindButton(`/zoom in/i`))
	p.Idle()
	ax, ay := p.MapToScreen(cx, cy)
	if d := math.Hypot(ax-bx, ay-by); d > 8 {
		t.Errorf("+ moved the party's centre %.0f px on screen (from %.0f,%.0f to %.0f,%.0f): it zooms about something else", d, bx, by, ax, ay)
	}

	// A drag from the initiative panel's heading out over the map.
	hx, hy, ok := p.ElementCentre(`document.querySelector(".initiative .round")`)
	if !ok {
		t.Fatal("no initiative heading")
	}
	e2e.GmuiDrag(p, hx, hy, 640, 500)
	if sel := p.Eval(`getSelection().toString()`).(string); sel != "" {
		t.Errorf("a drag from the initiative panel selected text: %q", sel)
	}

	// A roll card prints its formula once.
	p.ShowChat()
	p.TypeInChat("/r 1d20+5")
	p.WaitFor("the roll card", `[...document.querySelectorAll(".log .roll")].some(r => r.closest("li").innerText.includes("1d20+5"))`, 10*time.Second)
	if card := p.Eval(`[...document.querySelectorAll(".log .roll")].pop().closest("li").innerText`).(string); strings.Count(card, "1d20+5") != 1 {
		t.Errorf("the roll card prints the formula %d times: %q", strings.Count(card, "1d20+5"), card)
	}
	// A bad roll, in words.
	p.TypeInChat("/r 1d20+")
	p.WaitFor("the bad roll's explanation", `document.body.innerText.includes("Couldn't read '1d20+'")`, 10*time.Second)
	if text := p.PageText(); strings.Contains(text, " at 6 in ") || strings.Contains(text, "unexpected end") {
		t.Errorf("the bad roll shows parser internals: %q", text)
	}
	// The tray: two d20 with advantage.
	p.ClickElement("the dice tray button", e2e.FindButton(`/dice/i`))
	p.Eval(`(() => { const f = document.querySelector(".tray"); f.querySelector("input[name=count]").value = "2"; f.querySelector("select[name=mode]").value = "advantage"; })()`)
	p.ClickElement("the d20", `document.querySelector(".tray button[data-sides='20']")`)
	p.WaitFor("the tray's roll", `[...document.querySelectorAll(".log .roll")].some(r => r.querySelector(".formula") && r.querySelector(".formula").textContent.startsWith("2d20kh1"))`, 10*time.Second)
	var rolls []int
	p.EvalInto(`[...[...document.querySelectorAll(".log .roll")].pop().closest("li").querySelectorAll(".roll")].map(r => r.querySelectorAll(".die").length)`, &rolls)
	if len(rolls) != 2 || rolls[0] != 2 || rolls[1] != 2 {
		t.Errorf("two d20 with advantage gave rolls of %v dice, want two rolls of 2 dice (2d20kh1 each)", rolls)
	}

	// A link to an entity page: the panel says whose it is.
	p.TypeInChat("Beware /monster/cinder-hound")
	p.WaitFor("the link", `[...document.querySelectorAll(".log a[data-entity]")].length > 0`, 10*time.Second)
	p.ClickElement("the link", `[...document.querySelectorAll(".log a[data-entity]")].pop()`)
	p.WaitFor("the panel titled with the entry's name", `[...document.querySelectorAll("header strong")].some(h => h.textContent === "Cinder Hound")`, 10*time.Second)
	e2e.SaveScreenshot(t, p, "details")
}
