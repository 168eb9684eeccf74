package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// The workbench of issue 35, as a game master uses it: a map made from a
// plain picture is opened on the GM map while the demo map stays on the
// player screen; the game master draws a room on it (12 walls, a door, a
// light) and turns its line of sight on; a player sees nothing of it.
// Shown, the player's vision stops at the new walls (pixels checked); the
// door opened from the console widens it.
func TestGMPreparesAPictureMapOffScreenAndShowsIt(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	player := e2e.StartPlayer(t, srv, "Player A", e2e.DesktopSize, "")
	gm := startConsole(t, srv)

	// A plain light grey picture, 700 x 700, its grid set to 70 px cells.
	img := image.NewRGBA(image.Rect(0, 0, 700, 700))
	for i := range img.Pix {
		img.Pix[i] = 210
	}
	var pic bytes.Buffer
	png.Encode(&pic, img)
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("name", "Cellar")
	fw, _ := mw.CreateFormFile("file", "cellar.png")
	fw.Write(pic.Bytes())
	mw.Close()
	created := e2e.GmuiDo(t, srv, "POST", "/host/api/maps", &form, mw.FormDataContentType())
	var cellar struct{ ID, Image string }
	if created.Status != 201 || json.Unmarshal([]byte(created.Body), &cellar) != nil {
		t.Fatalf("the picture map: %d %s", created.Status, created.Body)
	}
	hostJSON := func(method, path, body string, want int) map[string]any {
		t.Helper()
		r := e2e.GmuiDo(t, srv, method, path, strings.NewReader(body), "application/json")
		if r.Status != want {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		var v map[string]any
		json.Unmarshal([]byte(r.Body), &v)
		return v
	}
	hostJSON("PUT", "/host/api/maps/"+cellar.ID+"/grid", `{"gridSize": 70}`, 200)
	// Ilsa stands in the room-to-be, her vision on.
	tok := hostJSON("POST", "/host/api/maps/"+cellar.ID+"/tokens", fmt.Sprintf(`{"entityId": %q, "x": 245, "y": 315}`, e2e.DemoIlsaChar), 201)
	hostJSON("PATCH", "/host/api/tokens/"+tok["id"].(string), `{"role": "friendly", "player": true, "vision": {"id": "cellar-ilsa", "enabled": true}}`, 200)
	// Quill, outside the room-to-be, west of it, carrying a light: the
	// walls will hide the room from Quill (the party vision check at the
	// end).
	const quillX, quillY = 35.0, 455.0
	quill := hostJSON("POST", "/host/api/maps/"+cellar.ID+"/tokens", fmt.Sprintf(`{"entityId": %q, "x": %g, "y": %g}`, e2e.DemoQuillChar, quillX, quillY), 201)
	hostJSON("PATCH", "/host/api/tokens/"+quill["id"].(string), `{"role": "friendly", "player": true, "vision": {"id": "cellar-quill", "enabled": true, "light": true, "lightRadiusMin": 1, "lightRadiusMax": 2}}`, 200)

	e2e.FinishPlayer(t, player)
	finishConsole(t, gm)

	// Open the cellar on the GM map: players keep the demo map, and the
	// console says so.
	gm.Eval(fmt.Sprintf(`(() => { const s = document.getElementById("gm-view-map"); s.value = %q; s.dispatchEvent(new Event("change")); })()`, cellar.ID))
	gm.WaitFor("the cellar on the GM map", fmt.Sprintf(`window.companionDebug.state().map && window.companionDebug.state().map.id === %q && window.companionDebug.state().map.backgroundLoaded`, cellar.ID), 20*time.Second)
	gm.WaitFor("the console saying what players see", `document.getElementById("gm-players-see").textContent.startsWith("Players see: ") && document.getElementById("gm-map-title").textContent.startsWith("Preparing Cellar") && !document.getElementById("gm-show").hidden`, 5*time.Second)

	// Line of sight on, then the room: 12 walls clicked corner to corner
	// (snapped to the grid), the door in the east wall, a light.
	gm.Eval(`document.querySelector("[data-tool=wall]").click()`)
	gm.WaitFor("the drawing options", `!document.getElementById("gm-draw").hidden && document.getElementById("gm-los").offsetParent !== null`, 5*time.Second)
	gm.Eval(`document.getElementById("gm-los").click()`)
	gm.WaitFor("line of sight on", `window.companionGM.store.map.lineOfSight === true`, 10*time.Second)
	gm.Idle()
	click := func(x, y float64) {
		sx, sy := gm.MapToScreen(x+3, y-4) // a little off: the snap puts it on the corner
		gmuiClick(gm, sx, sy, false)
	}
	walls := [][4]float64{
		{140, 140, 280, 140}, {280, 140, 420, 140}, {420, 140, 560, 140}, // north
		{140, 560, 280, 560}, {280, 560, 420, 560}, {420, 560, 560, 560}, // south
		{140, 140, 140, 280}, {140, 280, 140, 420}, {140, 420, 140, 560}, // west
		{560, 140, 560, 280}, {560, 420, 560, 560}, // east, around the door
		{140, 350, 210, 350}, // a stub of an inner wall
	}
	for _, w := range walls {
		click(w[0], w[1])
		click(w[2], w[3])
		gm.Key("Enter")
	}
	gm.WaitFor("12 walls", `(window.companionGM.store.map.walls || []).length === 12`, 15*time.Second)
	gm.Eval(`document.querySelector("[data-tool=door]").click()`)
	click(560, 280)
	click(560, 420)
	gm.WaitFor("the door", `(window.companionGM.store.map.walls || []).some(w => w.type === "door" && w.door === "closed")`, 10*time.Second)
	// A new light starts as a torch (4 and 8 grid units), not a floodlight.
	if got, _ := gm.Eval(`document.getElementById("gm-light-bright").value + "/" + document.getElementById("gm-light-dim").value`).(string); got != "4/8" {
		t.Errorf("the Light tool's radii start at %q, want 4/8", got)
	}
	gm.Eval(`(() => { const set = (id, v) => { const i = document.getElementById(id); i.value = v; }; set("gm-light-bright", "10"); set("gm-light-dim", "20"); })()`)
	gm.Eval(`document.querySelector("[data-tool=light]").click()`)
	click(350, 350)
	gm.WaitFor("the light", `(window.companionGM.store.map.lights || []).length === 1`, 10*time.Second)
	var stored []map[string]any
	if r := e2e.GmuiDo(t, srv, "GET", "/host/api/maps/"+cellar.ID+"/walls", nil, ""); r.Status != 200 || json.Unmarshal([]byte(r.Body), &stored) != nil || len(stored) != 13 {
		t.Fatalf("the walls stored: %d %s", r.Status, r.Body)
	}
	for _, w := range stored {
		for _, v := range w["data"].([]any) {
			if int(v.(float64))%70 != 0 {
				t.Fatalf("a wall off the grid: %v", w)
			}
		}
	}
	// Undo takes the light away, redo brings it back. (The light is drawn
	// from the broadcast, which may come before the POST's answer that
	// records the edit for undo.)
	gm.WaitFor("undo ready", `!document.getElementById("gm-undo").disabled`, 10*time.Second)
	gm.Eval(`document.getElementById("gm-undo").click()`)
	gm.WaitFor("the light undone", `(window.companionGM.store.map.lights || []).length === 0`, 10*time.Second)
	gm.WaitFor("redo ready", `!document.getElementById("gm-redo").disabled`, 10*time.Second)
	gm.Eval(`document.getElementById("gm-redo").click()`)
	gm.WaitFor("the light redone", `(window.companionGM.store.map.lights || []).length === 1`, 10*time.Second)
	// An ambient sound of the audio library, placed with the Sound tool
	// and drawn on the GM map (a dot where it plays, a ring at its reach).
	var wavBody bytes.Buffer
	wmw := multipart.NewWriter(&wavBody)
	wfw, _ := wmw.CreateFormFile("file", "Cellar drips.wav")
	wfw.Write(testkit.WAV(2, 8000))
	wmw.Close()
	if r := e2e.GmuiDo(t, srv, "POST", "/host/api/audio", &wavBody, wmw.FormDataContentType()); r.Status != 201 {
		t.Fatalf("POST /host/api/audio: %d %s", r.Status, r.Body)
	}
	gm.Eval(`document.querySelector("[data-tool=sound]").click()`)
	gm.WaitFor("the library in the Sound tool", `document.getElementById("gm-sound-file").options.length === 1`, 10*time.Second)
	gm.Eval(`document.getElementById("gm-sound-radius").value = "2"`)
	soundX, soundY := 420.0, 490.0
	sx, sy := gm.MapToScreen(soundX, soundY)
	gmuiClick(gm, sx, sy, false)
	gm.WaitFor("the sound placed", `(window.companionGM.store.map.sounds || []).some(o => o.radius === 2 && /^\/campaigns\/[^/]+\/audio\//.test(o.url))`, 10*time.Second)
	gm.Idle()
	withSound := e2e.SaveScreenshot(t, gm, "workbench-sound")
	if c, ok := e2e.Pixel(withSound, sx, sy); !ok || c.B < 60 || c.R > 60 {
		t.Errorf("the GM map at the sound's place is %v: no sound mark drawn", c)
	}
	// A room note: a marker, hidden as markers are unless they say not.
	// The GM map draws it, faded; players never receive it.
	hostJSON("POST", "/host/api/maps/"+cellar.ID+"/markers", `{"id": "cellar-note", "name": "SECRET-CELLAR-NOTE", "x": 490, "y": 260, "color": "#ff0000", "size": "huge", "label": ""}`, 201)
	gm.WaitFor("the hidden marker on the GM map", `(window.companionGM.store.map.markers || []).some(m => m.id === "cellar-note")`, 10*time.Second)
	gm.Eval(`document.querySelector("[data-tool=move]").click()`)
	gm.Idle()
	prepared := e2e.SaveScreenshot(t, gm, "workbench-prepared")
	redness := func(p *e2e.BrowserPage, shot image.Image, x, y float64) int {
		t.Helper()
		sx, sy := p.MapToScreen(x, y)
		c, ok := e2e.Pixel(shot, sx, sy)
		if !ok {
			t.Fatalf("map point (%g, %g) is off the page %s", x, y, p.Name)
		}
		return int(c.R) - int(c.G)
	}
	const noteX, noteY = 490.0, 260.0 - 50 // the pin's head, above its point
	if r := redness(gm, prepared, noteX, noteY); r < 60 || r > 200 {
		t.Fatalf("the hidden marker on the GM map: red minus green %d, want it drawn faded (60 to 200)", r)
	}

	// The player saw none of it: still the demo map, no frame naming the cellar.
	player.Idle()
	if s := player.State(); s.Map == nil || s.Map.ID != e2e.DemoMapID {
		t.Fatalf("the player's map while the cellar is prepared: %+v", s.Map)
	}
	for _, f := range player.ReceivedFrames() {
		if strings.Contains(f, cellar.ID) || strings.Contains(f, "cellar-ilsa") {
			t.Fatalf("the player received something of the staged map: %.300s", f)
		}
	}

	// Nor can it fetch the staged map's picture, whose name the game master's
	// pages know.
	picture := func() int {
		t.Helper()
		resp, err := http.Get(srv.URL + cellar.Image)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if cellar.Image == "" || picture() != 404 {
		t.Fatalf("the staged map's picture %q reaches players", cellar.Image)
	}

	// Show to players.
	gm.Eval(`document.getElementById("gm-show").click()`)
	player.WaitFor("the cellar on the player's page", fmt.Sprintf(`(() => { const s = window.companionDebug.state(); return s.map && s.map.id === %q && s.map.backgroundLoaded; })()`, cellar.ID), 20*time.Second)
	if got := picture(); got != 200 {
		t.Fatalf("the shown map's picture: %d", got)
	}
	gm.WaitFor("the console following the screen", `document.getElementById("gm-show").hidden && document.getElementById("gm-map-title").textContent.includes("on the player screen")`, 10*time.Second)
	const insideX, insideY = 455.0, 455.0   // in the room
	const behindX, behindY = 630.0, 210.0   // outside, behind the east wall
	const throughX, throughY = 630.0, 350.0 // outside, in line with the door
	player.WaitFor("Ilsa's sight", `window.companionDebug.isVisibleAt(455, 455)`, 10*time.Second)
	if player.VisibleAt(behindX, behindY) || player.VisibleAt(throughX, throughY) {
		t.Fatal("the player sees through the drawn walls")
	}
	player.Idle()
	lum := func(shot image.Image, x, y float64) float64 {
		sx, sy := player.MapToScreen(x, y)
		c, ok := e2e.Pixel(shot, sx, sy)
		if !ok {
			t.Fatalf("map point (%g, %g) is off the player's screen", x, y)
		}
		return e2e.Luminance(c)
	}
	closed := e2e.SaveScreenshot(t, player, "workbench-player-door-closed")
	in, behind, through := lum(closed, insideX, insideY), lum(closed, behindX, behindY), lum(closed, throughX, throughY)
	if !(in > behind+40 && in > through+40) {
		t.Fatalf("the player's vision does not stop at the walls: inside %.0f, behind the wall %.0f, beyond the closed door %.0f", in, behind, through)
	}

	// The door, opened from the console (a click on it): the view widens.
	gm.Idle()
	dx, dy := gm.MapToScreen(560, 350)
	gmuiClick(gm, dx, dy, false)
	player.WaitFor("the view through the open door", fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g)`, throughX, throughY), 10*time.Second)
	player.Idle()
	open := e2e.SaveScreenshot(t, player, "workbench-player-door-open")
	if r := redness(player, open, noteX, noteY); r > 20 {
		t.Fatalf("the player's page draws the hidden marker: red minus green %d", r)
	}
	for _, f := range player.ReceivedFrames() {
		if strings.Contains(f, "cellar-note") || strings.Contains(f, "SECRET") {
			t.Fatalf("the player received the hidden marker: %.300s", f)
		}
	}
	if now := lum(open, throughX, throughY); !(now > through+40) {
		t.Fatalf("beyond the door: %.0f closed, %.0f open: the view did not widen", through, now)
	}
	if now := lum(open, behindX, behindY); now > behind+20 {
		t.Fatalf("behind the wall: %.0f, then %.0f with the door open: the wall stopped holding", behind, now)
	}

	// Party vision. Quill stands outside, west of the room, and the player
	// takes Quill's seat: with shared vision the page sees the room
	// through Ilsa; once the game master chooses "each seat's own" on the
	// GM map, only through Quill, and the room goes dark.
	var clients []struct {
		Channel int
		Name    string
	}
	if r := e2e.GmuiDo(t, srv, "GET", "/host/api/clients", nil, ""); json.Unmarshal([]byte(r.Body), &clients) != nil {
		t.Fatalf("clients: %d %s", r.Status, r.Body)
	}
	for _, c := range clients {
		if c.Name == "Player A" {
			hostJSON("POST", "/host/api/seats/"+e2e.DemoQuillChar+"/assign", fmt.Sprintf(`{"channel": %d, "player": "Player A"}`, c.Channel), 200)
		}
	}
	player.WaitFor("Quill's seat with its token", fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g) && window.companionDebug.isVisibleAt(%g, %g)`, quillX, quillY, insideX, insideY), 15*time.Second)
	gm.Eval(`(() => { const s = document.getElementById("gm-shared-vision"); s.value = "never"; s.dispatchEvent(new Event("change")); })()`)
	player.WaitFor("the seat's own sight only", fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g) && !window.companionDebug.isVisibleAt(%g, %g)`, quillX, quillY, insideX, insideY), 15*time.Second)
	player.Idle()
	own := e2e.SaveScreenshot(t, player, "workbench-player-own-vision")
	if now, was := lum(own, insideX, insideY), lum(open, insideX, insideY); !(now < was-40) {
		t.Fatalf("inside the room: %.0f with shared vision, %.0f with each seat's own: the room did not go dark", was, now)
	}
	gm.WaitFor("the GM map showing the choice", `document.getElementById("gm-shared-vision").value === "never"`, 5*time.Second)
	gm.Eval(`(() => { const s = document.getElementById("gm-shared-vision"); s.value = "always"; s.dispatchEvent(new Event("change")); })()`)
	player.WaitFor("the party's sight again", fmt.Sprintf(`window.companionDebug.isVisibleAt(%g, %g)`, insideX, insideY), 15*time.Second)
}
