package tests

// Helpers for the table tests (issue 13): the part of the player client
// around the map — initiative, chat and dice, pointer, ruler, panels —
// read through window.companionDebug.table() (web/client/README.md) and
// driven with real mouse and keyboard input where the page offers it.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// tableState mirrors companionDebug.table().
type tableState struct {
	Round      int              `json:"round"`
	Turn       int              `json:"turn"`
	ActiveID   string           `json:"activeId"`
	Initiative []tableCombatant `json:"initiative"`
	Messages   []tableMessage   `json:"messages"`
	InputError *string          `json:"inputError"`
	Pointers   []struct {
		Source  string  `json:"source"`
		X       float64 `json:"x"`
		Y       float64 `json:"y"`
		Color   string  `json:"color"`
		Visible bool    `json:"visible"`
	} `json:"pointers"`
	Ruler *struct {
		Path     []float64 `json:"path"`
		Distance float64   `json:"distance"`
		Units    string    `json:"units"`
		Text     string    `json:"text"`
	} `json:"ruler"`
	Diagonal string `json:"diagonal"`
	Panel    *struct {
		Kind  string `json:"kind"`
		Title string `json:"title"`
		URL   string `json:"url"`
	} `json:"panel"`
	PausedCover bool   `json:"pausedCover"`
	Lightbox    bool   `json:"lightbox"`
	Layout      string `json:"layout"`
	Theme       string `json:"theme"`
}

type tableCombatant struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Label      string   `json:"label"`
	Role       string   `json:"role"`
	Initials   string   `json:"initials"`
	Bloodied   bool     `json:"bloodied"`
	Defeated   bool     `json:"defeated"`
	Conditions []string `json:"conditions"`
	Own        bool     `json:"own"`
	Active     bool     `json:"active"`
}

type tableMessage struct {
	ID     string   `json:"id"`
	Source string   `json:"source"`
	Text   string   `json:"text"`
	Total  *float64 `json:"total"`
	Dice   []struct {
		Sides    int     `json:"sides"`
		Value    float64 `json:"value"`
		Kept     bool    `json:"kept"`
		Exploded bool    `json:"exploded"`
		Crit     bool    `json:"crit"`
		Fumble   bool    `json:"fumble"`
	} `json:"dice"`
	Error *string `json:"error"`
}

// openTablePlayer opens a player page (see openPlayer) and makes sure it
// has the table part of the hook: without it the table UI is not built
// yet, and the test skips (fails under CI=true).
func openTablePlayer(t *testing.T, srv *Server, name string, size viewportSize, query string) *browserPage {
	t.Helper()
	p := startPlayer(t, srv, name, size, query)
	finishTablePlayer(t, p)
	return p
}

// finishTablePlayer is the rest of openTablePlayer for a page startPlayer
// opened.
func finishTablePlayer(t *testing.T, p *browserPage) {
	t.Helper()
	finishPlayer(t, p)
	if !p.poll(`typeof window.companionDebug.table === "function"`, 3*time.Second) {
		msg := "the player client has no companionDebug.table() (issue 13's table UI, web/client/README.md): the table is not built yet"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// table returns the page's companionDebug.table().
func (p *browserPage) table() tableState {
	p.t.Helper()
	var s tableState
	p.evalInto(`window.companionDebug.table()`, &s)
	return s
}

// waitTable waits until pred, a JavaScript expression over t (the page's
// companionDebug.table()), is true.
func (p *browserPage) waitTable(what, pred string) {
	p.t.Helper()
	p.waitFor(what, `(() => { const t = window.companionDebug.table(); return `+pred+`; })()`, 15*time.Second)
}

// elementCentre returns the page pixel at the centre of the first visible
// element that the JavaScript expression find (returning an element or
// null) yields, scrolling it into view first; ok is false when there is
// none.
func (p *browserPage) elementCentre(find string) (x, y float64, ok bool) {
	p.t.Helper()
	var r *struct{ X, Y float64 }
	p.evalInto(`(() => {
		const e = (`+find+`);
		if (!e) return null;
		e.scrollIntoView({block: "nearest", inline: "nearest"});
		const b = e.getBoundingClientRect();
		if (b.width === 0 || b.height === 0) return null;
		return {X: b.left + b.width / 2, Y: b.top + b.height / 2};
	})()`, &r)
	if r == nil {
		return 0, 0, false
	}
	return r.X, r.Y, true
}

// click presses and releases the left mouse button at (x, y), as a person
// clicking there would (the element on top gets it).
func (p *browserPage) click(x, y float64) {
	p.t.Helper()
	p.mouse(input.DispatchMouseEventTypeMouseMoved, x, y, 0)
	p.mouse(input.DispatchMouseEventTypeMousePressed, x, y, 1)
	p.mouse(input.DispatchMouseEventTypeMouseReleased, x, y, 0)
}

// clickElement clicks the element find yields, failing the test (with
// what) when the page shows none.
func (p *browserPage) clickElement(what, find string) {
	p.t.Helper()
	x, y, ok := p.elementCentre(find)
	if !ok {
		p.t.Fatalf("page %s shows no %s (looked for %s)%s", p.name, what, find, p.problemText())
	}
	p.click(x, y)
}

// jsVisible is a JavaScript function body fragment: the visible elements
// matching a CSS selector, in document order.
const jsVisible = `((sel) => [...document.querySelectorAll(sel)].filter(e => {
	const b = e.getBoundingClientRect();
	const s = getComputedStyle(e);
	return b.width > 0 && b.height > 0 && s.visibility !== "hidden" && s.display !== "none";
}))`

// findChatInput is the chat input: a visible text field outside the join
// form, preferring one labelled for chat, messages or rolls.
const findChatInput = `(() => {
	const fields = ` + jsVisible + `("textarea, input[type=text], input:not([type])")
		.filter(e => !(e.form && e.form.querySelector("input[type=color]")));
	const label = e => ((e.getAttribute("aria-label") || "") + " " + (e.placeholder || "") + " " + (e.name || "") + " " + (e.id || "")).toLowerCase();
	return fields.find(e => /chat|message|roll|say/.test(label(e))) || fields[0] || null;
})()`

// typeInChat clicks the chat input, types text over whatever it holds
// (as a person selecting it all first would) and presses Enter.
func (p *browserPage) typeInChat(text string) {
	p.t.Helper()
	p.clickElement("chat input", findChatInput)
	p.evalInto(`document.activeElement.select && document.activeElement.select()`, nil)
	p.do(
		chromedpCall(input.InsertText, input.InsertTextParams{Text: text}),
		chromedp.KeyEvent("\r"),
	)
}

// findButton is the first visible button (or role=button, or tab) whose
// text, aria-label or title matches the JavaScript regular expression re.
func findButton(re string) string {
	return `(() => ` + jsVisible + `("button, [role=button], [role=tab], summary").find(e =>
		` + re + `.test(((e.textContent || "") + " " + (e.getAttribute("aria-label") || "") + " " + (e.title || "")).trim())) || null)()`
}

// showChat brings the chat log into view on a layout that hides it behind
// a tab (the phone), so that what the person would read is in the DOM.
func (p *browserPage) showChat() {
	p.t.Helper()
	if x, y, ok := p.elementCentre(findChatInput); ok && x >= 0 && y >= 0 {
		return
	}
	if x, y, ok := p.elementCentre(findButton(`/^(chat|log|messages)\b/i`)); ok {
		p.click(x, y)
	}
}

// pageText returns the visible text of the page.
func (p *browserPage) pageText() string {
	p.t.Helper()
	var s string
	p.evalInto(`document.body.innerText`, &s)
	return s
}

// tableSystem returns the demo system with its first map changed by
// editMap and its combatants by editCombatants before a fresh server seeds
// them (either may be nil).
func tableSystem(t *testing.T, editMap func(m map[string]any), editCombatants func([]map[string]any) []map[string]any) string {
	t.Helper()
	dir := demoSystem(t, func(maps []map[string]any, screen map[string]any) {
		if editMap != nil {
			editMap(maps[0])
		}
	})
	if editCombatants != nil {
		path := filepath.Join(dir, "sample", "campaign", "combatants.json")
		var list []map[string]any
		readJSONFile(t, path, &list)
		writeJSONFile(t, path, editCombatants(list))
	}
	return dir
}

// hostSend sends a request with a JSON body and fails unless it answers 2xx.
func hostSend(t *testing.T, method, url, body string) {
	t.Helper()
	var out json.RawMessage
	if code := httpJSON(t, method, url, body, &out); code < 200 || code > 299 {
		t.Fatalf("%s %s %s: %d %s", method, url, body, code, out)
	}
}

// hostGame is the game part of GET /host/api/campaign.
type hostGame struct {
	Game struct {
		Round       int    `json:"round"`
		Turn        int    `json:"turn"`
		CombatantID string `json:"combatantId"`
	} `json:"game"`
}

// hexPointyCentre is the centre of the pointy-top hex at axial (q, r) of
// a grid of size (across the flats) with no offset: the lattice the
// client's grid.ts draws.
func hexPointyCentre(size float64, q, r int) (float64, float64) {
	radius := size / math.Sqrt(3)
	return radius * math.Sqrt(3) * (float64(q) + float64(r)/2), radius * 1.5 * float64(r)
}

// leaksOf returns the frames or bodies that contain any of needles.
func leaksOf(texts []string, needles ...string) []string {
	var out []string
	for i, text := range texts {
		for _, n := range needles {
			if strings.Contains(text, n) {
				out = append(out, fmt.Sprintf("#%d contains %q: %.200s", i, n, text))
			}
		}
	}
	return out
}

// waitFrameText waits until the visible text of a frame (iframe) whose
// address ends with urlSuffix satisfies ok, and returns it; on timeout it
// fails the test. A sandboxed frame runs in its own process and the page's
// scripts cannot read it: the test reads it as its own target, as the
// person sees it. The frame's context is not cancelled here: cancelling it
// would dispose of the page's browser context; it ends with the page.
func (p *browserPage) waitFrameText(what, urlSuffix string, ok func(string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var frame context.Context
	last := ""
	for {
		if frame == nil {
			targets, err := chromedp.Targets(p.ctx)
			if err != nil {
				p.t.Fatalf("page %s: listing targets: %v", p.name, err)
			}
			for _, tg := range targets {
				if tg.Type == "iframe" && strings.HasSuffix(tg.URL, urlSuffix) {
					frame, _ = chromedp.NewContext(p.ctx, chromedp.WithTargetID(tg.TargetID))
				}
			}
		}
		if frame != nil {
			ctx, cancel := context.WithTimeout(frame, 5*time.Second)
			text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
			cancel()
			if err == nil {
				last = text
				if ok(text) {
					return text
				}
			}
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("page %s: waiting for %s in the frame at %s; it shows: %.500q", p.name, what, urlSuffix, last)
		}
		p.nextFrame()
	}
}
