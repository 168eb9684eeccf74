package table

// The table around the player map (issue 13) in real headless Chromium:
// two players (a desktop and a phone) and a player display on a TV share
// one server running the demo campaign, whose combat is under way. Each
// step acts as a person or the game master would (typing in the chat,
// clicking the dice tray, holding the mouse on the map, the host API) and
// checks what the pages show: their text, their pixels, and the hook
// window.companionDebug.table() (web/client/README.md).

import (
	"fmt"
	"image"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/vttapp/companion/tests/e2e"
)

const (
	// A hidden combatant added to the demo combat: it must never reach a
	// player, neither on the page nor in what the page received.
	hiddenCombatantID   = "5e0ca000-0000-4000-8000-000000000509"
	hiddenCombatantName = "Veiled Lurker"
	houndCombatantID    = "5e0ca000-0000-4000-8000-000000000502"
)

// withHiddenCombatant adds the hidden combatant (a copy of the Cinder
// Hound, on no token) to the demo combat.
func withHiddenCombatant(list []map[string]any) []map[string]any {
	hidden := map[string]any{}
	for k, v := range list[1] {
		hidden[k] = v
	}
	hidden["id"], hidden["name"], hidden["label"], hidden["hidden"] = hiddenCombatantID, hiddenCombatantName, "VL", true
	hidden["initiative"] = []any{map[string]any{"id": "5e0ca000-0000-4000-8000-000000000559", "value": 3}}
	hidden["tokenId"] = nil
	return append(list, hidden)
}

// step runs fn as a subtest with the pages reporting to it, so that one
// failed check does not hide the others.
func step(t *testing.T, name string, pages []*e2e.BrowserPage, fn func(t *testing.T)) {
	t.Helper()
	t.Run(name, func(st *testing.T) {
		for _, p := range pages {
			p.T = st
		}
		defer func() {
			for _, p := range pages {
				p.T = t
			}
		}()
		fn(st)
	})
}

// TestTableTwoPlayers plays a round of the demo combat with two players
// and a display: initiative, next turn, conditions, rolls typed and built
// in the dice tray, a bad expression, a pointer, the ruler and its rule
// changed by a hot reload of the system, an entity link, pause, and a
// server restart.
func TestTableTwoPlayers(t *testing.T) {
	t.Parallel()
	sys := e2e.TableSystem(t, nil, withHiddenCombatant)
	dataDir := t.TempDir()
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}, DataDir: dataDir})

	a := e2e.StartPlayer(t, srv, "Player A", e2e.DesktopSize, "")
	b := e2e.StartPlayer(t, srv, "Player B", e2e.PhoneSize, "")
	display := e2e.StartPlayer(t, srv, "Display", e2e.TvSize, "?display=1")
	for _, p := range []*e2e.BrowserPage{a, b, display} {
		e2e.FinishTablePlayer(t, p)
	}
	players := []*e2e.BrowserPage{a, b}
	all := []*e2e.BrowserPage{a, b, display}

	step(t, "layouts", all, func(t *testing.T) {
		for p, want := range map[*e2e.BrowserPage]string{a: "desktop", b: "phone", display: "display"} {
			s := p.Table()
			if s.Layout != want {
				t.Errorf("page %s layout = %q, want %q", p.Name, s.Layout, want)
			}
			if s.Theme != "light" && s.Theme != "dark" {
				t.Errorf("page %s theme = %q, want light or dark", p.Name, s.Theme)
			}
			e2e.NoOverflow(t, p)
		}
		// The desktop shows the initiative and the chat beside the map.
		a.WaitFor("the initiative and the chat on the desktop", `document.body.innerText.includes("Ilsa Reedwhisper") && (`+e2e.FindChatInput+`) !== null`, 10*time.Second)
		// The display shows the map and at most an initiative strip: no
		// chat, no dice.
		if x, y, ok := display.ElementCentre(e2e.FindChatInput); ok {
			t.Errorf("the display shows a text field at %v,%v", x, y)
		}
		if _, _, ok := display.ElementCentre(e2e.JsVisible + `("button").find(e => e.textContent.trim() === "d20") || null`); ok {
			t.Error("the display shows the dice tray")
		}
		e2e.SaveScreenshot(t, a, "desktop")
		e2e.SaveScreenshot(t, b, "phone")
		e2e.SaveScreenshot(t, display, "display")
	})

	step(t, "initiative without the hidden combatant", all, func(t *testing.T) {
		var camp e2e.HostGame
		e2e.HostGetJSON(t, srv.HostURL+"/host/api/campaign", &camp)
		for _, p := range players {
			p.WaitTable("the initiative of the demo combat", fmt.Sprintf(`t.initiative.length >= 5 && t.activeId === %q`, camp.Game.CombatantID))
			s := p.Table()
			if s.Round != camp.Game.Round || s.Turn != camp.Game.Turn {
				t.Errorf("page %s shows round %d turn %d, the server has round %d turn %d", p.Name, s.Round, s.Turn, camp.Game.Round, camp.Game.Turn)
			}
			active := 0
			for _, c := range s.Initiative {
				if c.ID == hiddenCombatantID || c.Name == hiddenCombatantName {
					t.Errorf("page %s lists the hidden combatant: %+v", p.Name, c)
				}
				if c.Active {
					active++
					if c.ID != camp.Game.CombatantID {
						t.Errorf("page %s highlights %s, the acting combatant is %s", p.Name, c.ID, camp.Game.CombatantID)
					}
				}
			}
			if active != 1 {
				t.Errorf("page %s highlights %d combatants, want 1: %+v", p.Name, active, s.Initiative)
			}
		}
		for _, p := range all {
			if strings.Contains(p.PageText(), hiddenCombatantName) {
				t.Errorf("page %s shows the hidden combatant's name", p.Name)
			}
			if leaks := e2e.LeaksOf(append(p.ReceivedFrames(), p.FetchedAPI()...), hiddenCombatantID, hiddenCombatantName); len(leaks) > 0 {
				t.Errorf("page %s received the hidden combatant:\n  %s", p.Name, strings.Join(leaks, "\n  "))
			}
		}
	})

	step(t, "next turn moves the highlight", all, func(t *testing.T) {
		e2e.HostSend(t, http.MethodPost, srv.HostURL+"/host/api/game/next", "")
		var camp e2e.HostGame
		e2e.HostGetJSON(t, srv.HostURL+"/host/api/campaign", &camp)
		for _, p := range players {
			p.WaitTable("the highlight on the next combatant", fmt.Sprintf(
				`t.activeId === %[1]q && t.turn === %[2]d && t.initiative.filter(c => c.active).map(c => c.id).join() === %[1]q`,
				camp.Game.CombatantID, camp.Game.Turn))
		}
		var name string
		for _, c := range a.Table().Initiative {
			if c.Active {
				name = c.Name
			}
		}
		a.WaitFor("the acting combatant's name on screen", fmt.Sprintf(`document.body.innerText.includes(%q)`, name), 5*time.Second)
	})

	step(t, "a condition appears", all, func(t *testing.T) {
		e2e.HostSend(t, http.MethodPatch, srv.URL+"/api/combatants/"+houndCombatantID, `{"effects": [{"id": "5e0ca000-0000-4000-8000-0000000005e1",
			"name": "Frightened", "type": "condition", "reference": "/condition/frightened", "enabled": true, "attributes": {}, "modifiers": []}]}`)
		for _, p := range players {
			p.WaitTable("Frightened on the Cinder Hound", fmt.Sprintf(
				`t.initiative.some(c => c.id === %q && c.conditions.includes("Frightened"))`, houndCombatantID))
		}
		// The icon names the condition for the eye and for a screen reader.
		a.WaitFor("the condition's icon with its name", `[...document.querySelectorAll("[title], [aria-label]")].some(e =>
			(e.title + " " + (e.getAttribute("aria-label") || "")).includes("Frightened") && e.getBoundingClientRect().width > 0)`, 5*time.Second)
	})

	step(t, "a typed roll reaches both pages with the dropped die marked", all, func(t *testing.T) {
		a.TypeInChat("/roll 4d6dl1")
		pred := `t.messages.some(m => m.source === "Player A" && m.text.includes("4d6dl1") && m.dice.length === 4 &&
			m.dice.filter(d => !d.kept).length === 1 && m.dice.every(d => d.sides === 6))`
		for _, p := range players {
			p.WaitTable("the 4d6dl1 roll with one die dropped", pred)
		}
		// The server's dice are the ones shown.
		var snap struct {
			Messages []struct {
				ID     string `json:"id"`
				Source string `json:"source"`
				Rolls  []struct {
					Total float64 `json:"total"`
					Tree  struct {
						Dice []struct {
							Value   float64 `json:"value"`
							Dropped bool    `json:"dropped"`
						} `json:"dice"`
					} `json:"tree"`
				} `json:"rolls"`
			} `json:"messages"`
		}
		e2e.HostGetJSON(t, srv.URL+"/api", &snap)
		last := snap.Messages[len(snap.Messages)-1]
		for _, p := range players {
			var shown *e2e.TableMessage
			for _, m := range p.Table().Messages {
				if m.ID == last.ID {
					shown = &m
				}
			}
			if shown == nil || len(last.Rolls) != 1 {
				t.Fatalf("page %s lacks the stored roll %s (%+v)", p.Name, last.ID, last)
			}
			if shown.Total == nil || *shown.Total != last.Rolls[0].Total {
				t.Errorf("page %s shows total %v, the server rolled %v", p.Name, shown.Total, last.Rolls[0].Total)
			}
			for i, d := range last.Rolls[0].Tree.Dice {
				if i < len(shown.Dice) && (shown.Dice[i].Value != d.Value || shown.Dice[i].Kept == d.Dropped) {
					t.Errorf("page %s die %d = %+v, the server rolled %+v", p.Name, i, shown.Dice[i], d)
				}
			}
			p.ShowChat()
			total := fmt.Sprint(last.Rolls[0].Total)
			p.WaitFor("the total on screen", fmt.Sprintf(`document.body.innerText.includes(%q)`, total), 5*time.Second)
		}
		// Dropped is marked without colour alone: struck through or named.
		a.WaitFor("the dropped die marked", `[...document.querySelectorAll("*")].some(e =>
			/dropped/i.test((e.getAttribute("aria-label") || "") + " " + (e.title || "")) ||
			(getComputedStyle(e).textDecorationLine.includes("line-through") && e.textContent.trim() !== ""))`, 5*time.Second)
		e2e.SaveScreenshot(t, a, "desktop-roll")
		e2e.SaveScreenshot(t, b, "phone-chat")
	})

	step(t, "the dice tray builds 2d20kh1+5", all, func(t *testing.T) {
		// The tray opens from a button; its choices are the mode
		// (advantage), the modifier, then a die, which rolls.
		d20 := e2e.JsVisible + `("button").find(e => e.textContent.trim() === "d20") || null`
		if _, _, ok := a.ElementCentre(d20); !ok {
			a.ClickElement("dice tray button", e2e.FindButton(`/dice|tray|🎲/i`))
		}
		// A select is set as a keyboard user would leave it; a toggle is clicked.
		var viaSelect bool
		a.EvalInto(e2e.JsVisible+`("select").some(sel => {
			const o = [...sel.options].find(o => /^advantage$/i.test(o.textContent.trim()));
			if (!o) return false;
			sel.focus();
			sel.value = o.value;
			sel.dispatchEvent(new Event("input", {bubbles: true}));
			sel.dispatchEvent(new Event("change", {bubbles: true}));
			return true;
		})`, &viaSelect)
		if !viaSelect {
			a.ClickElement("advantage button", e2e.FindButton(`/^adv(antage)?\b/i`))
		}
		a.ClickElement("modifier field", e2e.JsVisible+`("input[type=number]").find(e => /mod|bonus/i.test((e.getAttribute("aria-label") || "") + (e.name || "") + (e.id || "") + (e.placeholder || "") + (e.labels && e.labels[0] ? e.labels[0].textContent : ""))) || null`)
		a.EvalInto(`document.activeElement.select && document.activeElement.select()`, nil)
		a.Do(e2e.ChromedpCall(input.InsertText, input.InsertTextParams{Text: "5"}))
		a.ClickElement("d20 button", d20)
		pred := `t.messages.some(m => m.source === "Player A" && m.text.includes("2d20kh1+5") && m.dice.length === 2 &&
			m.dice.filter(d => d.kept).length === 1 && m.dice.every(d => d.sides === 20))`
		for _, p := range players {
			p.WaitTable("the tray's 2d20kh1+5 roll", pred)
		}
	})

	step(t, "a bad expression shows the server's error to its sender only", all, func(t *testing.T) {
		a.TypeInChat("/roll 4d6dl1+")
		a.WaitTable("the error next to the input", `t.inputError !== null && t.inputError.includes("expected a number")`)
		a.WaitFor("the error on screen", `document.body.innerText.includes("expected a number")`, 5*time.Second)
		// A later message reaching B proves B has had the chance to show
		// anything about the bad one.
		a.TypeInChat("after the bad roll")
		b.WaitTable("the next message", `t.messages.some(m => m.text.includes("after the bad roll"))`)
		s := b.Table()
		if s.InputError != nil {
			t.Errorf("page B shows an input error: %q", *s.InputError)
		}
		for _, m := range s.Messages {
			if m.Error != nil || strings.Contains(m.Text, "4d6dl1+") {
				t.Errorf("page B shows the bad roll: %+v", m)
			}
		}
		if strings.Contains(b.PageText(), "expected a number") {
			t.Error("page B shows the server's error for A's bad expression")
		}
		e2e.SaveScreenshot(t, a, "desktop-input-error")
	})

	step(t, "a held pointer in A shows in B with A's name", all, func(t *testing.T) {
		// An empty floor cell in the nave, in view of the party.
		const px, py = 525.0, 525.0
		x, y := a.MapToScreen(px, py)
		a.Mouse(input.DispatchMouseEventTypeMouseMoved, x, y, 0)
		a.Mouse(input.DispatchMouseEventTypeMousePressed, x, y, 1)
		// B draws a mark where A holds, labelled with A's name, in A's colour.
		sx, sy := b.MapToScreen(px, py)
		b.WaitFor("A's pointer labelled with A's name", fmt.Sprintf(`[...document.querySelectorAll("svg text, [class*=pointer]")].some(e => {
			if (e.textContent.trim() !== "Player A") return false;
			const r = e.getBoundingClientRect();
			return r.width > 0 && Math.hypot(r.left + r.width / 2 - %g, r.top + r.height / 2 - %g) < 80 && getComputedStyle(e).visibility !== "hidden";
		})`, sx, sy), 10*time.Second)
		b.WaitTable("A's pointer in the hook", `t.pointers.some(p => p.visible)`)
		var clients []struct{ Name, Color string }
		e2e.HostGetJSON(t, srv.HostURL+"/host/api/clients", &clients)
		colour := ""
		for _, c := range clients {
			if c.Name == "Player A" {
				colour = c.Color
			}
		}
		for _, p := range b.Table().Pointers {
			if math.Abs(p.X-px) > e2e.DemoGrid/2 || math.Abs(p.Y-py) > e2e.DemoGrid/2 {
				t.Errorf("B shows a pointer at %v,%v, A holds %v,%v", p.X, p.Y, px, py)
			}
			if !strings.EqualFold(p.Color, colour) {
				t.Errorf("B shows A's pointer in %q, A's colour is %q", p.Color, colour)
			}
		}
		b.Idle()
		e2e.SaveScreenshot(t, b, "phone-pointer")
		a.Mouse(input.DispatchMouseEventTypeMouseReleased, x, y, 0)
	})

	step(t, "the ruler on a square grid", all, func(t *testing.T) {
		// 3 cells east and 4 south: 4 squares when a diagonal counts one
		// (the 5e default), 20 ft; straight-line would be 25 ft.
		measureRuler(t, a, 595, 525, 595+3*e2e.DemoGrid, 525+4*e2e.DemoGrid, 20, "ft")
	})

	step(t, "the ruler follows a hot reload of the system", all, func(t *testing.T) {
		// The game master edits the system's diagonal rule while the pages
		// are open: they read GET /api/system again on reload (issue 25).
		// Page A is measuring at that moment: the resync the reload brings
		// (the same map read again) keeps its clicks.
		var before float64
		a.EvalInto(`window.companionDebug.state().snapshots`, &before)
		a.ClickElement("ruler tool", e2e.FindButton(`/ruler|measure/i`))
		sx, sy := a.MapToScreen(595, 525)
		a.Click(sx, sy)
		a.WaitTable("the ruler's first point", `t.ruler !== null`)
		entry := filepath.Join(sys, "system.lua")
		lua, err := os.ReadFile(entry)
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.Replace(string(lua), `diagonal = "equal"`, `diagonal = "alternate"`, 1)
		if edited == string(lua) {
			t.Fatal(`system.lua no longer says diagonal = "equal"`)
		}
		if err := os.WriteFile(entry, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range players {
			p.WaitTable("the page reads the reloaded system's rule", `t.diagonal === "alternate"`)
		}
		a.WaitFor("page A's resync after the reload", fmt.Sprintf(`window.companionDebug.state().snapshots > %g`, before), 15*time.Second)
		// 5-10-5: the three diagonals count 1, 2, 1, and one straight
		// step: 5 squares, 25 ft.
		ex, ey := a.MapToScreen(595+3*e2e.DemoGrid, 525+4*e2e.DemoGrid)
		a.Click(ex, ey)
		a.WaitTable("the measure across the reload", `t.ruler !== null && t.ruler.distance > 0`)
		if r := a.Table().Ruler; r.Distance != 25 || r.Units != "ft" {
			t.Errorf("the measure begun before the reload says %v %s (%q), want 25 ft", r.Distance, r.Units, r.Text)
		}
		a.Key("Escape")
		// A measure begun after it counts the new rule too.
		measureRuler(t, a, 595, 525, 595+3*e2e.DemoGrid, 525+4*e2e.DemoGrid, 25, "ft")
	})

	step(t, "an entity link opens the stat block", all, func(t *testing.T) {
		e2e.HostSend(t, http.MethodPost, srv.URL+"/api/messages", `{"text": "Beware the [Cinder Hound](/monster/cinder-hound)"}`)
		link := `document.querySelector('a[href$="/monster/cinder-hound"]')`
		a.WaitFor("the link in the log", link, 10*time.Second)
		a.ClickElement("link to the Cinder Hound", link)
		a.WaitTable("the entity panel", `t.panel && t.panel.kind === "entity" && t.panel.title.includes("Cinder Hound")`)
		// What the panel shows: its own text, or the page in its frame.
		// The panel shows the server's page in a frame (or as its own text).
		statBlock := func(text string) bool {
			return strings.Contains(text, "Cinder Hound") && regexp.MustCompile(`Armor Class\s*13`).MatchString(text)
		}
		if text := a.PageText(); !statBlock(text) {
			a.WaitFrameText("the Cinder Hound's name and \"Armor Class 13\"", a.Table().Panel.URL, statBlock)
		}
		e2e.SaveScreenshot(t, a, "desktop-stat-block")
		a.Key("Escape")
		a.WaitTable("the panel closed by Escape", `t.panel === null`)
	})

	step(t, "only the game master's messages read as theirs", all, func(t *testing.T) {
		// The join key is off: a client names itself, even "Game master".
		// What marks the game master's own is the server's signature (gm).
		e2e.HostSend(t, http.MethodPost, srv.URL+"/api/messages", `{"text": "posing as the GM", "source": "Game master"}`)
		e2e.HostSend(t, http.MethodPost, srv.HostURL+"/host/api/messages", `{"text": "the real GM speaks"}`)
		header := func(text string) string {
			return fmt.Sprintf(`[...document.querySelectorAll("li.message")].find((li) => li.innerText.includes(%q))?.querySelector("header")`, text)
		}
		a.WaitFor("both messages in the log", header("the real GM speaks")+" && "+header("posing as the GM"), 10*time.Second)
		var seen struct{ Real, Posing, Nameless string }
		a.EvalInto(fmt.Sprintf(`(() => {
			const says = (h) => h ? h.querySelector(".sender").textContent + "|" + (h.querySelector(".gm-mark")?.textContent ?? "") : "";
			return {Real: says(%s), Posing: says(%s), Nameless: says(%s)};
		})()`, header("the real GM speaks"), header("posing as the GM"), header("Beware the")), &seen)
		if seen.Real != "Game master|GM" || seen.Posing != "Game master|" || seen.Nameless != "A player|" {
			t.Fatalf("the log's senders (name|mark): GM %q, a player naming itself the GM %q, a nameless player %q", seen.Real, seen.Posing, seen.Nameless)
		}
	})

	step(t, "pause covers the map", all, func(t *testing.T) {
		// Nothing else open over the map.
		a.Key("Escape")
		a.WaitTable("no panel or lightbox open", `t.panel === null && !t.lightbox`)
		// A point of the map where the canvas itself is on top (no panel,
		// button or door marker over it).
		var at *struct{ X, Y float64 }
		a.EvalInto(`(() => {
			for (let fy = 0.5; fy > 0.1; fy -= 0.05) for (let fx = 0.5; fx > 0.1; fx -= 0.05) {
				const x = innerWidth * fx, y = innerHeight * fy;
				if (document.elementFromPoint(x, y)?.tagName === "CANVAS") return {X: x, Y: y};
			}
			return null;
		})()`, &at)
		if at == nil {
			t.Fatal("no point of page A shows the bare map")
		}
		onTop := fmt.Sprintf(`document.elementFromPoint(%g, %g)`, at.X, at.Y)
		before := e2e.SaveScreenshot(t, a, "desktop-playing")
		e2e.HostSend(t, http.MethodPatch, srv.HostURL+"/host/api/settings", `{"paused": true}`)
		for _, p := range all {
			p.WaitTable("the paused cover", `t.pausedCover`)
		}
		a.WaitFor("the cover over the map's centre, with words", onTop+`.tagName !== "CANVAS" && `+onTop+`.closest("div, section, aside, dialog").innerText.trim() !== ""`, 5*time.Second)
		paused := e2e.SaveScreenshot(t, a, "desktop-paused")
		e2e.SaveScreenshot(t, display, "display-paused")
		if changed := pixelsChanged(before, paused, at.X, at.Y); changed < 4 {
			t.Errorf("the map's centre looks the same paused: %d of 9 pixels changed", changed)
		}
		e2e.HostSend(t, http.MethodPatch, srv.HostURL+"/host/api/settings", `{"paused": false}`)
		for _, p := range all {
			p.WaitTable("the cover gone", `!t.pausedCover`)
		}
		a.WaitFor("the map uncovered", onTop+`.tagName === "CANVAS"`, 5*time.Second)
	})

	step(t, "after a restart the log has no duplicates", all, func(t *testing.T) {
		before := a.Table().Messages
		if len(before) == 0 {
			t.Fatal("page A has no messages before the restart")
		}
		addr, hostAddr := strings.TrimPrefix(srv.URL, "http://"), strings.TrimPrefix(srv.HostURL, "http://")
		srv.Stop(t)
		for _, p := range players {
			p.WaitFor("the page to notice the server is gone", `window.companionDebug.state().connection !== "open"`, 15*time.Second)
		}
		again := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}, DataDir: dataDir, Addr: addr, HostAddr: hostAddr})
		e2e.HostSend(t, http.MethodPost, again.URL+"/api/messages", `{"text": "back after the restart"}`)
		for _, p := range players {
			p.WaitFor("the page to reconnect", `window.companionDebug.state().connection === "open"`, 30*time.Second)
			p.WaitTable("the message sent after the restart", `t.messages.some(m => m.text.includes("back after the restart"))`)
			seen := map[string]int{}
			for _, m := range p.Table().Messages {
				seen[m.ID]++
				if seen[m.ID] == 2 {
					t.Errorf("page %s shows message %s twice: %q", p.Name, m.ID, m.Text)
				}
			}
			for _, m := range before {
				if seen[m.ID] == 0 {
					t.Errorf("page %s lost message %s (%q) over the restart", p.Name, m.ID, m.Text)
				}
			}
		}
		e2e.SaveScreenshot(t, a, "desktop-after-restart")
	})
}

// TestTableRulerOnHexGrid measures on the demo map turned into a pointy
// hex grid: two steps along each of two hex axes is 4 hexes, 20 ft,
// where a straight line would say 17.3 ft.
func TestTableRulerOnHexGrid(t *testing.T) {
	t.Parallel()
	sys := e2e.TableSystem(t, func(m map[string]any) { m["gridType"] = "hexPointy" }, nil)
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}})
	p := e2e.OpenTablePlayer(t, srv, "Player A", e2e.DesktopSize, "")
	if g := p.State().Map.GridType; g != "hexPointy" {
		t.Fatalf("the map's grid is %q, want hexPointy", g)
	}
	x0, y0 := e2e.HexPointyCentre(e2e.DemoGrid, 5, 6)
	x1, y1 := e2e.HexPointyCentre(e2e.DemoGrid, 7, 8)
	measureRuler(t, p, x0, y0, x1, y1, 20, "ft")
}

// measureRuler measures from map point (x0, y0) to (x1, y1) with the
// page's ruler, driven by the mouse (the ruler tool, a click at each
// end), and checks the distance and its text.
func measureRuler(t *testing.T, p *e2e.BrowserPage, x0, y0, x1, y1, want float64, units string) {
	t.Helper()
	p.ClickElement("ruler tool", e2e.FindButton(`/ruler|measure/i`))
	sx, sy := p.MapToScreen(x0, y0)
	ex, ey := p.MapToScreen(x1, y1)
	p.Click(sx, sy)
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		p.Mouse(input.DispatchMouseEventTypeMouseMoved, sx+(ex-sx)*f, sy+(ey-sy)*f, 0)
	}
	p.Click(ex, ey)
	p.WaitTable("the ruler's measure", `t.ruler !== null && t.ruler.distance > 0`)
	p.Idle()
	s := p.Table()
	e2e.SaveScreenshot(t, p, "ruler")
	if s.Ruler.Distance != want || s.Ruler.Units != units {
		t.Errorf("ruler from %.0f,%.0f to %.0f,%.0f measures %v %s (%q), want %v %s", x0, y0, x1, y1, s.Ruler.Distance, s.Ruler.Units, s.Ruler.Text, want, units)
	}
	if !strings.Contains(s.Ruler.Text, fmt.Sprint(want)) {
		t.Errorf("ruler text %q does not say %v", s.Ruler.Text, want)
	}
	p.Key("Escape")
}

// pixelsChanged counts, of the 3x3 pixels 40 px apart around (x, y), those
// that differ clearly between two screenshots.
func pixelsChanged(a, b image.Image, x, y float64) int {
	n := 0
	for dx := -40.0; dx <= 40; dx += 40 {
		for dy := -40.0; dy <= 40; dy += 40 {
			ca, okA := e2e.Pixel(a, x+dx, y+dy)
			cb, okB := e2e.Pixel(b, x+dx, y+dy)
			if okA && okB && e2e.ColourDistance(ca, cb) > 30 {
				n++
			}
		}
	}
	return n
}
