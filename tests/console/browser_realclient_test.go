package console

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// installRealClient starts a server with the public Encounter+ web client
// installed as a user installs it (a zip of its folder, `companion client
// install`) and opens its page at a desktop size.
func installRealClient(t *testing.T) (*e2e.Server, *e2e.BrowserPage) {
	t.Helper()
	dir := realClientDir(t)
	s := e2e.StartServer(t, e2e.ServerOptions{})
	if code, out, errOut := e2e.ImportRun(t, "client", "install", "--host-addr", strings.TrimPrefix(s.HostURL, "http://"), zipFolder(t, dir)); code != 0 {
		t.Fatalf("client install: %d %s %s", code, out, errOut)
	}
	p := e2e.NewPage(t, "real client", e2e.ViewportSize{Width: 1400, Height: 1000, Mobile: false})
	p.Navigate(s.URL + "/client/")
	return s, p
}

// turnOrange counts the pixels of the real client's turn highlight on the
// map (it draws the acting creature's token in #ff9500), left of the
// initiative list on the right, which marks the acting row in the same
// colour and is not what is tested.
func turnOrange(t *testing.T, p *e2e.BrowserPage) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(p.Screenshot()))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y + 60; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Min.X+1200; x += 2 {
			c, _ := e2e.Pixel(img, float64(x), float64(y))
			if c.R > 225 && c.G > 120 && c.G < 175 && c.B < 50 {
				n++
			}
		}
	}
	return n
}

// waitOrange waits until the turn highlight shows (want) or not.
func waitOrange(t *testing.T, p *e2e.BrowserPage, what string, want bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		n := turnOrange(t, p)
		if (n > 20) == want {
			return
		}
		if time.Now().After(deadline) {
			e2e.SaveScreenshot(t, p, "highlight")
			t.Fatalf("%s: %d highlight pixels, want the highlight shown=%v\n%s", what, n, want, p.ProblemText())
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// The real client marks the acting creature's token and keeps the mark
// when the turn passes: a turn change must not resend the creatures list,
// which makes it rebuild its token views after marking (core.GameTurn).
func TestRealClientKeepsTheTurnHighlight(t *testing.T) {
	s, p := installRealClient(t)
	// The demo's fight is on: Ilsa (a party token, in the light) acts.
	waitOrange(t, p, "Ilsa's turn at load", true)
	// Next twice: the Cinder Hound (in the dark sanctum), then Quill.
	for i := 0; i < 2; i++ {
		if r := e2e.GmuiDo(t, s, "POST", "/host/api/game/next", nil, ""); r.Status != 200 {
			t.Fatalf("next: %d %s", r.Status, r.Body)
		}
	}
	time.Sleep(2 * time.Second) // the client's asynchronous redraw, had it been asked for one
	waitOrange(t, p, "Quill's turn after Next", true)
	e2e.SaveScreenshot(t, p, "quill-acts")
}

// A token tap in the real client frames the entity page at the fixed
// http://localhost:8080 (where the application it was written for serves
// it); /client/'s policy must let that frame load, and the server answers
// the page at the two-segment path the client asks for.
func TestRealClientMayFrameEntityPages(t *testing.T) {
	s, p := installRealClient(t)
	p.WaitFor("the client's page", `document.readyState === "complete"`, 15*time.Second)
	var blocked string
	p.EvalInto(`new Promise((done) => {
		let seen = "";
		document.addEventListener("securitypolicyviolation", (e) => { seen = e.violatedDirective + " " + e.blockedURI; });
		const f = document.createElement("iframe");
		f.src = "http://localhost:8080/monster/cinder-hound";
		document.body.append(f);
		setTimeout(() => done(seen), 1500);
	})`, &blocked)
	if blocked != "" {
		t.Fatalf("the client's policy blocks its entity frame: %s", blocked)
	}
	status, body := testkit.Do(t, "GET", s.URL+"/monster/cinder-hound", "", nil)
	if status != 200 || !strings.Contains(string(body), "<h1>Cinder Hound</h1>") {
		t.Fatalf("GET /monster/cinder-hound: %d %.200s", status, body)
	}
}
