package sight

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The sweep's two ways of keeping the crossed walls: cut where they cross
// and ordered in a heap, or, when walls cross far more often than real
// ones, whole and scanned. The results are checked against the ray caster
// in sweep_test.go; these tests check that each way is the one
// taken.

func TestVisionSweepCutsCrossingWalls(t *testing.T) {
	sc := new(visionScratch)
	// An X in a room: each arm is cut in two where they cross.
	segs := [][4]float64{{10, 10, 90, 90}, {10, 90, 90, 10}}
	sc.polygon(50, 20, segs, [4]float64{0, 0, 100, 100})
	if sc.scan {
		t.Fatal("two crossing walls are scanned, want them cut and kept in the heap")
	}
	if got := len(sc.pieces); got != 2*2+4 {
		t.Fatalf("%d pieces, want the two walls in two pieces each and the 4 box edges", got)
	}
	for _, p := range sc.pieces[:4] {
		if math.Hypot(p.x1-p.x2, p.y1-p.y2) > 56.6 {
			t.Fatalf("piece %+v runs past the crossing", p)
		}
	}
}

func TestVisionSweepScansATangle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	segs := make([][4]float64, 300)
	for i := range segs {
		segs[i] = [4]float64{rng.Float64() * 10, rng.Float64() * 1000, 990 + rng.Float64()*10, rng.Float64() * 1000}
	}
	sc := new(visionScratch)
	sc.polygon(500, 500, segs, [4]float64{-100, -100, 1100, 1100})
	if !sc.scan {
		t.Fatalf("300 walls crossing about %d times are cut into %d pieces, want them scanned", 300*300/4, len(sc.pieces))
	}
}
