package player

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"mime/multipart"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// soundVoice is one page's element, as companionDebug.sound() reports it.
type soundVoice struct {
	Playlist, URL      string
	Paused             bool
	Position, Expected float64
}

type soundReport struct {
	Blocked bool
	Samples int
	Offset  float64 // the page's estimate of the server's clock minus its own, ms
	Voices  []soundVoice
	At      float64 // this machine's clock when read (ms), shared by every page
}

func readSound(p *e2e.BrowserPage) soundReport {
	var r soundReport
	p.EvalInto(`(() => { const s = window.companionDebug.sound(); return s && {...s, at: Date.now()}; })()`, &r)
	return r
}

// uploadSound posts a WAV the test made to the host API and answers its id.
func uploadSound(t *testing.T, srv *e2e.Server, seconds float64) string {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "tone.wav")
	fw.Write(testkit.WAV(seconds, 8000))
	mw.Close()
	resp, err := http.Post(srv.HostURL+"/host/api/audio", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tr struct{ ID string }
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil || resp.StatusCode != 201 {
		t.Fatalf("upload: %d %v", resp.StatusCode, err)
	}
	return tr.ID
}

// spread is how far apart (seconds) the pages' elements stand, each
// position carried to the same instant of the machine's clock; every page
// must be playing (or all paused) the one track.
func spread(t *testing.T, pages []*e2e.BrowserPage, paused bool) float64 {
	t.Helper()
	var at []float64
	var ref float64
	for i, p := range pages {
		r := readSound(p)
		if len(r.Voices) != 1 || r.Voices[0].Paused != paused {
			t.Fatalf("page %s: %+v, want one element paused=%v", p.Name, r, paused)
		}
		pos := r.Voices[0].Position
		if !paused {
			if i == 0 {
				ref = r.At
			}
			pos -= (r.At - ref) / 1000 // where it stood at the first page's reading
		}
		at = append(at, pos)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range at {
		lo, hi = min(lo, v), max(hi, v)
	}
	return hi - lo
}

// waitPlaying waits until every page's element plays near where the
// server says (the browser has fetched the range it seeks to).
func waitPlaying(t *testing.T, pages []*e2e.BrowserPage, paused bool, near float64) {
	t.Helper()
	for _, p := range pages {
		p.WaitFor(fmt.Sprintf("the track %s near %.0f s", map[bool]string{true: "paused", false: "playing"}[paused], near), fmt.Sprintf(`(() => {
			const s = window.companionDebug.sound(); const v = s && s.voices[0];
			return !!v && v.paused === %v && Math.abs(v.position - v.expected) < 0.05 && v.position >= %f;
		})()`, paused, near), 20*time.Second)
	}
}

// TestSoundPlaysInStepOnEveryScreen is the acceptance: two player
// pages and a display play the same track; their positions, carried to one
// instant, are measured after a start, a seek, a pause and a play, and for
// a page that joins 30 s into the track. The bound asserted is generous
// (a loaded machine); the numbers measured are logged for the report.
func TestSoundPlaysInStepOnEveryScreen(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	track := uploadSound(t, srv, 90)
	r := host.Do("POST", "/host/api/playlists", `{"name":"Tavern","tracks":["`+track+`"],"loop":true}`)
	var list struct{ ID string }
	if json.Unmarshal(r.Body, &list); r.Status != 201 {
		t.Fatalf("playlist: %d %s", r.Status, r.Body)
	}
	control := func(body string) {
		t.Helper()
		if r := host.Do("POST", "/host/api/sound/"+list.ID, body); r.Status != 200 {
			t.Fatalf("%s: %d %s", body, r.Status, r.Body)
		}
	}

	a := e2e.OpenPlayerWith(t, srv, "Ada")
	// Bea's browser blocks sound until she touches the page: play() is
	// refused until the browser says the page has had a user's gesture.
	b := e2e.OpenPlayerWith(t, srv, "Bea", `(() => {
		const play = HTMLMediaElement.prototype.play;
		HTMLMediaElement.prototype.play = function () {
			if (!navigator.userActivation.hasBeenActive) return Promise.reject(new DOMException("blocked", "NotAllowedError"));
			return play.call(this);
		};
	})()`)
	display := e2e.NewPage(t, "Display", e2e.DesktopSize)
	display.Navigate(srv.URL + "/client/?display=1")
	e2e.WaitPlayerReady(t, display)
	pages := []*e2e.BrowserPage{a, b, display}
	// Five readings a quarter of a second apart: the median (what a
	// listener hears) is asserted on, generously, and both it and the
	// largest are logged.
	// A page whose audio stalls for a moment (a loaded CI machine under
	// -race starves a browser now and then) is caught up by the client: a
	// window over the bound is measured once more after the pages are in
	// step again, and both are logged; pages that never get in step fail.
	measured := map[string]string{}
	measure := func(what string, paused bool, near float64) {
		t.Helper()
		for attempt := 1; ; attempt++ {
			var got []float64
			for range 5 {
				got = append(got, spread(t, pages, paused)*1000)
				time.Sleep(250 * time.Millisecond)
			}
			slices.Sort(got)
			measured[what] += fmt.Sprintf("[median %.0f, largest %.0f]", got[2], got[4])
			if got[2] <= 500 {
				return
			}
			if attempt == 2 {
				t.Errorf("%s: the pages stand %.0f ms apart", what, got[2])
				return
			}
			waitPlaying(t, pages, paused, near)
		}
	}

	control(`{"action":"play"}`)
	b.WaitFor("the one button a blocked page shows", `(() => { const b = document.querySelector(".sound-tap"); return !!b && !b.hidden && b.getBoundingClientRect().width > 0 && b.innerText.includes("Tap to hear the table"); })()`, 15*time.Second)
	var at struct{ X, Y float64 }
	b.EvalInto(`(() => { const r = document.querySelector(".sound-tap").getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, &at)
	b.Mouse(input.DispatchMouseEventTypeMousePressed, at.X, at.Y, 1)
	b.Mouse(input.DispatchMouseEventTypeMouseReleased, at.X, at.Y, 0)
	b.WaitFor("the button gone once tapped", `document.querySelector(".sound-tap").hidden`, 5*time.Second)
	waitPlaying(t, pages, false, 0.3)
	measure("start", false, 0.3)

	control(`{"action":"seek","position":40}`)
	waitPlaying(t, pages, false, 40)
	measure("seek", false, 40)

	control(`{"action":"pause"}`)
	waitPlaying(t, pages, true, 40)
	measure("pause", true, 40)
	control(`{"action":"play"}`)
	waitPlaying(t, pages, false, 40)
	measure("play again", false, 40)

	control(`{"action":"seek","position":30}`) // a page that joins 30 s into the track
	waitPlaying(t, pages, false, 30)
	late := e2e.OpenPlayerWith(t, srv, "Late")
	pages = append(pages, late)
	waitPlaying(t, pages, false, 30)
	measure("joined 30 s in", false, 30)
	t.Logf("largest distance between the pages' positions, ms: %v", measured)
	for _, p := range pages {
		r := readSound(p)
		t.Logf("%s: clock offset %.1f ms from %d pings, position %.3f s, the server's %.3f s", p.Name, r.Offset, r.Samples, r.Voices[0].Position, r.Voices[0].Expected)
	}

	// Only the display plays when the game master says so.
	if r := host.Do("PUT", "/host/api/sound/screens", `{"screens":"displays"}`); r.Status != 200 {
		t.Fatalf("screens: %d %s", r.Status, r.Body)
	}
	a.WaitFor("a player page silent", `window.companionDebug.sound().voices.length === 0`, 10*time.Second)
	if v := readSound(display).Voices; len(v) != 1 || v[0].Paused {
		t.Fatalf("the display stopped too: %+v", v)
	}
	// The listener's level stays in the browser.
	a.EvalInto(`(() => { const i = document.querySelector(".sound-panel input[data-channel=music]"); i.value = "0.3"; i.dispatchEvent(new Event("input")); return true; })()`, nil)
	a.Navigate(srv.URL + "/client/")
	e2e.WaitPlayerReady(t, a)
	if v := a.Eval(`document.querySelector(".sound-panel input[data-channel=music]").value`); v != "0.3" {
		t.Fatalf("the music level after a reload: %v", v)
	}
}
