package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/vttapp/companion/internal/testkit"
)

func HostGetJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// WaitAPI polls a host API document until ok accepts it (10 s at most).
func WaitAPI[T any](t *testing.T, url, what string, ok func(T) bool) T {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var v T
		HostGetJSON(t, url, &v)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: last %+v", what, v)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type gmuiResponse struct {
	Status int
	Body   string
}

func GmuiDo(t *testing.T, srv *Server, method, path string, body io.Reader, contentType string) gmuiResponse {
	t.Helper()
	status, raw := testkit.Do(t, method, srv.HostURL+path, contentType, body)
	return gmuiResponse{status, string(raw)}
}

// GmuiDrag presses at (x0, y0), moves in steps to (x1, y1) and releases.
func GmuiDrag(p *BrowserPage, x0, y0, x1, y1 float64) {
	p.Mouse(input.DispatchMouseEventTypeMouseMoved, x0, y0, 0)
	p.Mouse(input.DispatchMouseEventTypeMousePressed, x0, y0, 1)
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		p.Mouse(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, 1)
		time.Sleep(20 * time.Millisecond)
	}
	p.Mouse(input.DispatchMouseEventTypeMouseReleased, x1, y1, 0)
}

// OpenConsoleTab clicks one of the console's header tabs (library, maps,
// screen, messages, seats, content, settings), as a person would, and waits
// for the drawer to show it.
func (p *BrowserPage) OpenConsoleTab(name string) {
	p.T.Helper()
	p.WaitFor("the "+name+" tab", `!!document.querySelector('#tabs [data-tab="`+name+`"]')`, 10*time.Second)
	if p.Eval(`document.getElementById("drawer").dataset.tab === "`+name+`"`) == true {
		return
	}
	p.ClickElement("the "+name+" tab", `document.querySelector('#tabs [data-tab="`+name+`"]')`)
	p.WaitFor("the "+name+" tab open", `document.getElementById("drawer").dataset.tab === "`+name+`"`, 5*time.Second)
}

// StartConsole opens the host console (its GM map) and returns while it
// loads; FinishConsole waits for it.
func StartConsole(t *testing.T, srv *Server) *BrowserPage {
	t.Helper()
	p := NewPage(t, "console", ViewportSize{Width: 1400, Height: 1000, Mobile: false})
	p.NavigateAsync(srv.HostURL + "/host/")
	return p
}

// FinishConsole waits until the console's GM map is drawn and its socket
// open, and accepts its confirmations.
func FinishConsole(t *testing.T, p *BrowserPage) {
	t.Helper()
	// The page's load (30 s with navigate) and the GM map (20 s) together.
	if !p.Poll(`window.companionGM && window.companionGM.socketState() === "open" && window.companionDebug.state().map && window.companionDebug.state().map.backgroundLoaded`, 50*time.Second) {
		var st any
		_ = p.EvalErr(`JSON.stringify({gm: !!window.companionGM, dbg: window.companionDebug ? window.companionDebug.state() : null, msg: (document.getElementById("gm-msg")||{}).textContent})`, &st)
		t.Fatalf("the GM map did not start: %v\n%v", st, p.ConsoleProblems())
	}
	p.WaitFor("the GM map", `window.companionGM && window.companionDebug && (() => {
		const s = window.companionDebug.state();
		return s.map && s.map.backgroundLoaded && s.frames > 0 && window.companionGM.socketState() === "open";
	})()`, 30*time.Second)
	p.Eval(`window.confirm = () => true`)
	p.Idle()
}
