package console

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/tests/e2e"
)

// renderHostConsole loads the host console in a desktop-sized tab and
// returns its DOM as HTML once the page has drawn what its first polls
// fetched: the system (twice, so the first answer is on the page),
// the settings (twice, likewise) and the campaign.
func renderHostConsole(t *testing.T, url string) string {
	t.Helper()
	p := e2e.NewPage(t, "host console", e2e.DesktopSize)
	p.Navigate(url)
	p.WaitFor("the console's first polls", `(() => {
		const done = path => performance.getEntriesByType("resource").filter(e => e.name.endsWith("/host/api/" + path)).length;
		return done("system") >= 2 && done("settings") >= 2 && done("campaign") >= 1 &&
			document.querySelector("#system-reload").textContent !== "…";
	})()`, 20*time.Second)
	var dom string
	p.EvalInto(`document.documentElement.outerHTML`, &dom)
	return dom
}

// domText is s as the DOM serialiser writes text: &, < and > escaped.
func domText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// tagByID returns the opening tag of the element with id, or "".
func tagByID(dom, id string) string {
	return regexp.MustCompile(`<[a-z]+\b[^>]*\bid="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(dom)
}

// elementByID returns the element with id up to its closing tag (for
// elements without a nested element of the same tag).
func elementByID(dom, id string) string {
	open := tagByID(dom, id)
	if open == "" {
		return ""
	}
	tag := regexp.MustCompile(`^<([a-z]+)`).FindStringSubmatch(open)[1]
	start := strings.Index(dom, open)
	end := strings.Index(dom[start:], "</"+tag+">")
	if end < 0 {
		return dom[start:]
	}
	return dom[start : start+end]
}

func hasAttr(tag, attr string) bool {
	return regexp.MustCompile(`\s` + attr + `(=|\s|>|/)`).MatchString(tag)
}

// TestHostConsolePageInBrowser starts the real server on a copy of the
// dnd5e example (so that hot reload runs), renders the host console in
// headless Chromium, and checks what the person at the device sees: the
// seeded campaign's maps and initiative, the system's name, the settings,
// and, after a broken edit, the reload error in the red banner.
func TestHostConsolePageInBrowser(t *testing.T) {
	t.Parallel()
	sysDir := t.TempDir()
	if err := os.CopyFS(sysDir, os.DirFS("../../examples/dnd5e")); err != nil {
		t.Fatal(err)
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sysDir, "--remote-interaction=false"}})
	host := srv.HostURL

	var campaign struct {
		Maps []struct {
			Name     string `json:"name"`
			OnScreen bool   `json:"onScreen"`
		} `json:"maps"`
		TurnOrder []struct {
			Name string `json:"name"`
		} `json:"turnOrder"`
	}
	e2e.HostGetJSON(t, host+"/host/api/campaign", &campaign)
	if len(campaign.Maps) == 0 || len(campaign.TurnOrder) == 0 {
		t.Fatalf("the seeded campaign has %d maps and %d initiative slots; the test needs both", len(campaign.Maps), len(campaign.TurnOrder))
	}
	var system struct {
		Name string `json:"name"`
	}
	e2e.HostGetJSON(t, host+"/host/api/system", &system)

	// Pause from the API: the page must show it.
	req, _ := http.NewRequest(http.MethodPatch, host+"/host/api/settings", strings.NewReader(`{"paused": true}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("PATCH settings: %v %v", resp, err)
	}
	resp.Body.Close()

	dom := renderHostConsole(t, host+"/host/")
	for _, m := range campaign.Maps {
		if !strings.Contains(elementByID(dom, "maps"), "<strong>"+domText(m.Name)+"</strong>") {
			t.Errorf("map %q is not in the maps list:\n%s", m.Name, elementByID(dom, "maps"))
		}
	}
	if !strings.Contains(elementByID(dom, "maps"), "On the player screen") {
		t.Error("no map is marked as on the player screen")
	}
	initiative := elementByID(dom, "initiative")
	for _, s := range campaign.TurnOrder {
		if !strings.Contains(initiative, domText(s.Name)) {
			t.Errorf("%q is not in the initiative list:\n%s", s.Name, initiative)
		}
	}
	if badge := elementByID(dom, "system-badge"); !strings.Contains(badge, domText(system.Name)) {
		t.Errorf("system badge = %q, want the system name %q", badge, system.Name)
	}
	if name := elementByID(dom, "system-name"); !strings.Contains(name, domText(system.Name)) {
		t.Errorf("system section = %q, want %q", name, system.Name)
	}
	if watch := elementByID(dom, "system-watch"); !strings.Contains(watch, "Watching") {
		t.Errorf("hot reload line = %q, want the watched folder", watch)
	}
	if tag := tagByID(dom, "interaction-none"); tag == "" || !hasAttr(tag, "selected") {
		t.Errorf("remote interaction (started off) shows as %q, want none selected", tag)
	}
	if tag := tagByID(dom, "interaction-all"); hasAttr(tag, "selected") {
		t.Errorf("remote interaction (started off) shows all selected: %q", tag)
	}
	if tag := tagByID(dom, "set-paused"); !hasAttr(tag, "checked") {
		t.Errorf("pause (turned on) shows as %q", tag)
	}
	if tag := tagByID(dom, "pause-badge"); tag == "" || hasAttr(tag, "hidden") {
		t.Errorf("paused badge hidden while paused: %q", tag)
	}
	if tag := tagByID(dom, "reload-error"); !hasAttr(tag, "hidden") {
		t.Errorf("reload error banner shown before any reload: %q", tag)
	}
	if t.Failed() {
		t.Logf("rendered DOM:\n%s", dom)
		return
	}

	// A broken edit: the old version keeps serving and the page shows the
	// error, file:line: message, in the red banner.
	entry := filepath.Join(sysDir, "system.lua")
	old, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, append(old, []byte("\nlocal broken = (\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	var status struct {
		LastReload *struct {
			OK    bool   `json:"ok"`
			Error string `json:"error"`
		} `json:"lastReload"`
	}
	deadline := time.Now().Add(15 * time.Second)
	for status.LastReload == nil || status.LastReload.OK {
		if time.Now().After(deadline) {
			t.Fatalf("no failed reload reported within 15s; last %+v\n%s", status.LastReload, srv.Output())
		}
		time.Sleep(100 * time.Millisecond)
		e2e.HostGetJSON(t, host+"/host/api/system", &status)
	}
	if !regexp.MustCompile(`system\.lua:\d+`).MatchString(status.LastReload.Error) {
		t.Fatalf("reload error %q does not name system.lua:line", status.LastReload.Error)
	}
	dom = renderHostConsole(t, host+"/host/")
	if tag := tagByID(dom, "reload-error"); tag == "" || hasAttr(tag, "hidden") {
		t.Fatalf("the reload error banner is hidden after a failed reload: %q", tag)
	}
	if text := elementByID(dom, "reload-error-text"); !strings.Contains(text, domText(status.LastReload.Error)) {
		t.Fatalf("banner text = %q, want %q", text, status.LastReload.Error)
	}
	// The old version still serves: the system name is unchanged.
	if badge := elementByID(dom, "system-badge"); !strings.Contains(badge, domText(system.Name)) {
		t.Errorf("system badge after a failed reload = %q", badge)
	}
}

// TestHostConsolePageActions clicks through the console in a real browser:
// next turn, pause, show a map on the player screen, decline an offer and
// delete a module (confirming), checking each effect through the API.
func TestHostConsolePageActions(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := srv.HostURL
	type game struct {
		Game struct {
			Started bool `json:"started"`
			Round   int  `json:"round"`
			Turn    int  `json:"turn"`
		} `json:"game"`
		Screen struct {
			MapID string `json:"mapId"`
		} `json:"screen"`
		Maps []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"maps"`
	}
	before := e2e.WaitAPI(t, host+"/host/api/campaign", "the campaign", func(g game) bool { return len(g.Maps) > 0 })

	p := e2e.NewPage(t, "host console", e2e.DesktopSize)
	p.Navigate(host + "/host/")
	p.WaitFor("the initiative list", `document.querySelectorAll("#initiative li").length > 1`, 10*time.Second)
	// Confirmation dialogs answer yes, as the person would.
	p.Eval(`window.confirm = () => true`)

	// Combat: start it when the seeded game is not running, then next turn.
	if !before.Game.Started {
		p.WaitFor("the start button", `!document.querySelector("[data-combat=start]").disabled`, 10*time.Second)
		p.Eval(`document.querySelector("[data-combat=start]").click()`)
		before = e2e.WaitAPI(t, host+"/host/api/campaign", "combat to start", func(g game) bool { return g.Game.Started })
	}
	p.WaitFor("the next button", `!document.querySelector("[data-combat=next]").disabled`, 10*time.Second)
	p.Eval(`document.querySelector("[data-combat=next]").click()`)
	after := e2e.WaitAPI(t, host+"/host/api/campaign", "the next turn", func(g game) bool {
		return g.Game.Turn != before.Game.Turn || g.Game.Round != before.Game.Round
	})
	p.WaitFor("the new turn on the page", fmt.Sprintf(`document.getElementById("combat-state").textContent.includes("turn %d")`, after.Game.Turn), 10*time.Second)
	p.Eval(`document.querySelector("[data-combat=end]").click()`)
	e2e.WaitAPI(t, host+"/host/api/campaign", "combat to end", func(g game) bool { return !g.Game.Started })

	// Pause from the page.
	p.Eval(`document.getElementById("set-paused").click()`)
	e2e.WaitAPI(t, host+"/host/api/settings", "pause", func(s struct{ Paused bool }) bool { return s.Paused })
	p.WaitFor("the paused badge", `!document.getElementById("pause-badge").hidden`, 10*time.Second)

	// Remote interaction: the three modes from the page's select.
	p.Eval(`(() => { const sel = document.getElementById("set-interaction"); sel.value = "token"; sel.dispatchEvent(new Event("change")); return true })()`)
	e2e.WaitAPI(t, host+"/host/api/settings", "interaction token", func(s struct{ Interaction string }) bool { return s.Interaction == "token" })
	p.WaitFor("token mode saved", `document.getElementById("settings-msg").textContent === "Saved."`, 10*time.Second)
	p.WaitFor("token mode shown", `document.getElementById("interaction-token").defaultSelected`, 10*time.Second)

	// Import a Universal VTT map from the page's file form: it lands in the
	// campaign, shows in the maps list, and goes on the player screen from
	// there.
	uvtt := filepath.Join(t.TempDir(), "Upload Test.uvtt")
	doc := `{"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 4, "y": 3}, "pixels_per_grid": 100},
		"line_of_sight": [], "portals": [], "lights": [], "image": "` + base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")) + `"}`
	if err := os.WriteFile(uvtt, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Do(chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{uvtt}))
	p.Eval(`document.getElementById("import-button").click()`)
	p.WaitFor("the import message", `document.getElementById("import-msg").textContent.startsWith("Imported map")`, 10*time.Second)
	withUpload := e2e.WaitAPI(t, host+"/host/api/campaign", "the imported map", func(g game) bool { return len(g.Maps) == len(before.Maps)+1 })
	var uploaded string
	for _, m := range withUpload.Maps {
		if m.ID != before.Maps[0].ID {
			uploaded = m.ID
		}
	}
	p.WaitFor("a show-on-screen button", `[...document.querySelectorAll("#maps button")].some(b => !b.disabled && b.textContent === "Show on player screen")`, 10*time.Second)
	p.Eval(`[...document.querySelectorAll("#maps button")].find(b => !b.disabled).click()`)
	e2e.WaitAPI(t, host+"/host/api/campaign", "the map on the screen", func(g game) bool { return g.Screen.MapID == uploaded })

	// An offer appears on the page; declining it there settles it.
	resp, err := http.Post(host+"/host/api/offers", "application/json", strings.NewReader(`{"url": "https://example.com/<i>pack</i>.zip"}`))
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("offer: %v %v", resp, err)
	}
	resp.Body.Close()
	p.WaitFor("the offer", `document.getElementById("offer-list").textContent.includes("https://example.com/<i>pack</i>.zip")`, 10*time.Second)
	if n := p.Eval(`document.querySelectorAll("#offer-list i").length`); n != float64(0) {
		t.Fatalf("the offer's URL was inserted as HTML: %v <i> elements", n)
	}
	p.Eval(`[...document.querySelectorAll("#offer-list button")].find(b => b.textContent === "Decline").click()`)
	e2e.WaitAPI(t, host+"/host/api/offers", "the offer declined", func(o []struct{ Status string }) bool {
		return len(o) == 1 && o[0].Status == "declined"
	})

	// A loose collection offered from the network is accepted on the page
	// with the module chosen as its destination.
	var modules []struct {
		ID string `json:"id"`
	}
	e2e.HostGetJSON(t, host+"/host/api/modules", &modules)
	if len(modules) == 0 {
		t.Fatal("the seeded module is missing")
	}
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	w, _ := zw.Create("monsters.json")
	w.Write([]byte(`[{"id": "b0000000-0000-4000-8000-0000000000b1", "name": "Browser Bat", "data": {"hit_points": 2}}]`))
	zw.Close()
	content := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(zipped.Bytes()) }))
	defer content.Close()
	resp, err = http.Post(host+"/host/api/offers", "application/json", strings.NewReader(`{"url": "`+content.URL+`/bats.zip"}`))
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("offer: %v %v", resp, err)
	}
	resp.Body.Close()
	p.WaitFor("the collection offer", `[...document.querySelectorAll("#offer-list li")].some(li => li.textContent.includes("bats.zip") && li.querySelector("select"))`, 10*time.Second)
	p.Eval(fmt.Sprintf(`(() => {
		const li = [...document.querySelectorAll("#offer-list li")].find(li => li.textContent.includes("bats.zip"));
		const select = li.querySelector("select");
		select.value = %q;
		select.dispatchEvent(new Event("change"));
		[...li.querySelectorAll("button")].find(b => b.textContent === "Accept").click();
	})()`, modules[0].ID))
	installed := e2e.WaitAPI(t, host+"/host/api/offers", "the collection installed", func(o []struct {
		URL    string
		Status string
		Error  string
		Result *struct{ Kind, ID string }
	}) bool {
		for _, x := range o {
			if strings.HasSuffix(x.URL, "bats.zip") && (x.Status == "installed" || x.Status == "failed") {
				return true
			}
		}
		return false
	})
	for _, x := range installed {
		if strings.HasSuffix(x.URL, "bats.zip") && (x.Status != "installed" || x.Result == nil || x.Result.Kind != "module" || x.Result.ID != modules[0].ID) {
			t.Fatalf("collection offer = %+v (result %+v), want installed into module %s", x, x.Result, modules[0].ID)
		}
	}
	p.WaitFor("the installed offer on the page", `document.getElementById("offer-list").textContent.includes("Installed module")`, 10*time.Second)

	// Delete the seeded module from the page.
	p.WaitFor("a module", `document.querySelectorAll("#module-list li").length > 0`, 10*time.Second)
	p.Eval(`[...document.querySelectorAll("#module-list button")].find(b => b.textContent === "Delete").click()`)
	e2e.WaitAPI(t, host+"/host/api/modules", "the module deleted", func(m []struct{ ID string }) bool { return len(m) == 0 })
	p.WaitFor("the empty module list", `!document.getElementById("modules-empty").hidden`, 10*time.Second)
}
