package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// headerText is one element of the player page's header as a person sees
// it: its text, whether all of it shows (no ellipsis), whether it is on
// screen and not covered (the element under its centre is itself).
type headerText struct {
	Text                 string
	Whole, OnScreen, Top bool
	Right, BadgeLeft     float64
}

func readHeader(p *e2e.BrowserPage, selector string) headerText {
	p.T.Helper()
	var h headerText
	p.EvalInto(fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) return {Text: ""};
		const r = e.getBoundingClientRect(), badge = document.querySelector(".status").getBoundingClientRect();
		const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return {Text: e.innerText, Whole: e.scrollWidth <= e.clientWidth + 1 && r.width > 0, OnScreen: r.left >= 0 && r.right <= innerWidth,
			Top: !!at && (at === e || e.contains(at) || at.contains(e)), Right: r.right, BadgeLeft: badge.left};
	})()`, selector), &h)
	return h
}

// What a new player met on a phone (issue 33, items 11, 12 and 1): the map
// opens filling the screen with the party in view, the header shows the
// player's character and name whole, a sheet's roll names itself once with
// the formula as a player writes it, and clearing the player screen takes
// the map off the phone.
func TestFirstSessionOnAPhone(t *testing.T) {
	t.Parallel()
	s := e2e.StartServer(t, e2e.ServerOptions{})
	phone := e2e.StartPlayer(t, s, "Mara", e2e.PhoneSize, "")
	e2e.FinishTablePlayer(t, phone)

	// Item 11: the map fills the part of the screen between the header and
	// the tab bar, at a cell size a finger can tell apart, the party in it.
	var box struct{ BarBottom, TabsTop, Width float64 }
	phone.EvalInto(`({BarBottom: document.querySelector(".bar").getBoundingClientRect().bottom,
		TabsTop: document.querySelector(".tabs").getBoundingClientRect().top, Width: innerWidth})`, &box)
	st := phone.State()
	left, top := phone.MapToScreen(0, 0)
	right, bottom := phone.MapToScreen(st.Map.Width, st.Map.Height)
	if left > 1 || right < box.Width-1 || top > box.BarBottom+1 || bottom < box.TabsTop-1 {
		t.Errorf("the map is drawn from (%.0f, %.0f) to (%.0f, %.0f): want it to fill x 0..%.0f, y %.0f..%.0f (no black band around it)",
			left, top, right, bottom, box.Width, box.BarBottom, box.TabsTop)
	}
	if cell := st.Viewport.Zoom * st.Map.GridSize; cell < 24 {
		t.Errorf("a grid cell is %.1f px: too small to read", cell)
	}
	shot := e2e.SaveScreenshot(t, phone, "phone-first-open")
	for _, id := range []string{e2e.DemoBrannocID, e2e.DemoIlsaID, e2e.DemoQuillID} {
		tok := st.Token(id)
		if tok == nil {
			t.Fatalf("the party token %s is not on the phone's map", id)
		}
		x, y := phone.MapToScreen(tok.X, tok.Y)
		// The disc around its letter, in the party's blue.
		blue := 0
		for i := range 8 {
			a := float64(i) * math.Pi / 4
			if c, ok := e2e.Pixel(shot, x+14*math.Cos(a), y+14*math.Sin(a)); ok && c.B > c.R+40 {
				blue++
			}
		}
		if y < box.BarBottom || y > box.TabsTop || blue < 5 {
			t.Errorf("%s is not drawn in view at (%.0f, %.0f): %d of 8 points of its disc are its colour", tok.Name, x, y, blue)
		}
	}

	// Item 11: the header keeps the player's name, and once seated the
	// character's, whole and clear of the connection badge.
	e2e.ClickText(phone, ".seat-button", "Pick a character")
	e2e.ClickText(phone, ".seat-choice", "Ilsa Reedwhisper")
	phone.WaitFor("the picker to close", `!document.querySelector(".seat-picker")`, 10*time.Second)
	phone.WaitFor("the seat in the header", `document.querySelector(".bar .seat-button").innerText === "Ilsa Reedwhisper"`, 10*time.Second)
	e2e.SaveScreenshot(t, phone, "phone-header")
	for _, sel := range []string{".bar .seat-button", ".bar .who .name"} {
		h := readHeader(phone, sel)
		if !h.Whole || !h.OnScreen || !h.Top || h.Right > h.BadgeLeft {
			t.Errorf("the header's %s shows %+v: want all of it on screen, clear of the badge", sel, h)
		}
	}
	if h := readHeader(phone, ".bar .who .name"); h.Text != "Mara" {
		t.Errorf("the header names the player %q, want Mara", h.Text)
	}
	e2e.NoOverflow(t, phone)

	// Item 12: a sheet's attack names the roller once and reads 1d20+7.
	e2e.ClickText(phone, ".tabs button", "Character")
	e2e.ClickText(phone, ".character button.action", "Longbow attack")
	e2e.ClickText(phone, ".tabs button", "Chat")
	phone.WaitFor("the attack in the chat", `[...document.querySelectorAll(".chat .roll-message")].some(m => m.innerText.includes("Longbow attack"))`, 10*time.Second)
	var roll struct{ Head, Formula, Text string }
	phone.EvalInto(`(() => { const m = [...document.querySelectorAll(".chat .roll-message")].find(m => m.innerText.includes("Longbow attack"));
		return {Head: m.querySelector("header").innerText, Formula: m.querySelector(".formula").innerText, Text: m.innerText}; })()`, &roll)
	e2e.SaveScreenshot(t, phone, "phone-sheet-roll")
	if n := strings.Count(roll.Text, "Ilsa Reedwhisper"); n != 1 {
		t.Errorf("the roll's message names Ilsa %d times: %q", n, roll.Head)
	}
	if roll.Formula != "1d20+7" {
		t.Errorf("the roll's formula reads %q, want 1d20+7", roll.Formula)
	}

	// Item 1: the game master clears the player screen: the map leaves the
	// phone at once, with the line that says none is on screen.
	e2e.ClickText(phone, ".tabs button", "Map")
	tok := phone.State().Token(e2e.DemoIlsaID)
	ix, iy := phone.MapToScreen(tok.X, tok.Y)
	if r := e2e.GmuiDo(t, s, "POST", "/host/api/screen", strings.NewReader(`{"mapId": ""}`), "application/json"); r.Status != 200 {
		t.Fatalf("clear the screen: %d %s", r.Status, r.Body)
	}
	phone.WaitFor("the map to leave the phone", `window.companionDebug.state().map === null`, 10*time.Second)
	phone.WaitFor("the notice", `(() => { const n = document.getElementById("notice"); return !n.hidden && n.innerText.includes("has not put a map on the player screen"); })()`, 5*time.Second)
	phone.Idle()
	cleared := e2e.SaveScreenshot(t, phone, "phone-cleared")
	if c, _ := e2e.Pixel(cleared, ix, iy); c.B > c.R+40 || e2e.Luminance(c) > 60 {
		t.Errorf("Ilsa's token still shows at (%.0f, %.0f) after the screen was cleared: %v", ix, iy, c)
	}
	if title := readHeader(phone, "#map-title"); title.Text != "No map on the player screen" {
		t.Errorf("the header's map title reads %q", title.Text)
	}
}

// What a new game master met in the console (issue 33, items 4, 6 and 13):
// a token in combat offers no second Add to combat, the library drawer
// shows no button of another module's page, and the Maps drawer's Export
// column is whole at 1440 px.
func TestFirstSessionInTheConsole(t *testing.T) {
	t.Parallel()
	s := e2e.StartServer(t, e2e.ServerOptions{})
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "Fen Crossing.module")
	fw.Write(libraryModule(t))
	mw.Close()
	if r := e2e.GmuiDo(t, s, "POST", "/host/api/import", &body, mw.FormDataContentType()); r.Status != http.StatusCreated {
		t.Fatalf("import: %d %s", r.Status, r.Body)
	}
	p := e2e.NewPage(t, "console", e2e.ViewportSize{Width: 1440, Height: 900, Mobile: false})
	p.NavigateAsync(s.HostURL + "/host/")
	finishConsole(t, p)

	// Item 4: the Crab Knight is in the demo's fight: its button says so
	// and cannot be pressed; the Goblin placed beside it can join once.
	p.Eval(fmt.Sprintf(`window.companionGM.panel.select(%q), true`, e2e.DemoKnightID))
	p.WaitFor("the knight's panel", `document.querySelector("[data-token-action=combat]")`, 5*time.Second)
	var knight struct {
		Text     string
		Disabled bool
	}
	p.EvalInto(`(() => { const b = document.querySelector("[data-token-action=combat]"); return {Text: b.innerText, Disabled: b.disabled}; })()`, &knight)
	if knight.Text != "In combat" || !knight.Disabled {
		t.Errorf("the Knight's combat button: %+v, want a disabled In combat", knight)
	}
	var placed struct{ ID string }
	if r := e2e.GmuiDo(t, s, "POST", "/host/api/maps/"+e2e.DemoMapID+"/tokens", strings.NewReader(`{"reference": "/monster/goblin", "x": 420, "y": 700}`), "application/json"); r.Status != 201 {
		t.Fatalf("place a goblin: %d %s", r.Status, r.Body)
	} else {
		json.Unmarshal([]byte(r.Body), &placed)
	}
	p.WaitFor("the goblin on the GM map", fmt.Sprintf(`window.companionGM.store.tokens.has(%q)`, placed.ID), 10*time.Second)
	p.Eval(fmt.Sprintf(`window.companionGM.panel.select(%q), true`, placed.ID))
	p.WaitFor("the goblin's Add to combat", `(() => { const b = document.querySelector("[data-token-action=combat]"); return b && b.innerText === "Add to combat" && !b.disabled; })()`, 5*time.Second)
	p.Eval(`document.querySelector("[data-token-action=combat]").click()`)
	p.WaitFor("the goblin in combat, its button off", `(() => { const b = document.querySelector("[data-token-action=combat]"); return b && b.innerText === "In combat" && b.disabled; })()`, 10*time.Second)

	// Item 6: a page of the imported module, then the campaign: the page's
	// buttons and text leave with it.
	p.OpenConsoleTab("library")
	p.WaitFor("the module in the library", `[...document.querySelectorAll("#library-owner option")].some(o => o.value === "LIB-FEN")`, 10*time.Second)
	p.Eval(`(() => { const s = document.getElementById("library-owner"); s.value = "LIB-FEN"; s.dispatchEvent(new Event("change")); })()`)
	p.WaitFor("the page in the tree", `document.querySelector("#library-tree [data-page=LIB-P1]")`, 10*time.Second)
	p.Eval(`document.querySelector("#library-tree [data-page=LIB-P1]").click()`)
	p.WaitFor("the page's buttons", `document.querySelector("[data-page-map=LIB-M1]") && document.getElementById("library-page").innerText.includes("ferryman")`, 10*time.Second)
	var campaign string
	p.EvalInto(`[...document.querySelectorAll("#library-owner option")].find(o => o.textContent.includes("Saltmarsh Lights") && o.value !== "LIB-FEN").value`, &campaign)
	p.Eval(fmt.Sprintf(`(() => { const s = document.getElementById("library-owner"); s.value = %q; s.dispatchEvent(new Event("change")); })()`, campaign))
	p.WaitFor("the campaign's tree", `!document.querySelector("#library-tree [data-page=LIB-P1]") && document.querySelectorAll("#library-tree li").length > 0`, 10*time.Second)
	var left struct {
		Buttons []string
		Reader  string
	}
	p.EvalInto(`({Buttons: [...document.querySelectorAll("#library-actions button")].map(b => b.innerText), Reader: document.getElementById("library-page").innerText})`, &left)
	e2e.SaveScreenshot(t, p, "library-campaign")
	if len(left.Buttons) > 0 || strings.Contains(left.Reader, "ferryman") {
		t.Errorf("under the campaign's tree the drawer still shows the module's page: buttons %q, text %.80q", left.Buttons, left.Reader)
	}

	// Item 13: at 1440 px the Maps drawer shows each export link whole.
	p.OpenConsoleTab("maps")
	p.WaitFor("the export links", `document.querySelectorAll("#export-list a.button").length >= 2`, 10*time.Second)
	var links []struct {
		Text    string
		Whole   bool
		Clipped bool
	}
	p.EvalInto(`(() => {
		const drawer = document.getElementById("drawer"), d = drawer.getBoundingClientRect();
		return [...document.querySelectorAll("#export-list a.button")].map(a => {
			// Into view up and down only, as a person scrolls the drawer.
			drawer.scrollLeft = 0;
			drawer.scrollTop += a.getBoundingClientRect().top - d.top - drawer.clientHeight / 2;
			const r = a.getBoundingClientRect(), at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return {Text: a.innerText, Whole: r.left >= d.left && r.right <= d.right && a.scrollWidth <= a.clientWidth + 1, Clipped: at !== a && !a.contains(at)};
		});
	})()`, &links)
	e2e.SaveScreenshot(t, p, "maps-drawer")
	for _, l := range links {
		if !l.Whole || l.Clipped {
			t.Errorf("the export link %q is cut off in the Maps drawer: %+v", l.Text, l)
		}
	}
	var overflow bool
	p.EvalInto(`(() => { const d = document.getElementById("drawer"); return d.scrollWidth > d.clientWidth + 1; })()`, &overflow)
	if overflow {
		t.Errorf("the Maps drawer scrolls sideways at 1440 px")
	}
	if problems := p.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console problems: %v", problems)
	}
}
