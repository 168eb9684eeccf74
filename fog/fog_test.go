package fog_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/fog"
)

func TestFogMaskRevealsAndCovers(t *testing.T) {
	m := &core.Map{Name: "Cave", Width: 700, Height: 350, GridSize: 70}
	mask, err := fog.New(m)
	if err != nil {
		t.Fatal(err)
	}
	if b := mask.Image.Bounds(); b.Dx() != 40 || b.Dy() != 20 {
		t.Fatalf("mask %v: want 4 pixels a cell (40x20)", b)
	}
	if mask.Revealed(10, 10) {
		t.Fatal("a new mask reveals something")
	}
	apply := func(e core.FogEdit) {
		t.Helper()
		if err := mask.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	apply(core.FogEdit{Mode: core.FogReveal, Shape: core.FogRect, X: 70, Y: 70, Width: 140, Height: 70})
	for _, p := range [][2]float64{{75, 75}, {200, 135}} {
		if !mask.Revealed(p[0], p[1]) {
			t.Errorf("(%v) inside the rect is covered", p)
		}
	}
	for _, p := range [][2]float64{{60, 75}, {215, 75}, {75, 145}} {
		if mask.Revealed(p[0], p[1]) {
			t.Errorf("(%v) outside the rect is revealed", p)
		}
	}
	// A brush stroke from (400, 100) to (600, 100), radius 30.
	apply(core.FogEdit{Mode: core.FogReveal, Shape: core.FogBrush, Path: []float64{400, 100, 600, 100}, Radius: 30})
	if !mask.Revealed(500, 110) || !mask.Revealed(590, 115) || mask.Revealed(500, 160) || mask.Revealed(350, 100) {
		t.Error("the brush revealed the wrong pixels")
	}
	apply(core.FogEdit{Mode: core.FogCover, Shape: core.FogBrush, Path: []float64{500, 100}, Radius: 20})
	if mask.Revealed(500, 100) || !mask.Revealed(570, 100) {
		t.Error("a covering dab missed or spread")
	}

	// It survives a round trip through its PNG.
	png, err := mask.PNG()
	if err != nil {
		t.Fatal(err)
	}
	back, err := fog.Decode(png, m)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Revealed(75, 75) || back.Revealed(500, 100) {
		t.Error("the decoded mask differs")
	}
	apply(core.FogEdit{Mode: core.FogReveal, Shape: core.FogAll})
	if !mask.Revealed(1, 1) || !mask.Revealed(699, 349) {
		t.Error("reveal all left fog")
	}

	for _, bad := range []core.FogEdit{
		{Mode: "clear", Shape: core.FogAll},
		{Mode: core.FogReveal, Shape: "star"},
		{Mode: core.FogReveal, Shape: core.FogRect},
		{Mode: core.FogReveal, Shape: core.FogBrush, Path: []float64{1, 2, 3}, Radius: 5},
		{Mode: core.FogReveal, Shape: core.FogBrush, Path: []float64{1, 2}},
	} {
		if err := mask.Apply(bad); core.KindOf(err) != core.KindInvalid {
			t.Errorf("%+v: err %v, want invalid", bad, err)
		}
	}
	if _, err := fog.New(&core.Map{Name: "Empty"}); core.KindOf(err) != core.KindInvalid {
		t.Errorf("a map without size: %v", err)
	}
	if _, err := fog.Decode([]byte("not a png"), m); core.KindOf(err) != core.KindInvalid {
		t.Errorf("garbage mask: %v", err)
	}
}

// A brush stroke that would paint the whole mask for each of thousands of
// segments (a huge radius on a long path) is refused at once, before any
// pixel changes, instead of painting for minutes.
func TestFogBrushWorkIsBounded(t *testing.T) {
	m := &core.Map{Name: "Vast", Width: 100000, Height: 100000, GridSize: 50} // the mask is capped at 4096 a side
	mask, err := fog.New(m)
	if err != nil {
		t.Fatal(err)
	}
	path := make([]float64, 0, 20000)
	for i := 0; len(path) < 20000; i++ {
		path = append(path, float64(i%100)*1000, float64(i/100)*1000)
	}
	start := time.Now()
	err = mask.Apply(core.FogEdit{Mode: core.FogReveal, Shape: core.FogBrush, Path: path, Radius: 1e12})
	if core.KindOf(err) != core.KindTooLarge {
		t.Fatalf("huge stroke: err = %v, want too large", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Fatalf("refusing the stroke took %v", elapsed)
	}
	if mask.Revealed(500, 500) {
		t.Fatal("a refused stroke painted part of the mask")
	}
	// An ordinary stroke still paints.
	if err := mask.Apply(core.FogEdit{Mode: core.FogReveal, Shape: core.FogBrush, Path: []float64{500, 500, 5000, 500}, Radius: 100}); err != nil {
		t.Fatal(err)
	}
	if !mask.Revealed(2500, 500) {
		t.Fatal("an ordinary stroke did not paint")
	}
}

// A stored mask whose PNG header claims a huge size is refused from the
// header, before its pixels are decoded.
func TestFogMaskRefusesAHugeStoredPNGFromItsHeader(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	// IHDR (after the 8-byte signature: length, "IHDR", width, height, ...,
	// CRC): a valid header for a 2^30 x 2^30 image. Decoding its pixels
	// would first allocate an exabyte.
	binary.BigEndian.PutUint32(data[16:], 1<<30)
	binary.BigEndian.PutUint32(data[20:], 1<<30)
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	_, err := fog.Decode(data, &core.Map{Name: "M", Width: 700, Height: 700, GridSize: 70})
	if core.KindOf(err) != core.KindInvalid {
		t.Fatalf("forged mask: err = %v, want invalid", err)
	}
}
