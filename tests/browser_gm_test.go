package tests

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/internal/shareddata"
)

// The game master's console in real Chromium (issue 14): the GM map
// (web/client/src/gm, served at /host/gm/) and the console's controls,
// checked from what a player page shows (companionDebug) and what the
// server answers. Screenshots of the console go to the artifacts folder.

// gmuiGoblin is the SRD goblin as a loose monsters.json (name, slug, data):
// from the shared SRD data when it is there, else as the SRD writes it.
func gmuiGoblin(t *testing.T) []byte {
	t.Helper()
	if root := shareddata.Root(); root != "" {
		raw, err := os.ReadFile(filepath.Join(root, "srd5e", "2014-en-5e-SRD-Monsters.json"))
		if err == nil {
			var all []map[string]any
			if err := json.Unmarshal(raw, &all); err != nil {
				t.Fatal(err)
			}
			for _, m := range all {
				if m["index"] == "goblin" {
					b, _ := json.Marshal([]map[string]any{{"name": m["name"], "slug": "goblin", "data": m}})
					return b
				}
			}
		}
	}
	t.Log("shared SRD data absent (../shared/data/srd5e): using the goblin as the SRD writes it")
	return []byte(`[{"name": "Goblin", "slug": "goblin", "data": {"size": "Small", "type": "humanoid", "hit_points": 7,
	  "dexterity": 14, "challenge_rating": 0.25, "senses": {"darkvision": "60 ft.", "passive_perception": 9}}}]`)
}

// gmuiImport installs the goblin into the primary campaign through the host API.
func gmuiImport(t *testing.T, srv *Server) {
	t.Helper()
	var archive bytes.Buffer
	zw := zip.NewWriter(&archive)
	w, _ := zw.Create("monsters.json")
	w.Write(gmuiGoblin(t))
	zw.Close()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "goblin.zip")
	fw.Write(archive.Bytes())
	mw.Close()
	resp := gmuiDo(t, srv, "POST", "/host/api/import", &body, mw.FormDataContentType())
	if resp.status != 200 && resp.status != 201 {
		t.Fatalf("import the goblin: %d %s", resp.status, resp.body)
	}
}

type gmuiResponse struct {
	status int
	body   string
}

func gmuiDo(t *testing.T, srv *Server, method, path string, body io.Reader, contentType string) gmuiResponse {
	t.Helper()
	req, err := http.NewRequest(method, srv.HostURL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return gmuiResponse{resp.StatusCode, string(raw)}
}

// openConsole opens the host console and waits until the GM map has drawn
// the map on the player screen.
func openConsole(t *testing.T, srv *Server) *browserPage {
	t.Helper()
	p := newPage(t, "console", viewportSize{1400, 1000, false})
	p.navigate(srv.HostURL + "/host/")
	if !p.poll(`window.companionGM && window.companionGM.socketState() === "open" && window.companionDebug.state().map && window.companionDebug.state().map.backgroundLoaded`, 20*time.Second) {
		var st any
		_ = p.evalErr(`JSON.stringify({gm: !!window.companionGM, dbg: window.companionDebug ? window.companionDebug.state() : null, msg: (document.getElementById("gm-msg")||{}).textContent})`, &st)
		t.Fatalf("the GM map did not start: %v\n%v", st, p.consoleProblems())
	}
	p.waitFor("the GM map", `window.companionGM && window.companionDebug && (() => {
		const s = window.companionDebug.state();
		return s.map && s.map.backgroundLoaded && s.frames > 0 && window.companionGM.socketState() === "open";
	})()`, 30*time.Second)
	p.eval(`window.confirm = () => true`)
	p.idle()
	return p
}

// gmuiClick clicks at page coordinates with the mouse, as a person would;
// shift holds the Shift key.
func gmuiClick(p *browserPage, x, y float64, shift bool) {
	p.t.Helper()
	var mods int64
	if shift {
		mods = 8 // Shift in the DevTools protocol's modifier mask
	}
	for _, kind := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMouseMoved, input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		params := input.DispatchMouseEventParams{Type: kind, X: x, Y: y, Modifiers: mods, PointerType: input.DispatchMouseEventPointerTypeMouse}
		if kind != input.DispatchMouseEventTypeMouseMoved {
			params.Button, params.ClickCount = input.MouseButtonLeft, 1
		}
		if kind == input.DispatchMouseEventTypeMousePressed {
			params.Buttons = 1
		}
		p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Call(ctx, input.DispatchMouseEvent, params)
			return err
		}))
	}
}

// gmuiDrag presses at (x0, y0), moves in steps to (x1, y1) and releases.
func gmuiDrag(p *browserPage, x0, y0, x1, y1 float64) {
	p.mouse(input.DispatchMouseEventTypeMouseMoved, x0, y0, 0)
	p.mouse(input.DispatchMouseEventTypeMousePressed, x0, y0, 1)
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		p.mouse(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, 1)
		time.Sleep(20 * time.Millisecond)
	}
	p.mouse(input.DispatchMouseEventTypeMouseReleased, x1, y1, 0)
}

// centreOf is the page position of the middle of the element matched by css.
func centreOf(p *browserPage, css string) (float64, float64) {
	p.t.Helper()
	var r struct{ X, Y float64 }
	p.evalInto(fmt.Sprintf(`(() => { const b = document.querySelector(%q).getBoundingClientRect(); return {x: b.x + b.width / 2, y: b.y + b.height / 2} })()`, css), &r)
	return r.X, r.Y
}

// TestGMConsoleRunsASession: from the console, place a goblin from the
// monster list onto the map (a player sees it), hide it (it leaves the
// player's page) and reveal it, add it and the party to combat and roll
// initiative (the order shows in both), 7 damage (the player's page draws
// it bloodied), open a door (the player's vision changes), reveal fog,
// show a handout and take it down, and a private roll no player receives.
func TestGMConsoleRunsASession(t *testing.T) {
	sys := demoSystem(t, func(maps []map[string]any, screen map[string]any) {
		for _, tok := range mapTokens(maps[0]) {
			if tok["id"] == demoKnightID || tok["id"] == demoHoundID {
				tok["vision"].(map[string]any)["enabled"] = false
			}
		}
	})
	srv := StartServer(t, ServerOptions{Args: []string{"--system", sys}})
	gmuiImport(t, srv)
	player := openPlayer(t, srv, "Player A", desktopSize, "")
	gm := openConsole(t, srv)

	// The GM map shows the demo map with every token, and the player's view as a frame.
	if s := gm.state(); s.Map == nil || s.Map.ID != demoMapID || len(s.Tokens) < len(player.state().Tokens) {
		t.Fatalf("the GM map: %+v", s)
	}
	// The player zooms in: the console frames what they see.
	player.key("+")
	gm.waitFor("the player's frame", `window.companionGM.overlay.drawnFrames().some(f => f.name === "Player A")`, 10*time.Second)

	// Place: search the monster list, press the goblin's row, release it over the map.
	gm.waitFor("the goblin in the list", `[...document.querySelectorAll("#gm-entities li")].some(li => li.textContent === "Goblin")`, 10*time.Second)
	gm.eval(`(() => { const s = document.getElementById("gm-search"); s.value = "gob"; s.dispatchEvent(new Event("input")); })()`)
	gm.waitFor("the filtered list", `document.querySelectorAll("#gm-entities li").length === 1`, 5*time.Second)
	const placeX, placeY = 420.0, 700.0 // the party's room, seen by the players
	rx, ry := centreOf(gm, "#gm-entities li")
	mx, my := gm.mapToScreen(placeX, placeY)
	gmuiDrag(gm, rx, ry, mx, my)
	player.waitFor("the goblin on the player's map", `window.companionDebug.state().tokens.some(t => t.name === "Goblin")`, 10*time.Second)
	var goblinID string
	player.evalInto(`window.companionDebug.state().tokens.find(t => t.name === "Goblin").id`, &goblinID)
	gm.waitFor("the goblin on the GM map", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q)`, goblinID), 10*time.Second)
	saveScreenshot(t, gm, "console-goblin-placed")

	// Select it on the map and hide it: it leaves the player's page, stays (translucent) on the GM's.
	gm.idle()
	tx, ty := gm.mapToScreen(placeX, placeY)
	gmuiClick(gm, tx, ty, false)
	gm.waitFor("the goblin selected", fmt.Sprintf(`window.companionGM.selected() === %q`, goblinID), 5*time.Second)
	gm.eval(`document.querySelector("[data-token-action=hide]").click()`)
	player.waitFor("the goblin to leave the player's map", fmt.Sprintf(`!window.companionDebug.state().tokens.some(t => t.id === %q)`, goblinID), 10*time.Second)
	gm.waitFor("the goblin hidden on the GM map", fmt.Sprintf(`window.companionGM.store.tokens.get(%q).hidden === true`, goblinID), 10*time.Second)
	gm.waitFor("the reveal button", `document.querySelector("[data-token-action=reveal]")`, 5*time.Second)
	saveScreenshot(t, gm, "console-goblin-hidden")
	gm.eval(`document.querySelector("[data-token-action=reveal]").click()`)
	player.waitFor("the goblin back on the player's map", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q)`, goblinID), 10*time.Second)

	// Combat: the goblin from its token, then roll initiative for everyone.
	gm.waitFor("the add-to-combat button", `document.querySelector("[data-token-action=combat]")`, 5*time.Second)
	gm.eval(`document.querySelector("[data-token-action=combat]").click()`)
	gm.waitFor("the goblin among the combatants", `[...document.querySelectorAll("#combatants li strong")].some(s => s.textContent === "Goblin")`, 10*time.Second)
	gm.eval(`document.getElementById("roll-all").click()`)
	gm.waitFor("the initiative order", `document.querySelectorAll("#initiative li .init").length >= 2 && [...document.querySelectorAll("#initiative li .who")].some(w => w.textContent === "Goblin")`, 10*time.Second)
	var order []string
	gm.evalInto(`[...document.querySelectorAll("#initiative li .who")].map(w => w.textContent)`, &order)
	var snap struct {
		Game struct {
			Combatants []struct {
				ID, Name string
				TokenID  *string `json:"tokenId"`
				Bloodied bool
			}
		}
	}
	player.evalInto(`fetch("/api").then(r => r.json())`, &snap)
	var goblinCombatant string
	for _, c := range snap.Game.Combatants {
		if c.TokenID != nil && *c.TokenID == goblinID {
			goblinCombatant = c.ID
		}
	}
	if goblinCombatant == "" {
		t.Fatalf("the player's snapshot has no combatant for the goblin: %+v (console order %v)", snap.Game.Combatants, order)
	}

}
