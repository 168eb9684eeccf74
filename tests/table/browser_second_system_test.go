package table

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// TestBrowserSecondSystemRollsWithItsOptions: with examples/lanternlight,
// a seated player's panel shows that system's health, tally and roll
// options and none of D&D 5e's words; a skill rolled with a bonus die
// from the panel shows two dice in the chat and the outcome the system
// names, in its words.
func TestBrowserSecondSystemRollsWithItsOptions(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server and Chromium")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", "../../examples/lanternlight"}})
	alice := e2e.NewPage(t, "Alice", e2e.DesktopSize)
	alice.Navigate(srv.URL + "/client/")
	e2e.JoinAs(t, alice, "Alice")
	e2e.WaitPlayerReady(t, alice)
	e2e.ClickText(alice, ".seat-button", "Pick a character")
	e2e.ClickText(alice, ".seat-choice", "Maud Gallager")
	alice.WaitFor("Maud's panel: her vigour, her nerve and the system's roll options", `(() => {
		const p = document.querySelector("#panel-character")?.innerText ?? "";
		return p.includes("Maud Gallager") && p.includes("Vigour") && /nerve/i.test(p) && p.includes("Shaken") && p.includes("Bonus die") && p.includes("Penalty die");
	})()`, 15*time.Second)
	if alice.Eval(`/hit points|advantage|death save|d20|critical/i.test(document.querySelector("#panel-character").innerText)`) == true {
		t.Fatalf("D&D words on the panel: %s", seatText(alice, "#panel-character"))
	}
	alice.WaitFor("the initiative list's health under the system's label", `(document.querySelector("#panel-initiative")?.innerText ?? "").includes("9 / 11 VIG") && !/\bHP\b/.test(document.querySelector("#panel-initiative").innerText)`, 10*time.Second)
	e2e.ClickText(alice, ".adv button", "Bonus die")
	alice.WaitFor("the bonus die toggled on", `document.querySelector(".adv button[data-option=bonus]")?.getAttribute("aria-pressed") === "true"`, 5*time.Second)
	e2e.ClickText(alice, ".character button.action", "Spot Hidden")
	alice.WaitFor("the roll with its bonus die and the system's outcome in the chat", `[...document.querySelectorAll(".chat .roll-message")].some((m) =>
		m.textContent.includes("Spot Hidden (60%) (bonus die)") && m.querySelectorAll(".die").length === 2 &&
		/^(Extreme success|Hard success|Regular success|Failure|Blunder)$/.test(m.querySelector(".roll-outcome")?.textContent ?? ""))`, 10*time.Second)
	alice.WaitFor("the panel's answer line with the outcome", `/Spot Hidden \(60%\) \(bonus die\): \d+ — (Extreme success|Hard success|Regular success|Failure|Blunder)/.test(document.querySelector(".last-roll")?.textContent ?? "")`, 5*time.Second)
	if alice.Eval(`document.querySelector(".adv button[data-option=bonus]").getAttribute("aria-pressed")`) != "false" {
		t.Error("the bonus die stayed on after the roll")
	}
	e2e.SaveScreenshot(t, alice, "second-system-roll")

	// Lanternlight passes turns: no initiative to roll; on her turn (the
	// game master passes Edwin's to her) Maud's panel offers to pass it
	// to the one who has not acted, and her tap hands it over.
	if alice.Eval(`!!document.querySelector(".char-initiative")`) == true {
		t.Fatal("a Roll initiative button in a game that passes turns")
	}
	if status, body := e2e.HostCall(t, srv, "POST", "/host/api/game/pass", `{"to":"1a47e000-0000-4000-8000-000000000502"}`); status != 200 {
		t.Fatalf("the game master passed the turn to Maud: %d %s", status, body)
	}
	alice.WaitFor("Maud's turn, to pass to the Wight alone (Edwin has acted)", `(() => {
		const p = document.querySelector("#panel-character .char-turn")?.innerText ?? "";
		return p.includes("It is your turn.") && p.includes("Pass to Tide Wight") && !p.includes("Pass to Edwin");
	})()`, 10*time.Second)
	e2e.ClickText(alice, ".char-turn button.char-pass", "Pass to Tide Wight")
	alice.WaitFor("the turn gone from Maud", `!(document.querySelector("#panel-character")?.innerText ?? "").includes("It is your turn.")`, 10*time.Second)
	alice.WaitFor("the turn panel: named Turns, Edwin and Maud marked as having acted", `(() => {
		const acted = [...document.querySelectorAll("#panel-initiative li.combatant.acted")].map((li) => li.querySelector(".name").textContent);
		return document.querySelector("#panel-initiative .panel-toggle").textContent === "Turns" && acted.length === 2 &&
			acted.includes("Edwin Pryce") && acted.includes("Maud Gallager") &&
			[...document.querySelectorAll("#panel-initiative li.acted .badge.acted")].every((b) => b.textContent.includes("acted"));
	})()`, 10*time.Second)
	_, body := e2e.HostCall(t, srv, "GET", "/host/api/campaign", "")
	var view struct{ Game struct{ CombatantID string } }
	if json.Unmarshal(body, &view); view.Game.CombatantID != "1a47e000-0000-4000-8000-000000000503" {
		t.Fatalf("the Wight does not act after Maud passed: %q", view.Game.CombatantID)
	}
}
