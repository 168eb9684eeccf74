package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"mime/multipart"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// TestGMMovesAndSplitsAWall: on a plain picture map (70 px cells) opened
// on the GM map, the game master drags a wall's end with the Wall tool:
// the end snaps to the grid, the stored wall (host API) has it, and the GM
// map draws the wall along its new line, not its old one (pixels). Undo
// puts it back; a Shift+click on the wall splits it there.
func TestGMMovesAndSplitsAWall(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	gm := startConsole(t, srv)

	img := image.NewRGBA(image.Rect(0, 0, 700, 700))
	for i := range img.Pix {
		img.Pix[i] = 210
	}
	var pic, form bytes.Buffer
	png.Encode(&pic, img)
	mw := multipart.NewWriter(&form)
	mw.WriteField("name", "Workshop")
	fw, _ := mw.CreateFormFile("file", "workshop.png")
	fw.Write(pic.Bytes())
	mw.Close()
	created := e2e.GmuiDo(t, srv, "POST", "/host/api/maps", &form, mw.FormDataContentType())
	var shop struct{ ID string }
	if created.Status != 201 || json.Unmarshal([]byte(created.Body), &shop) != nil {
		t.Fatalf("the picture map: %d %s", created.Status, created.Body)
	}
	host := func(method, path, body string, want int) string {
		t.Helper()
		r := e2e.GmuiDo(t, srv, method, path, strings.NewReader(body), "application/json")
		if r.Status != want {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		return r.Body
	}
	host("PUT", "/host/api/maps/"+shop.ID+"/grid", `{"gridSize": 70}`, 200)
	var wall struct{ ID string }
	json.Unmarshal([]byte(host("POST", "/host/api/maps/"+shop.ID+"/walls", `{"data": [140, 140, 420, 140]}`, 201)), &wall)
	stored := func() []float64 {
		t.Helper()
		var list []struct {
			ID   string
			Data []float64
		}
		json.Unmarshal([]byte(host("GET", "/host/api/maps/"+shop.ID+"/walls", "", 200)), &list)
		for _, w := range list {
			if w.ID == wall.ID {
				return w.Data
			}
		}
		t.Fatalf("the wall is gone: %+v", list)
		return nil
	}

	finishConsole(t, gm)
	gm.Eval(fmt.Sprintf(`(() => { const s = document.getElementById("gm-view-map"); s.value = %q; s.dispatchEvent(new Event("change")); })()`, shop.ID))
	gm.WaitFor("the workshop on the GM map", fmt.Sprintf(`window.companionDebug.state().map && window.companionDebug.state().map.id === %q && window.companionDebug.state().map.backgroundLoaded && (window.companionGM.store.map.walls || []).length === 1`, shop.ID), 20*time.Second)
	gm.Eval(`document.querySelector("[data-tool=wall]").click()`)
	gm.Idle()

	// How far a map point's neighbourhood is from the picture's grey: a
	// wall drawn through it shows.
	ink := func(shot image.Image, x, y float64) int {
		sx, sy := gm.MapToScreen(x, y)
		most := 0
		for dy := -3.0; dy <= 3; dy++ {
			for dx := -3.0; dx <= 3; dx++ {
				if c, ok := e2e.Pixel(shot, sx+dx, sy+dy); ok {
					grey := c
					grey.R, grey.G, grey.B = 210, 210, 210
					most = max(most, e2e.ColourDistance(c, grey))
				}
			}
		}
		return most
	}
	before := e2e.SaveScreenshot(t, gm, "wall-before")
	if ink(before, 350, 140) < 60 || ink(before, 490, 210) > 30 {
		t.Fatalf("before the move: the old line shows %d, the new place %d", ink(before, 350, 140), ink(before, 490, 210))
	}

	// Drag the east end from (420, 140) to near (490, 210): it snaps to the
	// grid corner.
	x0, y0 := gm.MapToScreen(420, 140)
	x1, y1 := gm.MapToScreen(494, 205)
	e2e.GmuiDrag(gm, x0, y0, x1, y1)
	gm.WaitFor("the moved wall", `(() => { const w = window.companionGM.store.map.walls[0]; return w && w.data[2] === 490 && w.data[3] === 210; })()`, 10*time.Second)
	if got := stored(); !reflect.DeepEqual(got, []float64{140, 140, 490, 210}) {
		t.Fatalf("the stored wall after the move: %v", got)
	}
	gm.Idle()
	after := e2e.SaveScreenshot(t, gm, "wall-after")
	if ink(after, 400, 140) > 30 || ink(after, 315, 175) < 60 || ink(after, 490, 210) < 60 {
		t.Fatalf("after the move: the old line %d, the new line's middle %d, its end %d", ink(after, 400, 140), ink(after, 315, 175), ink(after, 490, 210))
	}

	// Undo puts the end back; a Shift+click splits the wall at (280, 140).
	gm.WaitFor("undo ready", `!document.getElementById("gm-undo").disabled`, 10*time.Second)
	gm.Eval(`document.getElementById("gm-undo").click()`)
	gm.WaitFor("the move undone", `window.companionGM.store.map.walls[0].data[2] === 420`, 10*time.Second)
	if got := stored(); !reflect.DeepEqual(got, []float64{140, 140, 420, 140}) {
		t.Fatalf("the stored wall after undo: %v", got)
	}
	sx, sy := gm.MapToScreen(281, 141)
	gmuiClick(gm, sx, sy, true)
	gm.WaitFor("the split wall", `window.companionGM.store.map.walls[0].data.length === 6`, 10*time.Second)
	if got := stored(); !reflect.DeepEqual(got, []float64{140, 140, 281, 140, 420, 140}) {
		t.Fatalf("the stored wall after the split: %v", got)
	}
}
