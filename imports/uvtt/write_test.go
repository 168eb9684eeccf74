package uvtt

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/vttapp/companion/core"
)

// A map written as Universal VTT and read back: walls, doors, windows,
// lights, daylight and the picture survive (an open door comes back a
// window: the format has open portals, not open doors), and walls the
// format cannot say are left out.
func TestUVTTExportReadsBack(t *testing.T) {
	var pic bytes.Buffer
	png.Encode(&pic, image.NewGray(image.Rect(0, 0, 10, 8)))
	m := &core.Map{ID: "m1", Name: "Crypt", GridSize: 100, Width: 1000, Height: 800, LosDaylight: 0.5,
		Walls: []core.Wall{
			{ID: "w1", Data: []float64{100, 100, 500, 100, 500, 400}, Type: core.WallNormal},
			{ID: "d1", Data: []float64{500, 400, 500, 500}, Type: core.WallDoor, Door: core.DoorClosed},
			{ID: "d2", Data: []float64{600, 400, 700, 400}, Type: core.WallDoor, Door: core.DoorOpen},
			{ID: "d3", Data: []float64{200, 600, 300, 600}, Type: core.WallSecretDoor, Door: core.DoorLocked},
			{ID: "g1", Data: []float64{800, 100, 800, 300}, Type: core.WallWindow},
			{ID: "i1", Data: []float64{50, 50, 60, 60}, Type: core.WallInvisible},
		},
		Lights: []core.Light{{ID: "l1", Enabled: true, RadiusMin: 10, RadiusMax: 20, Color: "#FFAA00", Opacity: 0.8, X: 250, Y: 350}},
	}
	var out bytes.Buffer
	if err := Write(&out, m, bytes.NewReader(pic.Bytes())); err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out.Bytes(), "crypt.dd2vtt")
	if err != nil {
		t.Fatalf("%v\n%.400s", err, out.String())
	}
	got := back.Map
	if got.Width != 1000 || got.Height != 800 || got.GridSize != 100 || got.LosDaylight != 0.5 {
		t.Fatalf("size %dx%d grid %d daylight %v", got.Width, got.Height, got.GridSize, got.LosDaylight)
	}
	if !bytes.Equal(back.Image, pic.Bytes()) || back.ImageExt != ".png" {
		t.Errorf("the picture came back as %d bytes (%s), want %d", len(back.Image), back.ImageExt, pic.Len())
	}
	kinds := map[string]int{}
	for _, w := range got.Walls {
		kinds[w.Type+"/"+w.Door]++
		if w.Type == core.WallNormal && len(w.Data) != 6 {
			t.Errorf("the polyline came back as %v", w.Data)
		}
	}
	want := map[string]int{core.WallNormal + "/": 1, core.WallDoor + "/" + core.DoorClosed: 2, core.WallWindow + "/": 2}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("walls read back: %v, want %v", kinds, want)
			break
		}
	}
	if len(got.Walls) != 5 {
		t.Errorf("%d walls read back, want 5 (the invisible one left out)", len(got.Walls))
	}
	if len(got.Lights) != 1 {
		t.Fatalf("lights %v", got.Lights)
	}
	if l := got.Lights[0]; l.RadiusMax != 20 || l.Color != "#ffaa00" || l.X != 250 || l.Y != 350 || l.Opacity != 0.8 {
		t.Errorf("light read back %+v", l)
	}
}
