package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
)

// A map picture's tiles follow the picture's rule: nothing while its map
// is off the player screen, the index and tiles while it is on; a tile
// of another version or past the edge is missing; what is not a picture
// is refused with a message.
func TestMapPictureTilesFollowThePicture(t *testing.T) {
	const module, vault = "mod-vault", "mod-vault-map"
	picture := "/modules/" + module + "/maps/vault.png"
	e := newEnv(t, envOptions{seed: func(tx core.Tx) error {
		if err := testkit.SeedFixture(tx); err != nil {
			return err
		}
		if err := tx.PutModule(&core.Module{ID: module, Name: "Vault", System: "dnd5e"}); err != nil {
			return err
		}
		m := &core.Map{ID: vault, Name: "Vault", Owner: module, Image: picture}
		m.Normalize()
		return tx.PutMap(m)
	}})
	img := image.NewNRGBA(image.Rect(0, 0, 1100, 600))
	for y := 0; y < 600; y++ {
		for x := 0; x < 1100; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), uint8(x / 5), 255})
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	dir := filepath.Join(e.dataDir, "modules", module, "maps")
	writeFile(t, filepath.Join(dir, "vault.png"), buf.String())
	writeFile(t, filepath.Join(dir, "notes.png"), "these are words, not pixels")

	if r := e.do(t, "GET", picture+"?tiles", ""); r.status != 404 {
		t.Fatalf("the index of a picture off the player screen: %d, want 404", r.status)
	}
	if _, err := os.Stat(filepath.Join(e.dataDir, ".tiles")); err == nil {
		t.Errorf("a refused request cut the picture")
	}
	if _, err := e.svc.ShowMap(context.Background(), vault); err != nil {
		t.Fatal(err)
	}
	r := e.do(t, "GET", picture+"?tiles", "")
	if r.status != 200 {
		t.Fatalf("the index on the player screen: %d %s", r.status, r.body)
	}
	idx := r.json(t)
	if idx["width"] != 1100.0 || idx["height"] != 600.0 || idx["levels"] != 3.0 || idx["tile"] != 512.0 || idx["format"] != "png" {
		t.Fatalf("index %v", idx)
	}
	v := idx["version"].(string)
	tile := e.do(t, "GET", picture+"?tile=0/2/1&v="+v, "")
	if tile.status != 200 || tile.header.Get("Content-Type") != "image/png" || tile.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("tile 0/2/1: %d %v", tile.status, tile.header)
	}
	got, err := png.Decode(bytes.NewReader(tile.body))
	if err != nil {
		t.Fatal(err)
	}
	// The last tile of the second row: 1100-1024 x 600-512 pixels, from 1024,512.
	if b := got.Bounds(); b.Dx() != 76 || b.Dy() != 88 {
		t.Fatalf("tile 0/2/1 is %v", b)
	}
	if c := color.NRGBAModel.Convert(got.At(10, 20)).(color.NRGBA); c != img.NRGBAAt(1034, 532) {
		t.Errorf("tile 0/2/1 pixel 10,20 is %v, the picture's %v", c, img.NRGBAAt(1034, 532))
	}
	for _, bad := range []string{"?tile=0/3/0&v=" + v, "?tile=3/0/0&v=" + v, "?tile=0/0/0&v=old", "?tile=0/0&v=" + v, "?tile=0/0/0/9&v=" + v, "?tile=-1/0/0&v=" + v} {
		if r := e.do(t, "GET", picture+bad, ""); r.status != 404 {
			t.Errorf("GET %s: %d, want 404", bad, r.status)
		}
	}
	// notes.png is another map's picture; shown, it is refused as no picture.
	notes := "/modules/" + module + "/maps/notes.png"
	notesMap, err := e.svc.CreateMap(context.Background(), core.NewMap{Name: "Notes", Width: 70, Height: 70, Image: notes})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.ShowMap(context.Background(), notesMap.ID); err != nil {
		t.Fatal(err)
	}
	wantError(t, e.do(t, "GET", notes+"?tiles", ""), 422, "the picture cannot be cut into tiles: not a picture this server reads (PNG, JPEG or GIF)")
	if r := e.do(t, "GET", picture+"?tile=0/0/0&v="+v, ""); r.status != 404 {
		t.Errorf("a tile once its map left the screen: %d, want 404", r.status)
	}
}

// A map made from a picture past 4,096 pixels a side is cut while the
// game master prepares it: its tiles are there before any player asks. A
// small picture is not cut at all.
func TestBigMapPictureIsCutWhenUploaded(t *testing.T) {
	e := newConsoleEnv(t)
	upload := func(name string, w, h int) core.Map {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("name", name)
		fw, _ := mw.CreateFormFile("file", name+".png")
		png.Encode(fw, image.NewGray(image.Rect(0, 0, w, h)))
		mw.Close()
		var m core.Map
		e.decode(t, e.call(t, "POST", "/host/api/maps", body.String(), "Content-Type", mw.FormDataContentType()), 201, &m)
		return m
	}
	upload("Small", 600, 400)
	hall := upload("Long hall", 5000, 40)
	// Cut pictures only: a picture being cut is written under a
	// ".cutting-" folder first (renamed when done), which the glob's "*"
	// also matches; read there, its index could be half written or gone.
	index := func() []string {
		found, _ := filepath.Glob(filepath.Join(e.dataDir, ".tiles", "*", "index.json"))
		var cut []string
		for _, f := range found {
			if !strings.HasPrefix(filepath.Base(filepath.Dir(f)), ".") {
				cut = append(cut, f)
			}
		}
		return cut
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(index()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := index(); len(got) != 1 {
		t.Fatalf("after uploading a 5,000-pixel and a 600-pixel picture, cut pictures: %v, want the big one alone", got)
	}
	var idx struct{ Width int }
	b, _ := os.ReadFile(index()[0])
	json.Unmarshal(b, &idx)
	if idx.Width != 5000 {
		t.Fatalf("the picture cut is %d wide, want 5000", idx.Width)
	}
	// The map deleted, its picture goes and its tiles with it.
	if r := e.call(t, "DELETE", "/host/api/maps/"+hall.ID, ""); r.status != 204 {
		t.Fatalf("DELETE the map: %d %s", r.status, r.body)
	}
	if left, _ := filepath.Glob(filepath.Join(e.dataDir, ".tiles", "*")); len(left) != 0 {
		t.Errorf("tiles left after their map was deleted: %v", left)
	}
}
