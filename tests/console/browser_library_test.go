package console

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// A legacy module of our own for the library: a page in a chapter with two
// sections, a link to the chapter's map and a toll the players must not
// read before the game master shows it; the map; an encounter of two toads
// the module brings as a compendium entry.
const libraryModuleXML = `<?xml version="1.0" encoding="UTF-8"?>
<module id="LIB-FEN" version="2">
  <name>Fen Crossing</name>
  <slug>fen-crossing</slug>
  <group id="LIB-G1"><name>Chapter One</name>
    <page id="LIB-P1"><name>The Ferry</name><slug>the-ferry</slug>
      <content>&lt;h2&gt;Arrival&lt;/h2&gt;&lt;p&gt;Mist hangs over &lt;a href=&quot;/map/the-ford&quot;&gt;the ford&lt;/a&gt;; the ferryman waits.&lt;/p&gt;
&lt;h2&gt;The Toll&lt;/h2&gt;&lt;p&gt;The ferryman asks one silver heron feather per head.&lt;/p&gt;</content>
    </page>
    <map id="LIB-M1"><name>The Ford</name><slug>the-ford</slug><gridSize>70</gridSize><image>ford.png</image></map>
    <encounter id="LIB-E1"><name>Toads at the Ford</name>
      <combatant><label>T1</label><x>210</x><y>210</y><monster ref="/monster/ford-toad"/></combatant>
      <combatant><label>T2</label><x>350</x><y>210</y><monster ref="/monster/ford-toad"/></combatant>
    </encounter>
  </group>
  <monster><name>Ford Toad</name><size>S</size><type>beast</type><ac>11</ac><hp>7 (2d6)</hp><speed>20 ft., swim 40 ft.</speed>
    <str>8</str><dex>12</dex><con>12</con><int>2</int><wis>10</wis><cha>3</cha><cr>1/8</cr></monster>
</module>`

func libraryModule(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 700, 490))
	for y := 0; y < 490; y++ {
		for x := 0; x < 700; x++ {
			img.Set(x, y, color.RGBA{uint8(60 + x%70), 110, 90, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return testkit.Zip(t, "module.xml", libraryModuleXML, "ford.png", b.String())
}

// TestHostConsoleLibrary: a game master imports a legacy module, reads its
// page in the console's library beside the GM map, opens the page's map on
// the player screen, adds its encounter to the map and to combat in one
// step, and shows one section to players: the player's page and client
// get that section's text only then, and never the other section.
func TestHostConsoleLibrary(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "Fen Crossing.module")
	fw.Write(libraryModule(t))
	mw.Close()
	if resp := e2e.GmuiDo(t, srv, "POST", "/host/api/import", &body, mw.FormDataContentType()); resp.Status != http.StatusCreated {
		t.Fatalf("import: %d %s", resp.Status, resp.Body)
	}
	const toll, arrival = "one silver heron feather per head", "Mist hangs over"
	pageURL := srv.URL + "/module/fen-crossing/page/the-ferry"
	if status, page := e2e.HttpGet(t, pageURL); status == http.StatusOK || strings.Contains(page, toll) {
		t.Fatalf("the page before it was shown: %d", status)
	}
	player := e2e.OpenPlayer(t, srv, "Player A", e2e.DesktopSize, "")
	gm := openConsole(t, srv)
	gm.OpenConsoleTab("library")

	// The library lists the module; its tree shows the chapter's page.
	gm.WaitFor("the module in the library", `[...document.querySelectorAll("#library-owner option")].some(o => o.value === "LIB-FEN")`, 10*time.Second)
	gm.Eval(`(() => { const s = document.getElementById("library-owner"); s.value = "LIB-FEN"; s.dispatchEvent(new Event("change")); })()`)
	gm.WaitFor("the page in the tree", `document.querySelector("#library-tree [data-page=LIB-P1]")`, 10*time.Second)
	gm.Eval(`document.querySelector("#library-tree [data-page=LIB-P1]").click()`)
	// The game master reads the whole page, shown on screen beside the map.
	gm.WaitFor("the page's text", fmt.Sprintf(`(() => {
		const p = document.getElementById("library-page");
		return p && p.innerText.includes(%q) && p.innerText.includes(%q) && p.getBoundingClientRect().height > 50;
	})()`, arrival, toll), 10*time.Second)
	var beside bool
	// The library opens in the drawer over the map's left side; the combat
	// tracker stays on screen beside it (docs/host-console.md, "Layout").
	gm.EvalInto(`(() => {
		const c = document.getElementById("combat").getBoundingClientRect(), l = document.getElementById("library").getBoundingClientRect();
		return l.width > 300 && l.right <= c.left + 1 && c.width > 0 && c.right <= innerWidth && l.top < innerHeight;
	})()`, &beside)
	if !beside {
		t.Errorf("the library is not on screen beside the combat tracker")
	}
	e2e.SaveScreenshot(t, gm, "library-page")

	// The page's map on the player screen: the GM map draws it.
	gm.WaitFor("the page's map button", `document.querySelector("[data-page-map=LIB-M1]")`, 5*time.Second)
	gm.Eval(`document.querySelector("[data-page-map=LIB-M1]").click()`)
	gm.WaitFor("the ford on the GM map", `(() => { const s = window.companionDebug.state(); return s.map && s.map.id === "LIB-M1" && s.map.backgroundLoaded; })()`, 20*time.Second)
	player.WaitFor("the ford on the player's map", `(() => { const s = window.companionDebug.state(); return s.map && s.map.id === "LIB-M1" && s.map.backgroundLoaded; })()`, 20*time.Second)

	// The encounter: to the map and to combat in one step.
	gm.Eval(`document.querySelector("[data-page-encounter=LIB-E1]").click()`)
	gm.WaitFor("the run button", `document.getElementById("library-run")`, 5*time.Second)
	gm.Eval(`document.getElementById("library-run").click()`)
	gm.WaitFor("the two toads on the GM map", `window.companionDebug.state().tokens.filter(t => t.name === "Ford Toad").length === 2`, 15*time.Second)
	gm.WaitFor("the toads in combat", `[...document.querySelectorAll("#combatants li strong")].filter(s => s.textContent === "Ford Toad").length === 2`, 10*time.Second)
	gm.WaitFor("what the library did", `document.getElementById("library-msg").textContent.startsWith("2 tokens placed and 2 combatants added.")`, 5*time.Second)
	player.WaitFor("the toads on the player's map", `window.companionDebug.state().tokens.filter(t => t.name === "Ford Toad").length === 2`, 15*time.Second)
	e2e.SaveScreenshot(t, gm, "library-encounter")
	// The encounter's map is the module's: the Player screen card names it
	// and its module, where it said the screen was empty.
	gm.WaitFor("the Player screen card naming the module's map", `/is on the player screen/.test(document.getElementById("screen-state").textContent) && document.getElementById("screen-state").textContent.includes("(from ")`, 10*time.Second)
	// A second click: the toads still stand there, so the console asks;
	// declined, nothing is added.
	gm.Eval(`(() => { window.__asked = ""; window.confirm = (q) => { window.__asked = q; return false; }; return true; })()`)
	gm.Eval(`document.getElementById("library-run").click()`)
	gm.WaitFor("the console to say it added nothing", `document.getElementById("library-msg").textContent.startsWith("Not added again")`, 10*time.Second)
	var asked string
	gm.EvalInto(`window.__asked`, &asked)
	if !strings.Contains(asked, "already stand on the map") {
		t.Errorf("a second run asked %q, want the question whether to add them once more", asked)
	}
	var toads int
	gm.EvalInto(`window.companionDebug.state().tokens.filter(t => t.name === "Ford Toad").length`, &toads)
	if toads != 2 {
		t.Errorf("a declined second run left %d toads on the GM map, want 2", toads)
	}

	// Nothing of the page has reached the player yet.
	for _, f := range player.ReceivedFrames() {
		if strings.Contains(f, toll) || strings.Contains(f, arrival) {
			t.Fatalf("a frame carried the page before it was shown: %.200s", f)
		}
	}
	// Show the toll's section.
	gm.Eval(`document.querySelector("#library-tree [data-page=LIB-P1]").click()`)
	gm.WaitFor("the section list", `[...document.querySelectorAll("#library-section option")].some(o => o.textContent.includes("The Toll"))`, 10*time.Second)
	gm.Eval(`(() => {
		const s = document.getElementById("library-section");
		s.value = [...s.options].find(o => o.textContent.includes("The Toll")).value;
		document.getElementById("library-show").click();
	})()`)
	gm.WaitFor("the shown state", `document.getElementById("library-shown").textContent.startsWith("Players may read: The Toll.")`, 10*time.Second)
	waitFrames(t, player, "the handout", func(frames string) bool { return strings.Contains(frames, toll) })

	// The player's page: the toll, not the arrival.
	reader := e2e.NewPage(t, "reader", e2e.DesktopSize)
	reader.Navigate(pageURL)
	reader.WaitFor("the shown section", fmt.Sprintf(`document.body.innerText.includes(%q)`, toll), 10*time.Second)
	var text string
	reader.EvalInto(`document.body.innerText`, &text)
	if strings.Contains(text, arrival) {
		t.Errorf("the player's page shows a section that was not shown: %.300s", text)
	}
	for _, f := range player.ReceivedFrames() {
		if strings.Contains(f, arrival) {
			t.Errorf("a frame carried the section not shown: %.200s", f)
		}
	}

	// Hidden again: the player's page is gone.
	gm.Eval(`document.getElementById("library-hide").click()`)
	gm.WaitFor("the hidden state", `document.getElementById("library-shown").textContent.startsWith("Players cannot read this page.")`, 10*time.Second)
	if status, page := e2e.HttpGet(t, pageURL); status == http.StatusOK || strings.Contains(page, toll) {
		t.Errorf("the page after it was hidden: %d", status)
	}
	// The Journal card (beside the player screen's) lists the section as
	// shown, then taken back with the page.
	gm.OpenConsoleTab("screen")
	gm.WaitFor("the section in the Journal card, taken back", `(() => {
		const li = [...document.querySelectorAll("#journal-list li")].find((l) => l.innerText.includes("The Ferry — The Toll"));
		return !!li && li.innerText.includes("taken back") && li.querySelector("button").textContent === "Show again" && li.getBoundingClientRect().height > 0;
	})()`, 10*time.Second)

	// A random table from a CSV file, added to the module from the
	// library; its page rolls it from the browser.
	gm.OpenConsoleTab("library")
	csv := filepath.Join(t.TempDir(), "ferry-tolls.csv")
	if err := os.WriteFile(csv, []byte("d6,Toll\n1-3,FERRYTOLLCOPPER\n4-6,FERRYTOLLFEATHER\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gm.Do(chromedp.SetUploadFiles(chromedp.CSS("#table-file"), []string{csv}))
	gm.Eval(`document.getElementById("table-add").click()`)
	gm.WaitFor("the table in the tree", `(() => {
		const a = [...document.querySelectorAll("#library-tree .lib-table a")].find((a) => a.textContent === "ferry-tolls");
		return !!a && a.getAttribute("href") === "/table/ferry-tolls";
	})()`, 10*time.Second)
	reader.Navigate(srv.HostURL + "/table/ferry-tolls")
	reader.WaitFor("the table's rows", `document.body.innerText.includes("FERRYTOLLFEATHER")`, 10*time.Second)
	reader.Eval(`[...document.querySelectorAll("button")].find((b) => b.textContent === "Roll (private)").click()`)
	reader.WaitFor("the roll's result", `(() => { const r = document.querySelector(".table-result"); return !!r && /1d6: [1-6] \(sent to the chat, for you alone\)/.test(r.innerText) && /FERRYTOLL(COPPER|FEATHER)/.test(r.innerText); })()`, 10*time.Second)
	gm.OpenConsoleTab("messages")
	gm.WaitFor("the private table roll in the console's log", `[...document.querySelectorAll("#message-list li.private")].some((li) => li.innerText.includes("ferry-tolls (1d6:"))`, 10*time.Second)
	for _, f := range player.ReceivedFrames() {
		if strings.Contains(f, "FERRYTOLL") {
			t.Errorf("a player received the private table roll: %.200s", f)
		}
	}
	if problems := gm.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console problems: %v", problems)
	}
}
