package tests

import (
	"fmt"
	"image"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
)

// blueDiscs returns the centres of the real client's party tokens on the
// map (drawn as #3F51B5 discs when they have no art), left of its
// initiative list: one centre for each separate cluster of such pixels.
func blueDiscs(img image.Image) [][2]float64 {
	type acc struct{ x, y, n float64 }
	var found []acc
	b := img.Bounds()
	for y := b.Min.Y + 60; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Min.X+1200; x += 2 {
			c, _ := pixel(img, float64(x), float64(y))
			if !(c.R > 50 && c.R < 80 && c.G > 70 && c.G < 95 && c.B > 165 && c.B < 200) {
				continue
			}
			joined := false
			for i := range found {
				cx, cy := found[i].x/found[i].n, found[i].y/found[i].n
				if (float64(x)-cx)*(float64(x)-cx)+(float64(y)-cy)*(float64(y)-cy) < 45*45 {
					found[i].x, found[i].y, found[i].n = found[i].x+float64(x), found[i].y+float64(y), found[i].n+1
					joined = true
					break
				}
			}
			if !joined {
				found = append(found, acc{float64(x), float64(y), 1})
			}
		}
	}
	var out [][2]float64
	for _, a := range found {
		if a.n > 30 { // a disc, not a stray pixel of the art
			out = append(out, [2]float64{a.x / a.n, a.y / a.n})
		}
	}
	return out
}

// newProblems returns the page's console problems after the first skip.
func newProblems(p *browserPage, skip int) []string {
	all := p.consoleProblems()
	if len(all) <= skip {
		return nil
	}
	return all[skip:]
}

// What the public Encounter+ web client, installed from its zip, met in a
// first session, through the client itself (issue 33, items 14, 15, 16 and
// 18): a hit-point change keeps the acting token's ring, a tap on a token
// frames its page from this server, a player's markup stays text, and
// hiding a token drops it without an error.
func TestRealClientFirstSession(t *testing.T) {
	s, p := installRealClient(t)
	host := newAPIClient(t, s.HostURL)
	// Ilsa (a party token, in the light) acts: her token wears the ring.
	waitOrange(t, p, "Ilsa's turn at load", true)

	// Item 15: 5 damage to the Crab Knight, whom players see only as
	// bloodied or not: the ring stays.
	if r := host.do("POST", "/host/api/combatants/"+demoKnightCombatant+"/hitpoints", `{"damage": 5}`); r.status != 200 {
		t.Fatalf("damage: %d %s", r.status, r.body)
	}
	time.Sleep(2 * time.Second) // the client's asynchronous redraw, had it been sent the lists
	waitOrange(t, p, "Ilsa's ring after the Knight took 5 damage", true)

	// Item 16: a tap on a party token frames its page at this page's
	// origin, and the page is there.
	discs := blueDiscs(saveScreenshot(t, p, "party"))
	if len(discs) < 2 {
		t.Fatalf("found %d party tokens drawn, want the demo's (Brannoc, Quill; Ilsa wears the ring)", len(discs))
	}
	var frame struct{ Src, Title string }
	for try := 0; try < 3 && frame.Src == ""; try++ {
		x, y := discs[0][0], discs[0][1]
		p.mouse(input.DispatchMouseEventTypeMouseMoved, x, y, 0)
		p.mouse(input.DispatchMouseEventTypeMousePressed, x, y, 1)
		p.mouse(input.DispatchMouseEventTypeMouseReleased, x, y, 0)
		if p.poll(`(() => { const f = document.querySelector("ngb-modal-window iframe"); return f && f.contentDocument && f.contentDocument.querySelector("h1"); })()`, 5*time.Second) {
			p.evalInto(`(() => { const f = document.querySelector("ngb-modal-window iframe"); return {Src: f.src, Title: f.contentDocument.querySelector("h1").textContent}; })()`, &frame)
		}
	}
	if !strings.HasPrefix(frame.Src, s.URL+"/character/") || frame.Title == "" {
		saveScreenshot(t, p, "entity-frame")
		t.Fatalf("the entity frame shows %+v: want a character's page from %s%s", frame, s.URL, p.problemText())
	}
	saveScreenshot(t, p, "entity-frame")
	p.eval(`document.querySelector("ngb-modal-window .btn-close").click()`)
	p.waitFor("the frame closed", `!document.querySelector("ngb-modal-window")`, 5*time.Second)

	// Item 18: a player's <img> in chat stays text in the client's log.
	p.eval(`document.querySelector("label[for=btncheck1]").click()`)
	p.waitFor("the message list", `document.querySelector("app-message-list")`, 5*time.Second)
	public := newAPIClient(t, s.URL)
	if r := public.do("POST", "/api/messages", `{"text": "look <img id=\"probe\" src=\"/others/probe.png\"> here", "source": "Mara"}`); r.status != 200 && r.status != 201 {
		t.Fatalf("post: %d %s", r.status, r.body)
	}
	p.waitFor("the message in the log", `[...document.querySelectorAll(".message-chat")].some(m => m.textContent.includes("look"))`, 10*time.Second)
	var shown struct {
		Text string
		Img  bool
	}
	p.evalInto(`(() => { const m = [...document.querySelectorAll(".message-chat")].find(m => m.textContent.includes("look")); return {Text: m.textContent, Img: !!m.querySelector("img")}; })()`, &shown)
	if shown.Img || !strings.Contains(shown.Text, `<img id="probe"`) {
		t.Errorf("the player's message shows as %+v: want its <img> as text, no image", shown)
	}
	for _, r := range p.finishedRequests() {
		if strings.Contains(r.URL, "probe.png") {
			t.Errorf("the client loaded the player's image: %s", r.URL)
		}
	}

	// Item 14: hiding Quill (a party token players see) drops it from the
	// map, without an error in the client.
	seen := len(p.consoleProblems())
	before := len(blueDiscs(saveScreenshot(t, p, "before-hide")))
	if r := host.do("PATCH", "/host/api/tokens/"+demoQuillID, `{"hidden": true}`); r.status != 200 {
		t.Fatalf("hide: %d %s", r.status, r.body)
	}
	deadline := time.Now().Add(10 * time.Second)
	for after := before; after >= before; after = len(blueDiscs(saveScreenshot(t, p, "after-hide"))) {
		if time.Now().After(deadline) {
			t.Fatalf("%d party tokens drawn after Quill was hidden, %d before", after, before)
		}
		time.Sleep(300 * time.Millisecond)
	}
	time.Sleep(time.Second) // errors of the redraw, had there been any
	for _, problem := range newProblems(p, seen) {
		if strings.Contains(problem, "Error") || strings.Contains(problem, "uncaught") {
			t.Errorf("hiding a token: %s", fmt.Sprintf("%.300s", problem))
		}
	}
}
