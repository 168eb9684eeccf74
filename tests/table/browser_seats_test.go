package table

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// seatText is the visible text of the first element matching selector ("" when none).
func seatText(p *e2e.BrowserPage, selector string) string {
	p.T.Helper()
	var s string
	p.EvalInto(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.innerText : ""; })()`, selector), &s)
	return s
}

// seatPhonePage opens link on a phone, joins as name and waits for the seat picker.
func seatPhonePage(t *testing.T, link, name string) *e2e.BrowserPage {
	t.Helper()
	p := e2e.NewPage(t, name, e2e.PhoneSize)
	p.Navigate(link)
	e2e.JoinAs(t, p, name)
	e2e.WaitPlayerReady(t, p)
	p.WaitFor(name+"'s seat picker", `document.querySelector(".seat-picker h1")?.innerText === "Choose your character"`, 15*time.Second)
	return p
}

func TestBrowserSeatsAcceptance(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server and Chromium")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	console := e2e.NewPage(t, "console", e2e.ViewportSize{Width: 1400, Height: 1000, Mobile: false})
	console.Navigate(srv.HostURL + "/host/")
	console.EvalInto(`(() => { window.confirm = () => true; return true; })()`, nil)

	// The key is off: the console shows the plain link; on: the link with the key and its QR code.
	console.WaitFor("the join key switch", `document.querySelector("#join-key-on") && document.querySelector("#join-client-link")`, 15*time.Second)
	console.EvalInto(`(() => { document.querySelector("#join-key-on").click(); return true; })()`, nil)
	console.WaitFor("the players' link with the key", `(document.querySelector("#join-player-link")?.textContent ?? "").includes("/client/?key=")`, 10*time.Second)
	console.WaitFor("its QR code drawn", `[...document.querySelectorAll(".join-link img")].every((i) => i.complete && i.naturalWidth > 20)`, 10*time.Second)
	link := seatText(console, "#join-player-link")
	if !strings.HasPrefix(link, srv.URL+"/client/?key=") {
		t.Fatalf("the players' link %q is not on %s", link, srv.URL)
	}

	// A phone without the link is asked for it.
	stranger := e2e.NewPage(t, "stranger", e2e.PhoneSize)
	stranger.Navigate(srv.URL + "/client/")
	stranger.WaitFor("the ask-for-the-link page", `document.body.innerText.includes("Ask the game master")`, 10*time.Second)

	// Two phones join with the link; each takes a character.
	alice := seatPhonePage(t, link, "Alice")
	picker := seatText(alice, ".seat-picker")
	for _, want := range []string{"Brannoc Saltbeard", "Ilsa Reedwhisper", "Watch as a spectator"} {
		if !strings.Contains(picker, want) {
			t.Fatalf("Alice's seat picker does not offer %q: %q", want, picker)
		}
	}
	e2e.ClickText(alice, ".seat-choice", "Brannoc Saltbeard")
	alice.WaitFor("the picker to close", `!document.querySelector(".seat-picker")`, 10*time.Second)
	bo := seatPhonePage(t, link, "Bo")
	bo.WaitFor("Brannoc shown taken by Alice", `(document.querySelector(".seat-picker")?.innerText ?? "").includes("Brannoc Saltbeard — Alice")`, 10*time.Second)
	if bo.Eval(`[...document.querySelectorAll(".seat-choice")].find((b) => b.textContent.includes("Brannoc")).disabled`) != true {
		t.Fatal("Bo may pick Alice's character")
	}
	e2e.ClickText(bo, ".seat-choice", "Ilsa Reedwhisper")
	bo.WaitFor("the picker to close", `!document.querySelector(".seat-picker")`, 10*time.Second)
	console.WaitFor("the console's seat list", `(document.querySelector("#seat-rows")?.innerText ?? "").includes("Alice") && document.querySelector("#seat-rows").innerText.includes("Bo")`, 10*time.Second)
	console.EvalInto(`(() => { document.querySelector("#seats").scrollIntoView(); return true; })()`, nil)
	e2e.SaveScreenshot(t, console, "seats-console")

	// Alice opens her character tab and taps "Warhammer attack".
	e2e.ClickText(alice, ".tabs button", "Character")
	alice.WaitFor("Brannoc's panel", `(document.querySelector("#panel-character")?.innerText ?? "").includes("Brannoc Saltbeard")`, 10*time.Second)
	if hp := seatText(alice, ".char-hp .hp-line"); !strings.Contains(hp, "24 / 27") {
		t.Fatalf("Alice's panel shows hit points %q, want 24 / 27", hp)
	}
	e2e.ClickText(alice, ".character button.action", "Warhammer attack")
	e2e.ClickText(bo, ".tabs button", "Chat")
	for _, p := range []*e2e.BrowserPage{alice, bo} {
		p.WaitFor(p.Name+"'s chat to show the attack with its dice", `[...document.querySelectorAll(".chat .roll-message")].some((m) =>
			m.textContent.includes("Warhammer attack") && m.querySelectorAll(".die").length > 0)`, 10*time.Second)
	}
	e2e.SaveScreenshot(t, bo, "seats-bo-chat")
	if chat := seatText(bo, "#panel-chat"); !strings.Contains(strings.ToLower(chat), "warhammer attack") {
		t.Fatalf("Bo's open chat does not show the attack on screen: %q", chat)
	}

	// 7 damage from the host console shows in Alice's panel; she heals 3 and the console shows it.
	console.WaitFor("Brannoc's hit point field", `document.querySelector("input[data-hp='`+e2e.DemoBrannocCombatant+`']")`, 10*time.Second)
	console.EvalInto(`(() => {
		const input = document.querySelector("input[data-hp='`+e2e.DemoBrannocCombatant+`']");
		input.value = "7"; input.dispatchEvent(new Event("input", {bubbles: true}));
		input.closest("li, tr, .combatant").querySelector("button[data-act=damage]").click();
		return true; })()`, nil)
	alice.WaitFor("the damage in Alice's panel", `(document.querySelector(".char-hp .hp-line")?.innerText ?? "").includes("17 / 27")`, 5*time.Second)
	alice.EvalInto(`(() => { const i = document.querySelector(".char-hp .hp-amount"); i.value = "3"; i.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, nil)
	e2e.ClickText(alice, ".char-hp button", "Heal")
	alice.WaitFor("the healing in Alice's panel", `(document.querySelector(".char-hp .hp-line")?.innerText ?? "").includes("20 / 27")`, 5*time.Second)
	console.WaitFor("the healing in the console", `(document.querySelector("[data-hp-value='`+e2e.DemoBrannocCombatant+`']")?.textContent ?? "").match(/^HP 20\b/)`, 5*time.Second)
	e2e.SaveScreenshot(t, alice, "seats-alice-character")

	// Token mode: Alice drags her own token, not Bo's.
	console.EvalInto(`(() => { const s = document.querySelector("#set-interaction"); s.value = "token"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
	alice.WaitFor("token mode on Alice's page", `window.companionDebug.state().interaction === "token"`, 10*time.Second)
	e2e.ClickText(alice, ".tabs button", "Map")
	alice.Idle()
	before := alice.State()
	ilsa, brannoc := before.Token(e2e.DemoIlsaID), before.Token(e2e.DemoBrannocID)
	if ilsa == nil || brannoc == nil {
		t.Fatal("Alice's page does not show both party tokens")
	}
	e2e.DragInPage(t, alice, ilsa.X, ilsa.Y, ilsa.X+e2e.DemoGrid, ilsa.Y, 6, nil)
	e2e.DragInPage(t, alice, brannoc.X, brannoc.Y, brannoc.X, brannoc.Y+e2e.DemoGrid, 6, nil)
	bo.WaitFor("Brannoc moved on Bo's page", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find((t) => t.id === %q); return t && t.y > %g; })()`, e2e.DemoBrannocID, brannoc.Y+e2e.DemoGrid/2), 10*time.Second)
	alice.Idle()
	if after := alice.State().Token(e2e.DemoIlsaID); after.X != ilsa.X || after.Y != ilsa.Y {
		t.Fatalf("Alice dragged Bo's token from %v,%v to %v,%v", ilsa.X, ilsa.Y, after.X, after.Y)
	}

	// Someone opens the spectators' link: their page is a spectator's from the start, offered no seat.
	watcher := e2e.NewPage(t, "watcher", e2e.PhoneSize)
	watcher.Navigate(seatText(console, "#join-spectator-link"))
	e2e.JoinAs(t, watcher, "Watcher")
	watcher.WaitFor("the spectators' link to make a spectator", `document.body.classList.contains("spectator") && !document.querySelector(".seat-picker") &&
		(document.querySelector(".seat-button")?.innerText ?? "") === "Spectator"`, 10*time.Second)

	// The game master gives Brannoc's seat control of Quill's token (a free character's): Alice may drag it now.
	console.EvalInto(`(() => { const d = [...document.querySelectorAll("#seat-rows tr")].find((r) => r.innerText.includes("Brannoc")).querySelector("details"); d.open = true; return true; })()`, nil)
	console.WaitFor("Quill among the other tokens", `[...document.querySelectorAll("#seat-rows tr")].find((r) => r.innerText.includes("Brannoc")).querySelector(".seat-controls")?.innerText.includes("Quill")`, 10*time.Second)
	console.EvalInto(`(() => { const row = [...document.querySelectorAll("#seat-rows tr")].find((r) => r.innerText.includes("Brannoc"));
		[...row.querySelectorAll(".seat-controls label")].find((l) => l.textContent.includes("Quill")).querySelector("input").click(); return true; })()`, nil)
	console.WaitFor("the control noted", `[...document.querySelectorAll("#seat-rows tr")].find((r) => r.innerText.includes("Brannoc")).innerText.includes("1 other token")`, 10*time.Second)
	quill := alice.State().Token(e2e.DemoQuillID)
	moved := false
	for try := 0; try < 10 && !moved; try++ { // the control reaches Alice's page with her next sheet
		e2e.DragInPage(t, alice, quill.X, quill.Y, quill.X, quill.Y+e2e.DemoGrid, 6, nil)
		moved = bo.Poll(fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find((t) => t.id === %q); return t && t.y > %g; })()`, e2e.DemoQuillID, quill.Y+e2e.DemoGrid/2), time.Second)
	}
	if !moved {
		t.Fatal("Alice could not drag the token the game master gave her seat")
	}

	// Bo is kicked from the console: his phone is shut out, and his old link opens nothing.
	// The console's row names Bo's connection by its channel; a loaded
	// machine can have closed a slow page and let it reconnect on a new
	// channel that the list shows a moment later, so the game master
	// clicks again on the row as it stands, as a person would.
	shutOut := `(() => {
		const t = document.querySelector(".shut-out")?.innerText ?? "";
		return t.includes("The game master removed you from the game") && t.includes("ask the game master for the link");
	})()`
	kicked := false
	for try := 0; try < 4 && !kicked; try++ {
		console.EvalInto(`(() => { const row = [...document.querySelectorAll("#role-rows tr")].find((r) => r.textContent.includes("Bo")); row?.querySelector(".client-kick")?.click(); return true; })()`, nil)
		kicked = bo.Poll(shutOut, 5*time.Second)
	}
	if !kicked {
		bo.WaitFor("Bo's page to say he was removed and needs a new link", shutOut, time.Second)
	}
	e2e.SaveScreenshot(t, bo, "seats-bo-kicked")
	bo.Navigate(link)
	bo.WaitFor("the old link refused", `document.body.innerText.includes("Ask the game master")`, 10*time.Second)
	if bo.Eval(`!!window.companionDebug`) == true {
		t.Fatal("the kicked phone got the client back with its old link")
	}

	// Alice keeps playing, and keeps her seat across a reload.
	alice.Navigate(srv.URL + "/client/")
	alice.WaitFor("Alice's seat after a reload", `(document.querySelector(".seat-button")?.innerText ?? "") === "Brannoc Saltbeard" && !document.querySelector(".seat-picker")`, 20*time.Second)
}

// TestBrowserSeatsSpectatorDisplayInitiativeAndRestart, with the key off
// (the contract's default): the landing page says which seats are free; a
// desktop player takes one and the TV display shows who sits where; the
// game master asks for initiative and the player rolls it from the prompt,
// then ends their turn when it comes; a spectator's page says it cannot
// chat, drag or roll and its drag does not move a token; the player's seat
// survives a server restart.
func TestBrowserSeatsSpectatorDisplayInitiativeAndRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server and Chromium")
	}
	data := t.TempDir()
	srv := e2e.StartServer(t, e2e.ServerOptions{DataDir: data})
	host := e2e.NewAPIClient(t, srv.HostURL)
	landing := e2e.NewPage(t, "landing", e2e.DesktopSize)
	landing.Navigate(srv.URL + "/")
	landing.WaitFor("the landing page's free seats", `document.body.innerText.includes("Brannoc Saltbeard: free")`, 10*time.Second)

	tv := e2e.NewPage(t, "tv", e2e.TvSize)
	tv.Navigate(srv.URL + "/client/?display=1")
	alice := e2e.NewPage(t, "Alice", e2e.DesktopSize)
	alice.Navigate(srv.URL + "/client/")
	e2e.JoinAs(t, alice, "Alice")
	e2e.WaitPlayerReady(t, alice)
	// The key is off: no picker in the way; the seat button offers the seats.
	if alice.Eval(`!!document.querySelector(".seat-picker")`) == true {
		t.Fatal("with the key off the seat picker covers the page on joining")
	}
	e2e.ClickText(alice, ".seat-button", "Pick a character")
	e2e.ClickText(alice, ".seat-choice", "Brannoc Saltbeard")
	alice.WaitFor("Brannoc's panel on the desktop", `(document.querySelector("#panel-character")?.innerText ?? "").includes("Brannoc Saltbeard")`, 10*time.Second)
	tv.WaitFor("the TV to show who sits where", `(document.querySelector(".seat-strip")?.innerText ?? "").includes("Brannoc Saltbeard — Alice")`, 10*time.Second)
	landing.Navigate(srv.URL + "/")
	landing.WaitFor("the landing page's taken seat", `document.body.innerText.includes("Brannoc Saltbeard: played by Alice") && document.body.innerText.includes("Ilsa Reedwhisper: free")`, 10*time.Second)

	// Initiative: the game master clears Brannoc's and asks; Alice's panel prompts and she rolls.
	if r := host.Do("PUT", "/host/api/combatants/"+e2e.DemoBrannocCombatant+"/initiative", `{"value": null}`); r.Status != 200 {
		t.Fatalf("clearing the initiative: %d %s", r.Status, r.Body)
	}
	if r := host.Do("POST", "/host/api/combatants/initiative/ask", `{}`); r.Status != 200 {
		t.Fatalf("asking for initiative: %d %s", r.Status, r.Body)
	}
	alice.WaitFor("the initiative prompt", `(document.querySelector(".char-turn")?.innerText ?? "").includes("roll your initiative")`, 10*time.Second)
	e2e.ClickText(alice, ".char-turn button", "Roll initiative")
	alice.WaitFor("the initiative roll in the chat", `[...document.querySelectorAll(".chat .roll-message")].some((m) => m.textContent.includes("Initiative") && m.querySelectorAll(".die").length > 0)`, 10*time.Second)
	alice.WaitFor("the prompt gone", `!(document.querySelector(".char-turn")?.innerText ?? "").includes("Roll initiative")`, 10*time.Second)

	// A condition with a duration shows with the rounds it has left; a roll with advantage says so and rolls two d20s.
	if r := host.Do("POST", "/host/api/combatants/"+e2e.DemoBrannocCombatant+"/effects", `{"name": "Poisoned", "duration": 3, "durationUnit": "round"}`); r.Status != 200 {
		t.Fatalf("adding an effect: %d %s", r.Status, r.Body)
	}
	alice.WaitFor("the effect in the panel", `(document.querySelector(".char-effects")?.innerText ?? "").match(/Poisoned\s+\d+ rounds? left/)`, 10*time.Second)
	e2e.ClickText(alice, ".adv button", "Advantage")
	e2e.ClickText(alice, ".character button.action", "Strength saving throw")
	alice.WaitFor("the advantage roll in the chat", `[...document.querySelectorAll(".chat .roll-message")].some((m) =>
		m.textContent.includes("Strength saving throw (advantage)") && m.querySelectorAll(".die").length >= 2)`, 10*time.Second)

	// The game master passes turns until Brannoc's: "End my turn" shows; a tap passes it on.
	for i := 0; i < 12 && alice.Eval(`!!document.querySelector(".char-end-turn")`) != true; i++ {
		if r := host.Do("POST", "/host/api/game/next", ""); r.Status != 200 {
			t.Fatalf("next turn: %d %s", r.Status, r.Body)
		}
		alice.Poll(`!!document.querySelector(".char-end-turn")`, time.Second)
	}
	alice.WaitFor("Alice's turn", `(document.querySelector(".char-turn")?.innerText ?? "").includes("It is your turn")`, 5*time.Second)
	e2e.SaveScreenshot(t, alice, "seats-desktop-my-turn")
	e2e.ClickText(alice, ".char-turn button", "End my turn")
	alice.WaitFor("the turn passed on", `!document.querySelector(".char-end-turn")`, 10*time.Second)
	e2e.SaveScreenshot(t, tv, "seats-tv")

	// A spectator sees the map and the chat and is told what they cannot do; their drag moves nothing.
	bo := e2e.NewPage(t, "Bo", e2e.DesktopSize)
	bo.Navigate(srv.URL + "/client/")
	e2e.JoinAs(t, bo, "Bo")
	e2e.WaitPlayerReady(t, bo)
	e2e.ClickText(bo, "#panel-character button", "Pick a character")
	e2e.ClickText(bo, ".seat-actions button", "Watch as a spectator")
	bo.WaitFor("the spectator's note on screen", `(() => { const n = document.querySelector(".spectator-note");
		return !!n && n.checkVisibility() && n.innerText.includes("cannot chat, drag tokens or roll"); })()`, 10*time.Second)
	if bo.Eval(`getComputedStyle(document.querySelector(".chat .say")).display`) != "none" {
		t.Fatal("the spectator still sees the chat's input")
	}
	if !strings.Contains(seatText(bo, "#panel-character"), "spectator") || seatText(bo, ".seat-button") != "Spectator" {
		t.Fatalf("the spectator's page does not say so: %q", seatText(bo, "#panel-character"))
	}
	bo.Idle()
	quill := bo.State().Token(e2e.DemoQuillID)
	if quill == nil {
		t.Fatal("the spectator does not see Quill's token")
	}
	e2e.DragInPage(t, bo, quill.X, quill.Y, quill.X+e2e.DemoGrid, quill.Y, 6, nil)
	bo.Idle()
	if after := bo.State().Token(e2e.DemoQuillID); after.X != quill.X || after.Y != quill.Y {
		t.Fatalf("the spectator dragged Quill from %v,%v to %v,%v", quill.X, quill.Y, after.X, after.Y)
	}

	// The game master frees Brannoc from the console: Alice's page offers the seats again; then gives it back to her.
	console := e2e.NewPage(t, "console", e2e.ViewportSize{Width: 1400, Height: 1000, Mobile: false})
	console.Navigate(srv.HostURL + "/host/")
	console.WaitFor("Brannoc's row", `[...document.querySelectorAll("#seat-rows tr")].some((r) => r.innerText.includes("Alice"))`, 15*time.Second)
	console.EvalInto(`(() => { [...document.querySelectorAll("#seat-rows tr")].find((r) => r.innerText.includes("Brannoc")).querySelector(".seat-free").click(); return true; })()`, nil)
	alice.WaitFor("the freed seat on Alice's page", `(document.querySelector(".seat-picker")?.innerText ?? "").includes("The game master freed your seat") &&
		(document.querySelector(".seat-button")?.innerText ?? "") === "Pick a character"`, 10*time.Second)
	console.WaitFor("Alice in the console's give list", `[...document.querySelectorAll("#seat-rows tr")].find((r) => r.innerText.includes("Brannoc")).querySelector("select").innerText.includes("Alice")`, 10*time.Second)
	console.EvalInto(`(() => {
		const s = [...document.querySelectorAll("#seat-rows tr")].find((r) => r.innerText.includes("Brannoc")).querySelector("select");
		s.value = [...s.options].find((o) => o.textContent.startsWith("Alice")).value;
		s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
	alice.WaitFor("Brannoc given back to Alice", `(document.querySelector(".seat-button")?.innerText ?? "") === "Brannoc Saltbeard" && !document.querySelector(".seat-picker") &&
		(document.querySelector("#panel-character")?.innerText ?? "").includes("Hit points")`, 10*time.Second)

	// A restart: Alice's page reconnects and holds Brannoc still; Bo is still a spectator.
	addr, hostAddr := strings.TrimPrefix(srv.URL, "http://"), strings.TrimPrefix(srv.HostURL, "http://")
	srv.Stop(t)
	e2e.StartServer(t, e2e.ServerOptions{DataDir: data, Addr: addr, HostAddr: hostAddr})
	alice.Navigate("http://" + addr + "/client/")
	alice.WaitFor("Alice's seat after the restart", `(document.querySelector(".seat-button")?.innerText ?? "") === "Brannoc Saltbeard" &&
		(document.querySelector("#panel-character")?.innerText ?? "").includes("Hit points") && !document.querySelector(".seat-picker")`, 30*time.Second)
	bo.Navigate("http://" + addr + "/client/")
	bo.WaitFor("Bo still a spectator", `document.body.classList.contains("spectator")`, 30*time.Second)
}
