package e2e

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

// Helpers for the table tests (issue 13): the part of the player client
// around the map — initiative, chat and dice, pointer, ruler, panels —
// read through window.companionDebug.table() (web/client/README.md) and
// driven with real mouse and keyboard input where the page offers it.

// tableState mirrors companionDebug.table().
type tableState struct {
	Round      int              `json:"round"`
	Turn       int              `json:"turn"`
	ActiveID   string           `json:"activeId"`
	Initiative []tableCombatant `json:"initiative"`
	Messages   []TableMessage   `json:"messages"`
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

type TableMessage struct {
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

// OpenTablePlayer opens a player page (see openPlayer) and makes sure it
// has the table part of the hook: without it the table UI is not built
// yet, and the test skips (fails under CI=true).
func OpenTablePlayer(t *testing.T, srv *Server, name string, size ViewportSize, query string) *BrowserPage {
	t.Helper()
	p := StartPlayer(t, srv, name, size, query)
	FinishTablePlayer(t, p)
	return p
}

// FinishTablePlayer is the rest of openTablePlayer for a page startPlayer
// opened.
func FinishTablePlayer(t *testing.T, p *BrowserPage) {
	t.Helper()
	FinishPlayer(t, p)
	if !p.Poll(`typeof window.companionDebug.table === "function"`, 3*time.Second) {
		msg := "the player client has no companionDebug.table() (issue 13's table UI, web/client/README.md): the table is not built yet"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// Table returns the page's companionDebug.table().
func (p *BrowserPage) Table() tableState {
	p.T.Helper()
	var s tableState
	p.EvalInto(`window.companionDebug.table()`, &s)
	return s
}

// WaitTable waits until pred, a JavaScript expression over t (the page's
// companionDebug.table()), is true.
func (p *BrowserPage) WaitTable(what, pred string) {
	p.T.Helper()
	p.WaitFor(what, `(() => { const t = window.companionDebug.table(); return `+pred+`; })()`, 15*time.Second)
}

// ElementCentre returns the page pixel at the centre of the first visible
// element that the JavaScript expression find (returning an element or
// null) yields, scrolling it into view first; ok is false when there is
// none.
func (p *BrowserPage) ElementCentre(find string) (x, y float64, ok bool) {
	p.T.Helper()
	var r *struct{ X, Y float64 }
	p.EvalInto(`(() => {
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

// Click presses and releases the left mouse button at (x, y), as a person
// clicking there would (the element on top gets it).
func (p *BrowserPage) Click(x, y float64) {
	p.T.Helper()
	p.Mouse(input.DispatchMouseEventTypeMouseMoved, x, y, 0)
	p.Mouse(input.DispatchMouseEventTypeMousePressed, x, y, 1)
	p.Mouse(input.DispatchMouseEventTypeMouseReleased, x, y, 0)
}

// ClickElement clicks the element find yields, failing the test (with
// what) when the page shows none.
func (p *BrowserPage) ClickElement(what, find string) {
	p.T.Helper()
	x, y, ok := p.ElementCentre(find)
	if !ok {
		p.T.Fatalf("page %s shows no %s (looked for %s)%s", p.Name, what, find, p.ProblemText())
	}
	p.Click(x, y)
}

// JsVisible is a JavaScript function body fragment: the visible elements
// matching a CSS selector, in document order.
const JsVisible = `((sel) => [...document.querySelectorAll(sel)].filter(e => {
	const b = e.getBoundingClientRect();
	const s = getComputedStyle(e);
	return b.width > 0 && b.height > 0 && s.visibility !== "hidden" && s.display !== "none";
}))`

// FindChatInput is the chat input: a visible text field outside the join
// form, preferring one labelled for chat, messages or rolls.
const FindChatInput = `(() => {
	const fields = ` + JsVisible + `("textarea, input[type=text], input:not([type])")
		.filter(e => !(e.form && e.form.querySelector("input[type=color]")));
	const label = e => ((e.getAttribute("aria-label") || "") + " " + (e.placeholder || "") + " " + (e.name || "") + " " + (e.id || "")).toLowerCase();
	return fields.find(e => /chat|message|roll|say/.test(label(e))) || fields[0] || null;
})()`

// TypeInChat clicks the chat input, types text over whatever it holds
// (as a person selecting it all first would) and presses Enter.
func (p *BrowserPage) TypeInChat(text string) {
	p.T.Helper()
	p.ClickElement("chat input", FindChatInput)
	p.EvalInto(`document.activeElement.select && document.activeElement.select()`, nil)
	p.Do(
		ChromedpCall(input.InsertText, input.InsertTextParams{Text: text}),
		chromedp.KeyEvent("\r"),
	)
}

// FindButton is the first visible button (or role=button, or tab) whose
// text, aria-label or title matches the JavaScript regular expression re.
func FindButton(re string) string {
	return `(() => ` + JsVisible + `("button, [role=button], [role=tab], summary").find(e =>
		` + re + `.test(((e.textContent || "") + " " + (e.getAttribute("aria-label") || "") + " " + (e.title || "")).trim())) || null)()`
}

// ShowChat brings the chat log into view on a layout that hides it behind
// a tab (the phone), so that what the person would read is in the DOM.
func (p *BrowserPage) ShowChat() {
	p.T.Helper()
	if x, y, ok := p.ElementCentre(FindChatInput); ok && x >= 0 && y >= 0 {
		return
	}
	if x, y, ok := p.ElementCentre(FindButton(`/^(chat|log|messages)\b/i`)); ok {
		p.Click(x, y)
	}
}

// PageText returns the visible text of the page.
func (p *BrowserPage) PageText() string {
	p.T.Helper()
	var s string
	p.EvalInto(`document.body.innerText`, &s)
	return s
}

// TableSystem returns the demo system with its first map changed by
// editMap and its combatants by editCombatants before a fresh server seeds
// them (either may be nil).
func TableSystem(t *testing.T, editMap func(m map[string]any), editCombatants func([]map[string]any) []map[string]any) string {
	t.Helper()
	dir := DemoSystem(t, func(maps []map[string]any, screen map[string]any) {
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

// HostSend sends a request with a JSON body and fails unless it answers 2xx.
func HostSend(t *testing.T, method, url, body string) {
	t.Helper()
	var out json.RawMessage
	if code := HttpJSON(t, method, url, body, &out); code < 200 || code > 299 {
		t.Fatalf("%s %s %s: %d %s", method, url, body, code, out)
	}
}

// HostGame is the game part of GET /host/api/campaign.
type HostGame struct {
	Game struct {
		Round       int    `json:"round"`
		Turn        int    `json:"turn"`
		CombatantID string `json:"combatantId"`
	} `json:"game"`
}

// HexPointyCentre is the centre of the pointy-top hex at axial (q, r) of
// a grid of size (across the flats) with no offset: the lattice the
// client's grid.ts draws.
func HexPointyCentre(size float64, q, r int) (float64, float64) {
	radius := size / math.Sqrt(3)
	return radius * math.Sqrt(3) * (float64(q) + float64(r)/2), radius * 1.5 * float64(r)
}

// LeaksOf returns the frames or bodies that contain any of needles.
func LeaksOf(texts []string, needles ...string) []string {
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

// WaitFrameText waits until the visible text of a frame (iframe) whose
// address ends with urlSuffix satisfies ok, and returns it; on timeout it
// fails the test. A sandboxed frame runs in its own process and the page's
// scripts cannot read it: the test reads it as its own target, as the
// person sees it. The frame's context is not cancelled here: cancelling it
// would dispose of the page's browser context; it ends with the page.
func (p *BrowserPage) WaitFrameText(what, urlSuffix string, ok func(string) bool) string {
	p.T.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var frame context.Context
	last := ""
	for {
		if frame == nil {
			targets, err := chromedp.Targets(p.Ctx)
			if err != nil {
				p.T.Fatalf("page %s: listing targets: %v", p.Name, err)
			}
			for _, tg := range targets {
				if tg.Type == "iframe" && strings.HasSuffix(tg.URL, urlSuffix) {
					frame, _ = chromedp.NewContext(p.Ctx, chromedp.WithTargetID(tg.TargetID))
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
			p.T.Fatalf("page %s: waiting for %s in the frame at %s; it shows: %.500q", p.Name, what, urlSuffix, last)
		}
		p.NextFrame()
	}
}

type HandlerTime struct {
	Name    string  `json:"name"`
	Handler float64 `json:"handler"`
	Layout  float64 `json:"layout"`
}

// HandlerTimes returns the recorded times of events named name, from
// index from on, and clears nothing.
func (p *BrowserPage) HandlerTimes(name string) []HandlerTime {
	p.T.Helper()
	var all []HandlerTime
	p.EvalInto(`window.__handlerTimes`, &all)
	var out []HandlerTime
	for _, h := range all {
		if h.Name == name {
			out = append(out, h)
		}
	}
	return out
}

// NextFrame waits for the page's next animation frame.
func (p *BrowserPage) NextFrame() {
	p.T.Helper()
	p.EvalInto(`new Promise(r => requestAnimationFrame(() => r(true)))`, nil)
}
