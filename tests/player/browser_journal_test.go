package player

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// demoPage is the demo campaign's page, and the address players open it at.
const (
	demoPage    = "5e0ca000-0000-4000-8000-000000000710"
	demoPageURL = "/campaign/saltmarsh-lights/page/the-flooded-font"
)

// TestThePlayerReadsAShownPageAgainFromTheJournal is the issue's
// acceptance of the handout journal: the game master shows a page and
// takes it off the screen; the player, after a reload, finds it in the
// Journal panel marked new, opens it (the page in the reference panel),
// and when the game master takes the entry back it leaves the panel at
// once, without a reload, and the page no longer opens. Then, on the same
// page, the private dice-tray roll and a whisper from the game master show
// marked private, before and after a reload.
func TestThePlayerReadsAShownPageAgainFromTheJournal(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	p := e2e.OpenPlayerWith(t, srv, "Reader")

	if r := host.Do("POST", "/host/api/pages/"+demoPage+"/show", ""); r.Status != 200 {
		t.Fatalf("showing the page: %d %s", r.Status, r.Body)
	}
	p.WaitFor("the handout on the screen", `(() => { const b = document.querySelector(".lightbox"); return b && !b.hidden && b.innerText.includes("Flooded Font"); })()`, 15*time.Second)
	if r := host.Do("DELETE", "/host/api/screen/overlay", ""); r.Status != 200 {
		t.Fatalf("taking the handout down: %d %s", r.Status, r.Body)
	}
	p.WaitFor("the handout gone", `document.querySelector(".lightbox").hidden`, 15*time.Second)

	// After a reload, the journal has it, marked new; a tap opens the page.
	p.Navigate(srv.URL + "/client/")
	e2e.WaitPlayerReady(t, p)
	p.Do() // settle
	p.EvalInto(`(() => { const b = document.querySelector("#panel-journal .panel-toggle"); if (!document.querySelector("#panel-journal").classList.contains("open")) b.click(); return true; })()`, nil)
	entry := `[...document.querySelectorAll("#panel-journal .journal-list li")].find((li) => li.innerText.includes("The Flooded Font"))`
	p.WaitFor("the page in the journal, marked new", `(() => { const li = `+entry+`; return !!li && li.classList.contains("new") && li.innerText.includes("new") && li.getBoundingClientRect().height > 0; })()`, 15*time.Second)
	p.EvalInto(`(() => { (`+entry+`).querySelector("button").click(); return true; })()`, nil)
	p.WaitFor("the page open in the reference panel", `(() => { const f = document.querySelector(".reference:not([hidden]) iframe"); return !!f && f.getAttribute("src") === `+jsString(demoPageURL)+` && f.getBoundingClientRect().width > 100; })()`, 15*time.Second)
	var status struct {
		Status int
		Text   string
	}
	p.EvalInto(`fetch(`+jsString(demoPageURL)+`).then(async (r) => ({status: r.status, text: await r.text()}))`, &status)
	if status.Status != 200 || !strings.Contains(status.Text, "Flooded Font") {
		t.Fatalf("the page the journal opens answers %d", status.Status)
	}
	p.WaitFor("no longer new once read", `!(`+entry+`).classList.contains("new")`, 5*time.Second)

	// Taken back: gone from the journal live, and the page closed.
	var journal struct{ Entries []struct{ ID, Title string } }
	if err := json.Unmarshal(host.Do("GET", "/host/api/journal", "").Body, &journal); err != nil || len(journal.Entries) != 1 {
		t.Fatalf("the host's journal: %v %+v", err, journal)
	}
	if r := host.Do("POST", "/host/api/journal/"+journal.Entries[0].ID+"/revoke", ""); r.Status != 200 {
		t.Fatalf("taking the entry back: %d %s", r.Status, r.Body)
	}
	p.WaitFor("the entry gone from the journal", `!(`+entry+`) && document.querySelector("#panel-journal .journal p").innerText.includes("Nothing shown yet")`, 15*time.Second)
	p.EvalInto(`fetch(`+jsString(demoPageURL)+`).then((r) => ({status: r.status, text: ""}))`, &status)
	if status.Status != 404 {
		t.Fatalf("a revoked page still opens: %d", status.Status)
	}

	// Secrets in the chat, on the same page: seated, the player rolls a
	// d20 from the dice tray with its private switch on; the game master
	// whispers to the seat. Both show marked private, and still do after
	// a reload (GET /api names the seat).
	var clients []struct {
		Channel int
		Name    string
	}
	host.Get("/host/api/clients", &clients)
	channel := -1
	for _, c := range clients {
		if c.Name == "Reader" {
			channel = c.Channel
		}
	}
	if r := host.Do("POST", "/host/api/seats/"+e2e.DemoIlsaChar+"/assign", fmt.Sprintf(`{"channel": %d, "player": "Reader"}`, channel)); r.Status != 200 {
		t.Fatalf("giving the player a seat: %d %s", r.Status, r.Body)
	}
	p.WaitFor("the seat token kept", `!!localStorage.getItem("companion.seatToken")`, 15*time.Second)
	p.EvalInto(`(() => {
		const chat = document.querySelector("#panel-chat");
		if (!chat.classList.contains("open")) chat.querySelector(".panel-toggle").click();
		const tray = document.querySelector(".chat .tray");
		if (tray.hidden) document.querySelector(".tray-toggle").click();
		document.querySelector(".tray input[name=private]").click();
		document.querySelector(".tray button[data-sides='20']").click();
		return true;
	})()`, nil)
	private := `[...document.querySelectorAll(".chat .log li.message.private")]`
	p.WaitFor("the private roll marked in the chat", private+`.some((li) => li.innerText.includes("Private to GM") && li.querySelector(".private-mark").getBoundingClientRect().width > 0)`, 15*time.Second)
	if r := host.Do("POST", "/host/api/messages", `{"text": "WHISPERTOREADER you hear a click", "to": ["`+e2e.DemoIlsaChar+`"]}`); r.Status != 201 {
		t.Fatalf("the game master's whisper: %d %s", r.Status, r.Body)
	}
	p.WaitFor("the whisper marked private", private+`.some((li) => li.innerText.includes("WHISPERTOREADER") && li.innerText.includes("Private to Reader"))`, 15*time.Second)
	if log := string(host.Do("GET", "/host/api/messages", "").Body); !strings.Contains(log, `"private":true,"to":["GM"]`) {
		t.Fatalf("the tray's private roll is not a private roll on the server: %.400s", log)
	}
	p.Navigate(srv.URL + "/client/")
	e2e.WaitPlayerReady(t, p)
	p.WaitFor("both still there after a reload", private+`.length === 2 && `+private+`.some((li) => li.innerText.includes("WHISPERTOREADER"))`, 15*time.Second)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
