package routes

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/uvtt"
)

// A map made in the console, its walls drawn, leaves as a Universal VTT
// file that reads back with its walls, door and picture; an unknown map
// is a 404.
func TestMapExportsAsUniversalVTT(t *testing.T) {
	e := newConsoleEnv(t)
	var pic bytes.Buffer
	png.Encode(&pic, image.NewGray(image.Rect(0, 0, 700, 500)))
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("name", "Old Mill")
	mw.WriteField("gridSize", "70")
	fw, _ := mw.CreateFormFile("file", "mill.png")
	fw.Write(pic.Bytes())
	mw.Close()
	var m core.Map
	e.decode(t, e.call(t, "POST", "/host/api/maps", body.String(), "Content-Type", mw.FormDataContentType()), 201, &m)
	r := e.call(t, "POST", "/host/api/maps/"+m.ID+"/walls", `[{"data": [70, 70, 420, 70, 420, 350]}, {"data": [420, 350, 490, 350], "type": "door", "door": "closed"}]`)
	if r.status != 201 {
		t.Fatalf("walls: %d %s", r.status, r.body)
	}
	r = e.call(t, "GET", "/host/api/maps/"+m.ID+"/uvtt", "")
	if r.status != 200 || r.header.Get("Content-Disposition") != `attachment; filename=old-mill.dd2vtt` {
		t.Fatalf("export: %d %v", r.status, r.header)
	}
	back, err := uvtt.Parse(r.body, "old-mill.dd2vtt")
	if err != nil {
		t.Fatalf("the export does not read back: %v", err)
	}
	if !bytes.Equal(back.Image, pic.Bytes()) || back.Map.Width != 700 || back.Map.GridSize != 70 {
		t.Errorf("read back: %d-byte picture, width %d, grid %d", len(back.Image), back.Map.Width, back.Map.GridSize)
	}
	doors, walls := 0, 0
	for _, w := range back.Map.Walls {
		if w.IsDoor() {
			doors++
		} else {
			walls++
		}
	}
	if doors != 1 || walls != 1 {
		t.Errorf("read back %d walls and %d doors, want 1 and 1", walls, doors)
	}
	wantError(t, e.call(t, "GET", "/host/api/maps/no-such-map/uvtt", ""), 404, "map")
}
