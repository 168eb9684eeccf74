package lanternlight_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

// The demo map, the Ropewalk Quay, is drawn by code: harbour water, the
// stone quay, a warehouse, a jetty and the lighthouse, 20 by 14 cells of
// 70 pixels (the grid is the server's to draw). LANTERNLIGHT_WRITE_MAP=1
// go test ./examples/lanternlight -run TestDemoMap writes it again.

const (
	mapCell   = 70
	mapWidth  = 20 * mapCell
	mapHeight = 14 * mapCell
	mapFile   = "sample/campaign/maps/ropewalk-quay.png"
)

// noise is a small deterministic hash: the same texture on every run.
func noise(x, y int) int {
	h := uint32(x)*374761393 + uint32(y)*668265263
	h = (h ^ h>>13) * 1274126177
	return int(h>>24) % 8
}

func shade(c color.RGBA, d int) color.RGBA {
	clamp := func(v int) uint8 { return uint8(max(0, min(255, v))) }
	return color.RGBA{clamp(int(c.R) + d - 12), clamp(int(c.G) + d - 12), clamp(int(c.B) + d - 12), 255}
}

func drawQuay() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, mapWidth, mapHeight))
	water := color.RGBA{28, 58, 66, 255}
	stone := color.RGBA{122, 118, 108, 255}
	planks := color.RGBA{104, 78, 52, 255}
	roof := color.RGBA{86, 50, 40, 255}
	lamp := color.RGBA{236, 206, 120, 255}
	for y := 0; y < mapHeight; y++ {
		for x := 0; x < mapWidth; x++ {
			c := water
			switch {
			case y < 8*mapCell: // the quay: the top eight rows
				c = stone
				if (x/35+y/35)%2 == 0 {
					c = shade(stone, 6)
				}
			case x >= 9*mapCell && x < 11*mapCell: // the jetty into the harbour
				c = planks
				if x%35 == 0 {
					c = shade(planks, -20)
				}
			}
			// The warehouse on the quay, cells 2-8 by 1-5, its door on the south.
			if x >= 2*mapCell && x < 9*mapCell && y >= mapCell && y < 5*mapCell {
				c = roof
				if y%28 < 3 {
					c = shade(roof, -18)
				}
			}
			// The lighthouse at the jetty's end: a lit disc.
			dx, dy := x-10*mapCell, y-12*mapCell
			if d := dx*dx + dy*dy; d < 60*60 {
				c = stone
				if d < 30*30 {
					c = lamp
				}
			}
			img.SetRGBA(x, y, shade(c, noise(x/3, y/3)+8))
		}
	}
	return img
}

func TestDemoMap(t *testing.T) {
	drawn := drawQuay()
	if os.Getenv("LANTERNLIGHT_WRITE_MAP") == "1" {
		var b bytes.Buffer
		if err := png.Encode(&b, drawn); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(mapFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(mapFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stored, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Bounds() != drawn.Bounds() {
		t.Fatalf("the stored map is %v, the code draws %v", stored.Bounds(), drawn.Bounds())
	}
	for y := 0; y < mapHeight; y += 7 {
		for x := 0; x < mapWidth; x += 7 {
			r1, g1, b1, _ := stored.At(x, y).RGBA()
			r2, g2, b2, _ := drawn.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				t.Fatalf("the stored map differs from what the code draws at %d,%d: run with LANTERNLIGHT_WRITE_MAP=1", x, y)
			}
		}
	}
}
