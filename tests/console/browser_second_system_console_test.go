package console

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// Lanternlight's demo combatants (examples/lanternlight/sample).
const (
	lanternMaudInGame = "1a47e000-0000-4000-8000-000000000502"
)

// dndWords are D&D 5e's words that must not reach a screen running another
// system: hit points and their HP, armour class, advantage, death saves,
// and initiative (Lanternlight has none: it passes turns).
const dndWords = `/\bHP\b|\bAC\b|hit points|armou?r class|advantage|death save|initiative/i`

// TestConsoleSecondSystemHasNoDnDWords: the host console running
// examples/lanternlight draws its combat card and a token's card in that
// system's words: health under its label (VIG), no armour class, no
// initiative column or roll buttons; the card shows who acts and who has
// acted this round, and a tap on "Pass the turn here" hands the turn over.
func TestConsoleSecondSystemHasNoDnDWords(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server and Chromium")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", "../../examples/lanternlight"}})
	p := e2e.NewPage(t, "console with Lanternlight", laptopSize)
	p.NavigateAsync(srv.HostURL + "/host/")
	finishConsole(t, p)
	p.WaitFor("three combatant rows with their vigour", `document.querySelectorAll("#combatants li[data-combatant]").length === 3 &&
		[...document.querySelectorAll("#combatants [data-hp-value]")].some((e) => /^VIG \d+/.test(e.textContent))`, 15*time.Second)
	p.WaitFor("the turn order: Edwin acting, the others to act, a button to pass to them", `(() => {
		const rows = [...document.querySelectorAll("#initiative li")];
		return rows.length === 3 && rows[0].classList.contains("acting") && rows.filter((r) => r.querySelector("[data-pass]")).length === 2 &&
			document.getElementById("initiative-rolls").hidden && /Edwin Pryce acts · 0 of 3 have acted/.test(document.getElementById("combat-state").textContent);
	})()`, 10*time.Second)
	if p.Eval(`document.querySelectorAll("#combatants input.init-edit").length`) != 0.0 {
		t.Error("initiative fields on the combatant rows of a system without initiative")
	}

	p.ClickElement("Pass the turn here, on Maud's row", fmt.Sprintf(`document.querySelector('#initiative [data-pass=%q]')`, lanternMaudInGame))
	p.WaitFor("Maud acts, Edwin has acted", `/Maud Gallager acts · 1 of 3 have acted/.test(document.getElementById("combat-state").textContent) &&
		[...document.querySelectorAll("#initiative li.acted")].length === 1 && document.querySelectorAll("#initiative [data-pass]").length === 1`, 10*time.Second)

	// A token's card: its health under the system's label, no armour class.
	var tokenID string
	p.EvalInto(`(() => { for (const t of window.companionGM.store.tokens.values()) if (!t.hidden && !t.player) return t.id; return ""; })()`, &tokenID)
	if tokenID == "" {
		t.Fatal("the demo map has no horror token")
	}
	p.Eval(fmt.Sprintf(`window.companionGM.panel.select(%q), true`, tokenID))
	p.WaitFor("the token card's vigour", `/^VIG \d+/.test((document.querySelector("#gm-token-panel .gm-token-stats") || {}).textContent || "")`, 10*time.Second)

	var shown struct{ Combat, Token string }
	p.EvalInto(`({Combat: document.getElementById("combat").innerText, Token: document.getElementById("gm-token-panel").innerText})`, &shown)
	for what, text := range map[string]string{"combat card": shown.Combat, "token card": shown.Token} {
		var found bool
		p.EvalInto(fmt.Sprintf(`%s.test(%s)`, dndWords, jsString(text)), &found)
		if found {
			t.Errorf("D&D words on the %s:\n%s", what, text)
		}
	}
	_, body := e2e.HostCall(t, srv, "GET", "/host/api/campaign", "")
	var view struct{ Game struct{ CombatantID string } }
	if json.Unmarshal(body, &view); view.Game.CombatantID != lanternMaudInGame {
		t.Fatalf("after the pass, %q acts", view.Game.CombatantID)
	}
	e2e.SaveScreenshot(t, p, "console-lanternlight")
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
