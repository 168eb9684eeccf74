package core_test

import (
	"testing"

	"github.com/vttapp/companion/core"
)

func TestFogMaskRevealsAndCovers(t *testing.T) {
	m := &core.Map{Name: "Cave", Width: 700, Height: 350, GridSize: 70}
	mask, err := core.NewFogMask(m)
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
	back, err := core.DecodeFogMask(png, m)
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
	if _, err := core.NewFogMask(&core.Map{Name: "Empty"}); core.KindOf(err) != core.KindInvalid {
		t.Errorf("a map without size: %v", err)
	}
	if _, err := core.DecodeFogMask([]byte("not a png"), m); core.KindOf(err) != core.KindInvalid {
		t.Errorf("garbage mask: %v", err)
	}
}
