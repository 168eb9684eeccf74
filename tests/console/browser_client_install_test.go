package console

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// browserWebClient is a client archive that proves, in its page title,
// what the /client/ policy lets it do: run an inline script (the
// Encounter+ client's index.html has one), run its own script file, and
// open the WebSocket. Like the Encounter+ client it is built for the
// server's root (<base href="/">): its script loads only if the server
// rebases it to /client/.
func browserWebClient(t *testing.T, version string) []byte {
	return testkit.Zip(t,
		"dist/index.html", `<!doctype html><html><head><base href="/"><title>Client `+version+`</title>
<style>body { color: rgb(1, 2, 3); }</style>
<script>window.inlineRan = true;</script></head>
<body><script src="main.js"></script></body></html>`,
		"dist/main.js", `if (window.inlineRan) document.title += " inline";
document.title += " script";
const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
ws.onopen = () => { document.title += " connected"; };`,
		"dist/meta.json", `{"name":"Browser Client","version":"`+version+`"}`,
	)
}

type clientInfoDoc struct {
	Installed bool   `json:"installed"`
	Name      string `json:"name"`
	Version   string `json:"version"`
}

// TestHostConsoleWebClientPanel installs a web client from the console's
// panel (upload, then a URL offer accepted under Import offers), checks
// that players' /client/ runs it, that a broken zip changes nothing, and
// removes it, all by clicking as the person at the device would.
func TestHostConsoleWebClientPanel(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := srv.HostURL
	dir := t.TempDir()
	good := filepath.Join(dir, "web-client.zip")
	broken := filepath.Join(dir, "broken.zip")
	os.WriteFile(good, browserWebClient(t, "1.0.0"), 0o644)
	os.WriteFile(broken, []byte("not a zip"), 0o644)

	p := e2e.NewPage(t, "console", e2e.DesktopSize)
	// Every page records what its Content-Security-Policy refused.
	p.AddInitScript(`window.cspRefused = [];
document.addEventListener("securitypolicyviolation", (e) => window.cspRefused.push(e.violatedDirective + " " + e.blockedURI));`)

	// The built-in client runs under the /client/ policy too.
	p.Navigate(srv.URL + "/client/")
	p.WaitFor("the built-in client loaded", `document.readyState === "complete"`, 20*time.Second)
	if refused := p.Eval(`window.cspRefused.join("; ")`); refused != "" {
		t.Errorf("the built-in client broke the /client/ policy: %v", refused)
	}

	p.Navigate(host + "/host/")
	p.Eval(`window.confirm = () => true`)
	p.WaitFor("the built-in client shown", `document.getElementById("webclient-current").textContent.includes("built-in")`, 20*time.Second)
	p.WaitFor("no remove button", `document.getElementById("webclient-remove").hidden`, 20*time.Second)

	p.Do(chromedp.SetUploadFiles(chromedp.CSS("#webclient-file"), []string{good}))
	p.Eval(`document.getElementById("webclient-upload").click()`)
	p.WaitFor("the install message", `document.getElementById("webclient-msg").textContent === "Installed Browser Client 1.0.0."`, 20*time.Second)
	e2e.WaitAPI(t, host+"/host/api/client", "the client installed", func(c clientInfoDoc) bool { return c.Installed && c.Version == "1.0.0" })
	p.WaitFor("the installed client shown", `document.getElementById("webclient-current").textContent.startsWith("Browser Client 1.0.0 is installed")`, 20*time.Second)

	// A broken zip: the server's explanation, the client unchanged.
	p.Do(chromedp.SetUploadFiles(chromedp.CSS("#webclient-file"), []string{broken}))
	p.Eval(`document.getElementById("webclient-upload").click()`)
	p.WaitFor("the error", `document.getElementById("webclient-msg").textContent.includes("zip archive")`, 20*time.Second)
	if c := e2e.WaitAPI(t, host+"/host/api/client", "the client", func(clientInfoDoc) bool { return true }); c.Version != "1.0.0" {
		t.Fatalf("after a broken zip: %+v", c)
	}

	// By URL: offered from the panel, accepted under Import offers (no
	// destination to choose for a client).
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(browserWebClient(t, "2.0.0"))
	}))
	defer files.Close()
	p.Eval(`document.getElementById("webclient-url").value = ` + strconv.Quote(files.URL+"/web-client.zip"))
	p.Eval(`document.getElementById("webclient-offer").click()`)
	p.WaitFor("the client offer", `[...document.querySelectorAll("#offer-list li")].some(li => li.textContent.includes("Web client from") && !li.querySelector("select"))`, 20*time.Second)
	if c := e2e.WaitAPI(t, host+"/host/api/client", "the client", func(clientInfoDoc) bool { return true }); c.Version != "1.0.0" {
		t.Fatalf("installed before the offer was accepted: %+v", c)
	}
	p.Eval(`[...[...document.querySelectorAll("#offer-list li")].find(li => li.textContent.includes("Web client from")).querySelectorAll("button")].find(b => b.textContent === "Accept").click()`)
	e2e.WaitAPI(t, host+"/host/api/client", "the offered client installed", func(c clientInfoDoc) bool { return c.Version == "2.0.0" })
	p.WaitFor("the new version shown", `document.getElementById("webclient-current").textContent.startsWith("Browser Client 2.0.0")`, 20*time.Second)

	// Players get it: its inline and own scripts run and it connects.
	p.Navigate(srv.URL + "/client/")
	p.WaitFor("the installed client running and connected", `document.title === "Client 2.0.0 inline script connected"`, 20*time.Second)
	if color := p.Eval(`getComputedStyle(document.body).color`); color != "rgb(1, 2, 3)" {
		t.Errorf("the client's inline style did not apply: %v", color)
	}
	if refused := p.Eval(`window.cspRefused.join("; ")`); refused != "" {
		t.Errorf("the installed client broke the /client/ policy: %v", refused)
	}

	// Remove it from the panel: the built-in client again.
	p.Navigate(host + "/host/")
	p.Eval(`window.confirm = () => true`)
	p.WaitFor("the remove button", `!document.getElementById("webclient-remove").hidden`, 20*time.Second)
	p.Eval(`document.getElementById("webclient-remove").click()`)
	e2e.WaitAPI(t, host+"/host/api/client", "the client removed", func(c clientInfoDoc) bool { return !c.Installed })
	p.WaitFor("the built-in client shown again", `document.getElementById("webclient-current").textContent.includes("built-in")`, 20*time.Second)
}
