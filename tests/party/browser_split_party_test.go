package party

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// splitColour is the plain colour of map B's picture: no demo map has it.
var splitColour = color.RGBA{R: 200, G: 30, B: 170, A: 255}

func plainPNG(t *testing.T, side int, c color.RGBA) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	for y := range side {
		for x := range side {
			img.SetRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// splitPixels counts the sampled pixels of a screenshot close to
// splitColour.
func splitPixels(shot image.Image) (near, sampled int) {
	r := shot.Bounds()
	for y := r.Min.Y + 20; y < r.Max.Y-20; y += 37 {
		for x := r.Min.X + 20; x < r.Max.X-20; x += 41 {
			sampled++
			if c, ok := e2e.Pixel(shot, float64(x), float64(y)); ok && e2e.ColourDistance(c, splitColour) < 60 {
				near++
			}
		}
	}
	return near, sampled
}

// TestSplitPartyEachPlayerSeesTheirOwnMap: two seated players; the game
// master puts Ilsa's seat on map B (a plain magenta picture with Ilsa's
// token on it) while the demo map stays on the player screen. Bea, who
// plays Ilsa, sees map B and her token there, live and after a reload;
// Ann, who plays Brannoc, keeps the demo map and its tokens. A token moved
// on B reaches Bea's page and not one frame of Ann's names it or map B.
func TestSplitPartyEachPlayerSeesTheirOwnMap(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	mapB, _, _ := e2e.ShownPictureMap(t, srv, "Magenta cellar", plainPNG(t, 600, splitColour), 100)
	if r := host.Do("POST", "/host/api/screen", `{"mapId":"`+e2e.DemoMapID+`"}`); r.Status != 200 {
		t.Fatalf("the demo map back on the screen: %d %s", r.Status, r.Body)
	}
	r := host.Do("POST", "/host/api/maps/"+mapB+"/tokens", `{"entityId":"`+e2e.DemoIlsaChar+`","x":300,"y":300}`)
	if r.Status != 201 {
		t.Fatalf("placing Ilsa on map B: %d %s", r.Status, r.Body)
	}
	var tokB struct{ ID string }
	json.Unmarshal(r.Body, &tokB)

	ann := e2e.StartPlayer(t, srv, "Ann", e2e.DesktopSize, "")
	bea := e2e.StartPlayer(t, srv, "Bea", e2e.DesktopSize, "")
	e2e.FinishPlayer(t, ann)
	e2e.FinishPlayer(t, bea)
	var clients []struct {
		Channel int
		Name    string
	}
	host.Get("/host/api/clients", &clients)
	for _, c := range clients {
		seat := map[string]string{"Ann": e2e.DemoBrannocChar, "Bea": e2e.DemoIlsaChar}[c.Name]
		if seat == "" {
			continue
		}
		if r := host.Do("POST", "/host/api/seats/"+seat+"/assign", fmt.Sprintf(`{"channel": %d, "player": %q}`, c.Channel, c.Name)); r.Status != 200 {
			t.Fatalf("giving %s a seat: %d %s", c.Name, r.Status, r.Body)
		}
	}
	for _, p := range []*e2e.BrowserPage{ann, bea} {
		p.WaitFor("the seat token kept", `!!localStorage.getItem("companion.seatToken")`, 15*time.Second)
	}
	annBefore := len(ann.ReceivedFrames())

	if r := host.Do("PUT", "/host/api/seats/"+e2e.DemoIlsaChar+"/map", `{"mapId":"`+mapB+`"}`); r.Status != 200 || !strings.Contains(string(r.Body), `"mapId":"`+mapB+`"`) {
		t.Fatalf("putting Ilsa's seat on map B: %d %s", r.Status, r.Body)
	}
	bea.WaitFor("map B on Bea's page", fmt.Sprintf(`(() => { const s = window.companionDebug.state(); return s.map && s.map.id === %q && s.map.backgroundLoaded; })()`, mapB), 15*time.Second)

	check := func(when string) {
		t.Helper()
		ann.Idle()
		bea.Idle()
		a, b := ann.State(), bea.State()
		if a.Map == nil || a.Map.ID != e2e.DemoMapID || a.Token(e2e.DemoBrannocID) == nil || a.Token(tokB.ID) != nil {
			t.Fatalf("%s: Ann's page is not the demo map with its tokens alone: %+v", when, a.Map)
		}
		if b.Map == nil || b.Map.ID != mapB || b.Token(tokB.ID) == nil || b.Token(e2e.DemoBrannocID) != nil || len(b.Tokens) != 1 {
			t.Fatalf("%s: Bea's page is not map B with her token alone: %+v, %d tokens", when, b.Map, len(b.Tokens))
		}
		nearB, sampled := splitPixels(e2e.SaveScreenshot(t, bea, "bea-"+when))
		nearA, _ := splitPixels(e2e.SaveScreenshot(t, ann, "ann-"+when))
		if nearB < sampled/4 || nearA > 0 {
			t.Fatalf("%s: map B's colour on %d of %d pixels of Bea's page, %d of Ann's", when, nearB, sampled, nearA)
		}
	}
	check("split")

	// A move on B reaches Bea alone.
	if r := host.Do("PATCH", "/host/api/tokens/"+tokB.ID, `{"x": 450, "y": 250}`); r.Status != 200 {
		t.Fatalf("moving Ilsa on B: %d %s", r.Status, r.Body)
	}
	bea.WaitFor("the move on B", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q); return t && t.x === 450; })()`, tokB.ID), 10*time.Second)
	// A move on the demo map after it, which Ann does see: once it shows,
	// every frame before it has arrived.
	if r := host.Do("PATCH", "/host/api/tokens/"+e2e.DemoQuillID, `{"x": 385, "y": 455}`); r.Status != 200 {
		t.Fatalf("moving Quill: %d %s", r.Status, r.Body)
	}
	ann.WaitFor("the move on the demo map", fmt.Sprintf(`(() => { const t = window.companionDebug.state().tokens.find(t => t.id === %q); return t && t.x === 385; })()`, e2e.DemoQuillID), 10*time.Second)
	for _, f := range ann.ReceivedFrames()[annBefore:] {
		if strings.Contains(f, tokB.ID) || strings.Contains(f, mapB) {
			t.Fatalf("Ann's page received a frame of map B: %.300s", f)
		}
	}
	for _, f := range bea.ReceivedFrames() {
		if strings.Contains(f, e2e.DemoQuillID) && strings.Contains(f, "tokenUpdated") {
			t.Fatalf("Bea's page on map B received a token of the demo map: %.300s", f)
		}
	}

	// A reload reads the seat's map from GET /api.
	bea.Navigate(srv.URL + "/client/")
	e2e.WaitPlayerReady(t, bea)
	check("reloaded")

	// The console's seats card says who is where, and moves Ilsa back to
	// the screen's map: Bea's page follows.
	gm := e2e.StartConsole(t, srv)
	e2e.FinishConsole(t, gm)
	gm.OpenConsoleTab("seats")
	seatMap := func(char string) string {
		return fmt.Sprintf(`document.querySelector('tr[data-seat=%q] select.seat-map')`, char)
	}
	gm.WaitFor("each seat's map in the seats card", fmt.Sprintf(`(() => { const i = %s, b = %s; return i && i.value === %q && i.selectedOptions[0].textContent === "Magenta cellar" && b && b.value === "" && b.selectedOptions[0].textContent.startsWith("The screen map"); })()`,
		seatMap(e2e.DemoIlsaChar), seatMap(e2e.DemoBrannocChar), mapB), 15*time.Second)
	// Ilsa's "Other tokens…" are those of her map (B: Brannoc, placed
	// there now), not the screen map's (Quill and the rest of the demo map).
	if r := host.Do("POST", "/host/api/maps/"+mapB+"/tokens", `{"entityId":"`+e2e.DemoBrannocChar+`","x":420,"y":420}`); r.Status != 201 {
		t.Fatalf("placing Brannoc on map B: %d %s", r.Status, r.Body)
	}
	ilsaRow := fmt.Sprintf(`document.querySelector('tr[data-seat=%q]')`, e2e.DemoIlsaChar)
	gm.Eval(fmt.Sprintf(`(() => { const d = %s.querySelector("details"); d.open = true; return true; })()`, ilsaRow))
	gm.WaitFor("Ilsa's other tokens from map B", fmt.Sprintf(`(() => { const t = %s.querySelector(".seat-controls")?.innerText ?? ""; return t.includes("Brannoc"); })()`, ilsaRow), 15*time.Second)
	if text, _ := gm.Eval(fmt.Sprintf(`%s.querySelector(".seat-controls").innerText`, ilsaRow)).(string); strings.Contains(text, "Quill") {
		t.Fatalf("Ilsa's seat on map B offers the screen map's tokens: %q", text)
	}
	gm.Eval(fmt.Sprintf(`(() => { const s = %s; s.value = ""; s.dispatchEvent(new Event("change")); })()`, seatMap(e2e.DemoIlsaChar)))
	bea.WaitFor("the demo map back on Bea's page", fmt.Sprintf(`(() => { const s = window.companionDebug.state(); return s.map && s.map.id === %q && s.map.backgroundLoaded; })()`, e2e.DemoMapID), 15*time.Second)
	var seats []struct{ ID, MapID string }
	host.Get("/host/api/seats", &seats)
	for _, s := range seats {
		if s.MapID != "" {
			t.Fatalf("a seat is still on a map of its own: %+v", s)
		}
	}
}
