package tests

import (
	"encoding/json"
	"fmt"
	"math"
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

// TestPlayerTableDetails: what a player at a desktop meets around the map.
// The console shows where the page looks before it pans; + zooms about the
// party, which stays put on screen; a drag that starts on a panel selects
// no text; a roll card prints its formula once; a bad roll says what is
// wrong in words; the tray's two d20 with advantage are two rolls of
// 2d20kh1; a chat link to /monster/cinder-hound opens a panel titled with
// the monster's name.
func TestPlayerTableDetails(t *testing.T) {
	srv := StartServer(t, ServerOptions{})
	p := openTablePlayer(t, srv, "Ann", desktopSize, "")
	host := newPage(t, "host console", desktopSize)
	host.navigate(srv.HostURL + "/host/")
	host.waitFor("the console's way to more content", `(() => { const a = document.querySelector("#more-content a"); return !!a && a.textContent === "Get more content" && !!document.querySelector(a.getAttribute("href") + " input[type=file]"); })()`, 10*time.Second)
	host.waitFor("Ann's view in the console", `[...document.querySelectorAll("#client-rows tr")].some(tr => tr.textContent.includes("Ann") && /zoom \d\.\d\d/.test(tr.textContent) && !tr.textContent.includes("zoom 0.00"))`, 15*time.Second)

	// + about the party.
	var party []struct{ X, Y float64 }
	p.evalInto(`fetch("/api").then(r => r.json()).then(a => a.map.tokens.filter(t => t.player).map(t => ({x: t.x, y: t.y})))`, &party)
	cx, cy := 0.0, 0.0
	for _, tok := range party {
		cx, cy = cx+tok.X/float64(len(party)), cy+tok.Y/float64(len(party))
	}
	bx, by := p.mapToScreen(cx, cy)
	p.clickElement("the zoom-in button", findButton(`/zoom in/i`))
	p.idle()
	ax, ay := p.mapToScreen(cx, cy)
	if d := math.Hypot(ax-bx, ay-by); d > 8 {
		t.Errorf("+ moved the party's centre %.0f px on screen (from %.0f,%.0f to %.0f,%.0f): it zooms about something else", d, bx, by, ax, ay)
	}

	// A drag from the initiative panel's heading out over the map.
	hx, hy, ok := p.elementCentre(`document.querySelector(".initiative .round")`)
	if !ok {
		t.Fatal("no initiative heading")
	}
	gmuiDrag(p, hx, hy, 640, 500)
	if sel := p.eval(`getSelection().toString()`).(string); sel != "" {
		t.Errorf("a drag from the initiative panel selected text: %q", sel)
	}

	// A roll card prints its formula once.
	p.showChat()
	p.typeInChat("/r 1d20+5")
	p.waitFor("the roll card", `[...document.querySelectorAll(".log .roll")].some(r => r.closest("li").innerText.includes("1d20+5"))`, 10*time.Second)
	if card := p.eval(`[...document.querySelectorAll(".log .roll")].pop().closest("li").innerText`).(string); strings.Count(card, "1d20+5") != 1 {
		t.Errorf("the roll card prints the formula %d times: %q", strings.Count(card, "1d20+5"), card)
	}
	// A bad roll, in words.
	p.typeInChat("/r 1d20+")
	p.waitFor("the bad roll's explanation", `document.body.innerText.includes("Couldn't read '1d20+'")`, 10*time.Second)
	if text := p.pageText(); strings.Contains(text, " at 6 in ") || strings.Contains(text, "unexpected end") {
		t.Errorf("the bad roll shows parser internals: %q", text)
	}
	// The tray: two d20 with advantage.
	p.clickElement("the dice tray button", findButton(`/dice/i`))
	p.eval(`(() => { const f = document.querySelector(".tray"); f.querySelector("input[name=count]").value = "2"; f.querySelector("select[name=mode]").value = "advantage"; })()`)
	p.clickElement("the d20", `document.querySelector(".tray button[data-sides='20']")`)
	p.waitFor("the tray's roll", `[...document.querySelectorAll(".log .roll")].some(r => r.querySelector(".formula") && r.querySelector(".formula").textContent.startsWith("2d20kh1"))`, 10*time.Second)
	var rolls []int
	p.evalInto(`[...[...document.querySelectorAll(".log .roll")].pop().closest("li").querySelectorAll(".roll")].map(r => r.querySelectorAll(".die").length)`, &rolls)
	if len(rolls) != 2 || rolls[0] != 2 || rolls[1] != 2 {
		t.Errorf("two d20 with advantage gave rolls of %v dice, want two rolls of 2 dice (2d20kh1 each)", rolls)
	}

	// A link to an entity page: the panel says whose it is.
	p.typeInChat("Beware /monster/cinder-hound")
	p.waitFor("the link", `[...document.querySelectorAll(".log a[data-entity]")].length > 0`, 10*time.Second)
	p.clickElement("the link", `[...document.querySelectorAll(".log a[data-entity]")].pop()`)
	p.waitFor("the panel titled with the entry's name", `[...document.querySelectorAll("header strong")].some(h => h.textContent === "Cinder Hound")`, 10*time.Second)
	saveScreenshot(t, p, "details")
}
