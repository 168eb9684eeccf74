package console

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

var laptopSize = e2e.ViewportSize{Width: 1440, Height: 900, Mobile: false}

func TestConsoleLayoutOneScreen(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	// Two goblins join the demo's five combatants.
	var monsters []struct{ ID, Name string }
	if err := json.Unmarshal([]byte(e2e.GmuiDo(t, srv, "GET", "/host/api/entities/monsters", nil, "").Body), &monsters); err != nil {
		t.Fatal(err)
	}
	goblin := ""
	for _, m := range monsters {
		if m.Name == "Goblin" {
			goblin = m.ID
		}
	}
	if goblin == "" {
		t.Fatalf("the demo has no Goblin: %v", monsters)
	}
	add := fmt.Sprintf(`{"combatants": [{"entityId": %q}, {"entityId": %q}]}`, goblin, goblin)
	if r := e2e.GmuiDo(t, srv, "POST", "/host/api/combatants", strings.NewReader(add), "application/json"); r.Status != 201 {
		t.Fatalf("add two goblins: %d %s", r.Status, r.Body)
	}

	p := e2e.NewPage(t, "console at 1440x900", laptopSize)
	p.NavigateAsync(srv.HostURL + "/host/")
	finishConsole(t, p)
	p.WaitFor("seven combatant rows with their armour class", `document.querySelectorAll("#combatants li[data-combatant]").length >= 7 &&
		[...document.querySelectorAll("#combatants [data-ac-value]")].every((e) => /^AC \d+$/.test(e.textContent))`, 15*time.Second)

	// Select a token that is in combat, as a tap on it does.
	var tokenID string
	p.EvalInto(`(() => { for (const t of window.companionGM.store.tokens.values()) if (!t.hidden && !t.player) return t.id; return ""; })()`, &tokenID)
	if tokenID == "" {
		t.Fatal("the demo map has no monster token")
	}
	p.Eval(fmt.Sprintf(`window.companionGM.panel.select(%q), true`, tokenID))
	p.WaitFor("the token card's hit points and armour class", `/^HP \d+(\/\d+)? · AC \d+/.test((document.querySelector("#gm-token-panel .gm-token-stats") || {}).textContent || "") &&
		/Conditions: |No condition/.test(document.querySelector("#gm-token-panel .gm-token-conditions").textContent)`, 10*time.Second)

	type rect struct{ Left, Top, Right, Bottom, Width, Height float64 }
	var got struct {
		ScrollHeight, ScrollWidth, InnerHeight, InnerWidth float64
		Map, Combat, Card                                  rect
		Rows                                               []rect
	}
	p.EvalInto(`(() => {
		const r = (e) => { const b = e.getBoundingClientRect(); return {Left: b.left, Top: b.top, Right: b.right, Bottom: b.bottom, Width: b.width, Height: b.height}; };
		return {
			ScrollHeight: document.documentElement.scrollHeight, ScrollWidth: document.documentElement.scrollWidth,
			InnerHeight: innerHeight, InnerWidth: innerWidth,
			Map: r(document.querySelector("#gm-map canvas")), Combat: r(document.getElementById("combat")),
			Card: r(document.getElementById("gm-token-panel")),
			Rows: [...document.querySelectorAll("#combatants li[data-combatant]")].map(r),
		};
	})()`, &got)
	e2e.SaveScreenshot(t, p, "console-1440x900") // docs/images/host-console.png is this one
	if got.ScrollHeight > got.InnerHeight || got.ScrollWidth > got.InnerWidth {
		t.Errorf("the page scrolls at 1440x900: %vx%v in a %vx%v viewport", got.ScrollWidth, got.ScrollHeight, got.InnerWidth, got.InnerHeight)
	}
	inside := func(what string, b rect) {
		if b.Width <= 0 || b.Height <= 0 || b.Left < 0 || b.Top < 0 || b.Right > got.InnerWidth || b.Bottom > got.InnerHeight {
			t.Errorf("%s is not wholly on screen: %+v", what, b)
		}
	}
	apart := func(a string, x rect, b string, y rect) {
		if x.Left < y.Right && y.Left < x.Right && x.Top < y.Bottom && y.Top < x.Bottom {
			t.Errorf("%s %+v overlaps %s %+v", a, x, b, y)
		}
	}
	inside("the map", got.Map)
	inside("the combat card", got.Combat)
	inside("the token card", got.Card)
	apart("the map", got.Map, "the combat card", got.Combat)
	apart("the map", got.Map, "the token card", got.Card)
	apart("the combat card", got.Combat, "the token card", got.Card)
	if got.Map.Width < 500 || got.Map.Height < 500 {
		t.Errorf("the map is small: %+v", got.Map)
	}
	if len(got.Rows) < 7 {
		t.Fatalf("%d combatant rows, want 7", len(got.Rows))
	}
	for i, row := range got.Rows {
		inside(fmt.Sprintf("combatant row %d", i+1), row)
		if row.Height > 60 {
			t.Errorf("combatant row %d is %v px tall, want at most 60", i+1, row.Height)
		}
		if row.Bottom > got.Combat.Bottom {
			t.Errorf("combatant row %d (%+v) is below the combat card (%+v)", i+1, row, got.Combat)
		}
	}

	// A goblin's name in the combat list opens its stat block.
	p.ClickElement("the goblin's name", `[...document.querySelectorAll("#combatants .cb-name")].find((b) => b.textContent.startsWith("Goblin"))`)
	p.WaitFor("the goblin's stat block", `(() => {
		const f = document.getElementById("statblock-frame");
		const b = f.getBoundingClientRect();
		const text = (f.contentDocument && f.contentDocument.body && f.contentDocument.body.innerText) || "";
		return document.getElementById("drawer").dataset.tab === "stat" && b.width > 300 && b.height > 300 &&
			text.includes("Goblin") && /Armor Class\s+\d+/.test(text) && /Hit Points\s+\d+/.test(text);
	})()`, 15*time.Second)
	e2e.SaveScreenshot(t, p, "console-1440x900-statblock")
	if sh := p.Eval(`document.documentElement.scrollHeight <= innerHeight`); sh != true {
		t.Errorf("the open stat block makes the page scroll")
	}
	// The token card opens one too.
	p.ClickElement("the drawer's close button", `document.getElementById("drawer-close")`)
	p.WaitFor("the drawer closed", `!document.getElementById("drawer").dataset.tab`, 5*time.Second)
	p.ClickElement("the token card's stat block button", `document.querySelector("#gm-token-panel [data-statblock]")`)
	p.WaitFor("the token's stat block", `document.getElementById("drawer").dataset.tab === "stat" &&
		document.getElementById("statblock-frame").getAttribute("src") === document.querySelector("#gm-token-panel [data-statblock]").dataset.statblock`, 10*time.Second)

	// And a row of the place-a-token list, without arming it for placing.
	p.ClickElement("the Cinder Hound row's stat block button", `[...document.querySelectorAll("#gm-entities li")].find((li) => li.textContent === "Cinder Hound").querySelector("[data-statblock]")`)
	p.WaitFor("the Cinder Hound's stat block", `(() => {
		const f = document.getElementById("statblock-frame");
		const text = (f.contentDocument && f.contentDocument.body && f.contentDocument.body.innerText) || "";
		return document.getElementById("statblock-title").textContent === "Cinder Hound" && text.includes("Cinder Hound") && /Armor Class\s+\d+/.test(text);
	})()`, 15*time.Second)
	if armed := p.Eval(`!!document.querySelector("#gm-entities li.armed")`); armed != false {
		t.Errorf("opening a row's stat block armed the row for placing")
	}

	// The header's tabs open the other panels, and a link to a card opens its tab.
	p.ClickElement("the Seats tab", `document.querySelector('#tabs [data-tab="seats"]')`)
	p.WaitFor("the seats card shown", `(() => { const b = document.getElementById("seats").getBoundingClientRect(); return b.width > 0 && b.height > 0 && document.getElementById("statblock").getBoundingClientRect().height === 0; })()`, 5*time.Second)
	p.ClickElement("the Content tab", `document.querySelector('#tabs [data-tab="content"]')`)
	p.ClickElement("the get-more-content link", `document.querySelector("#more-content a")`)
	p.WaitFor("the import card shown", `document.getElementById("import").getBoundingClientRect().height > 0 && document.getElementById("seats").getBoundingClientRect().height === 0`, 5*time.Second)
	// The remote-interaction select stays inside its card.
	p.ClickElement("the Settings tab", `document.querySelector('#tabs [data-tab="settings"]')`)
	var fit struct{ Select, Card rect }
	p.EvalInto(`(() => {
		const r = (e) => { const b = e.getBoundingClientRect(); return {Left: b.left, Top: b.top, Right: b.right, Bottom: b.bottom, Width: b.width, Height: b.height}; };
		return {Select: r(document.getElementById("set-interaction")), Card: r(document.getElementById("settings"))};
	})()`, &fit)
	if fit.Select.Width <= 0 || fit.Select.Left < fit.Card.Left || fit.Select.Right > fit.Card.Right {
		t.Errorf("the remote-interaction select %+v overflows its card %+v", fit.Select, fit.Card)
	}
	e2e.SaveScreenshot(t, p, "console-1440x900-settings")
	// One tab's cards at a time: every other card in the drawer is out of sight.
	var others []string
	p.EvalInto(`[...document.querySelectorAll("#drawer > .card")].filter((c) => c.id !== "settings" && c.id !== "system" && c.getBoundingClientRect().height > 0).map((c) => c.id)`, &others)
	if len(others) > 0 {
		t.Errorf("the Settings tab shows other cards too: %v", others)
	}
	if problems := p.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console problems: %v", problems)
	}
}
