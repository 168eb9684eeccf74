package maptiles

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// sourcePixel is the test picture: fine stripes and a slow gradient, so
// a tile out of place or a level not halved shows.
func sourcePixel(x, y int) color.RGBA {
	return color.RGBA{uint8(x * 255 / 1300), uint8(y * 255 / 700), uint8((x + y) % 2 * 255), 255}
}

func writeSource(t *testing.T, dir string, w, h int) string {
	t.Helper()
	data := writePNG(t, w, h, 6, 8, nil, func(x, y int) []byte {
		c := sourcePixel(x, y)
		return []byte{c.R, c.G, c.B, c.A}
	})
	file := filepath.Join(dir, "map.png")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func readTile(t *testing.T, file string) *image.RGBA {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	return out
}

func TestCutPictureIntoLevelsOfTiles(t *testing.T) {
	dir := t.TempDir()
	file := writeSource(t, dir, 1300, 700)
	c := New(filepath.Join(dir, ".tiles"))
	idx, err := c.Index(context.Background(), opener(file), "/campaigns/c/maps/map.png")
	if err != nil {
		t.Fatal(err)
	}
	// 1300 x 700, 650 x 350, 325 x 175: the third fits one tile.
	if idx.Width != 1300 || idx.Height != 700 || idx.Levels != 3 || idx.Tile != TileSize || idx.Format != "png" || idx.Version == "" {
		t.Fatalf("index %+v", idx)
	}
	// Level 0: every pixel where it was in the picture.
	for ty := 0; ty < 2; ty++ {
		for tx := 0; tx < 3; tx++ {
			name, err := c.Tile("/campaigns/c/maps/map.png", idx, 0, tx, ty)
			if err != nil {
				t.Fatal(err)
			}
			tile := readTile(t, name)
			wantW, wantH := min(TileSize, 1300-tx*TileSize), min(TileSize, 700-ty*TileSize)
			if tile.Rect.Dx() != wantW || tile.Rect.Dy() != wantH {
				t.Fatalf("tile %d_%d is %v, want %dx%d", tx, ty, tile.Rect, wantW, wantH)
			}
			for y := 0; y < wantH; y += 7 {
				for x := 0; x < wantW; x += 5 {
					if got, want := tile.RGBAAt(x, y), sourcePixel(tx*TileSize+x, ty*TileSize+y); got != want {
						t.Fatalf("tile %d_%d pixel %d,%d is %v, the picture's is %v", tx, ty, x, y, got, want)
					}
				}
			}
		}
	}
	// Level 1: each pixel the average of four (the stripes average to grey).
	name, _ := c.Tile("/campaigns/c/maps/map.png", idx, 1, 1, 0)
	tile := readTile(t, name)
	if tile.Rect.Dx() != 650-TileSize || tile.Rect.Dy() != 350 {
		t.Fatalf("level 1 tile 1_0 is %v", tile.Rect)
	}
	got := tile.RGBAAt(10, 20)
	x, y := 2*(TileSize+10), 40
	var sum [3]int
	for _, p := range []color.RGBA{sourcePixel(x, y), sourcePixel(x+1, y), sourcePixel(x, y+1), sourcePixel(x+1, y+1)} {
		sum[0], sum[1], sum[2] = sum[0]+int(p.R), sum[1]+int(p.G), sum[2]+int(p.B)
	}
	for i, v := range []uint8{got.R, got.G, got.B} {
		if d := int(v) - (sum[i]+2)/4; d > 1 || d < -1 {
			t.Fatalf("level 1 pixel %v, the average of four is %v", got, sum)
		}
	}
	// The last level is one tile; past the edges there is none.
	if _, err := c.Tile("/campaigns/c/maps/map.png", idx, 2, 0, 0); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][3]int{{3, 0, 0}, {0, 3, 0}, {0, 0, 2}, {-1, 0, 0}, {2, 1, 0}} {
		if _, err := c.Tile("/campaigns/c/maps/map.png", idx, bad[0], bad[1], bad[2]); !errors.Is(err, ErrNotTiled) {
			t.Errorf("tile %v: %v, want ErrNotTiled", bad, err)
		}
	}
}

func TestCutOnceForCallersAtOnceAndAgainWhenThePictureChanges(t *testing.T) {
	dir := t.TempDir()
	file := writeSource(t, dir, 600, 600)
	c := New(filepath.Join(dir, ".tiles"))
	var wg sync.WaitGroup
	idxs := make([]Index, 4)
	for i := range idxs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if idxs[i], err = c.Index(context.Background(), opener(file), "/m.png"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	folders, _ := filepath.Glob(filepath.Join(dir, ".tiles", "*"))
	if len(folders) != 1 || idxs[0] != idxs[3] {
		t.Fatalf("four callers at once: folders %v, indexes %+v", folders, idxs)
	}
	// The picture replaced under its name: a new version, cut again.
	later := time.Now().Add(time.Minute)
	data := writePNG(t, 700, 100, 0, 8, nil, func(x, y int) []byte { return []byte{uint8(x)} })
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(file, later, later)
	idx, err := c.Index(context.Background(), opener(file), "/m.png")
	if err != nil || idx.Version == idxs[0].Version || idx.Width != 700 {
		t.Fatalf("after the picture changed: %+v, %v (before %+v)", idx, err, idxs[0])
	}
}

func TestCutRefusesWhatIsNoPictureAndLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	c := New(filepath.Join(dir, ".tiles"))
	good := writePNG(t, 900, 900, 2, 8, nil, func(x, y int) []byte { return []byte{1, 2, 3} })
	for label, data := range map[string][]byte{
		"text named .png":  []byte("hello, this is not a picture"),
		"truncated PNG":    good[:len(good)/2],
		"a folder instead": nil,
	} {
		file := filepath.Join(dir, "x.png")
		os.RemoveAll(file)
		if data == nil {
			os.Mkdir(file, 0o755)
		} else if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Index(context.Background(), opener(file), "/x.png"); !errors.Is(err, ErrNotTiled) {
			t.Errorf("%s: %v, want ErrNotTiled", label, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tiles", "*")); len(left) != 0 {
		t.Errorf("refused cuts left %v", left)
	}
}

func TestCutJPEGIntoJPEGTiles(t *testing.T) {
	dir := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 800, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 800; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(x / 4), 80, uint8(y), 255})
		}
	}
	var buf bytes.Buffer
	jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95})
	file := filepath.Join(dir, "map.jpg")
	os.WriteFile(file, buf.Bytes(), 0o644)
	c := New(filepath.Join(dir, ".tiles"))
	idx, err := c.Index(context.Background(), opener(file), "/map.jpg")
	if err != nil || idx.Format != "jpeg" || idx.Levels != 2 {
		t.Fatalf("%+v %v", idx, err)
	}
	name, _ := c.Tile("/map.jpg", idx, 0, 1, 0)
	b, _ := os.ReadFile(name)
	if _, err := jpeg.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("tile 1_0 is no JPEG: %v", err)
	}
	tile := readTile(t, name)
	if p := tile.RGBAAt(100, 100); absDiff(p.R, uint8((512+100)/4)) > 6 || absDiff(p.B, 100) > 6 {
		t.Errorf("JPEG tile pixel %v, the picture's is about %d,80,100", p, (512+100)/4)
	}
	// A transparent PNG stays transparent in its tiles.
	tr := image.NewNRGBA(image.Rect(0, 0, 50, 50))
	tr.SetNRGBA(10, 10, color.NRGBA{200, 0, 0, 255})
	buf.Reset()
	png.Encode(&buf, tr)
	os.WriteFile(file+".png", buf.Bytes(), 0o644)
	idx, err = c.Index(context.Background(), opener(file+".png"), "/t.png")
	if err != nil {
		t.Fatal(err)
	}
	name, _ = c.Tile("/t.png", idx, 0, 0, 0)
	tile = readTile(t, name)
	if tile.RGBAAt(0, 0).A != 0 || tile.RGBAAt(10, 10) != (color.RGBA{200, 0, 0, 255}) {
		t.Errorf("transparent tile: %v and %v", tile.RGBAAt(0, 0), tile.RGBAAt(10, 10))
	}
}

func opener(file string) Opener { return func() (*os.File, error) { return os.Open(file) } }

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}

// A PNG is cut from a band of rows at a time: the memory the cut holds
// stays far under the picture's size in pixels.
func TestCutHoldsABandOfRowsNotThePicture(t *testing.T) {
	if testing.Short() {
		t.Skip("cuts a 4,000-pixel square")
	}
	const side = 4000 // 64 MB as pixels
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := streamPNG(&buf, side, side, 2, 8, nil, func(y int, row []byte) {
		for x := 0; x < side; x++ {
			row[3*x], row[3*x+1], row[3*x+2] = uint8(x), uint8(y), uint8(x^y)
		}
	}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "big.png")
	os.WriteFile(file, buf.Bytes(), 0o644)
	buf = bytes.Buffer{}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop, peak := make(chan struct{}), make(chan uint64)
	go func() {
		var m runtime.MemStats
		var top uint64
		for {
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapInuse)
			select {
			case <-stop:
				peak <- top
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	idx, err := New(filepath.Join(dir, ".tiles")).Index(context.Background(), opener(file), "/big.png")
	close(stop)
	top := <-peak
	if err != nil || idx.Levels != 4 {
		t.Fatalf("%+v %v", idx, err)
	}
	held := int64(top) - int64(base.HeapInuse)
	t.Logf("cutting a %d-pixel square held %.1f MB at most (the picture is %.0f MB as pixels)", side, float64(held)/1e6, side*side*4/1e6)
	if held > side*side*4/2 {
		t.Errorf("the cut held %.1f MB: more than half the picture, as if it were read whole", float64(held)/1e6)
	}
}
