package sight_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core/redact"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/uvtt"
	"github.com/vttapp/companion/internal/shareddata"
	"github.com/vttapp/companion/sight"
)

// realMapSegments loads a Universal VTT map from the shared test data and
// returns its sight-blocking segments and box, as the server builds them.
func realMapSegments(tb testing.TB, file string) (*core.Map, [][4]float64, [4]float64) {
	tb.Helper()
	data, err := os.ReadFile(shareddata.Path(tb, "uvtt/"+file))
	if err != nil {
		tb.Fatal(err)
	}
	um, err := uvtt.Parse(data, file)
	if err != nil {
		tb.Fatal(err)
	}
	m := um.Map
	return m, redact.SightSegments(m), [4]float64{0, 0, float64(m.Width), float64(m.Height)}
}

// viewerGrid is n x n viewers spread over the box, off the grid lines
// walls are drawn on.
func viewerGrid(box [4]float64, n int) [][2]float64 {
	var out [][2]float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			out = append(out, [2]float64{
				box[0] + (box[2]-box[0])*(float64(i)+0.37)/float64(n),
				box[1] + (box[3]-box[1])*(float64(j)+0.61)/float64(n),
			})
		}
	}
	return out
}

// blueTowerWhole is every wall of the Blue Tower file, 441 segments: the
// file's geometry covers far more than its exported image (the importer
// keeps the 88 inside it), and a map drawn that large is what a drag
// recomputes against. The box is what the server uses for a map without a
// size: the walls with a margin.
func blueTowerWhole(tb testing.TB) ([][4]float64, [4]float64) {
	tb.Helper()
	data, err := os.ReadFile(shareddata.Path(tb, "uvtt/mbround18-blue-tower-base.origin-offset.dd2vtt"))
	if err != nil {
		tb.Fatal(err)
	}
	type point struct{ X, Y float64 }
	var f struct {
		Resolution struct {
			MapOrigin     point   `json:"map_origin"`
			PixelsPerGrid float64 `json:"pixels_per_grid"`
		} `json:"resolution"`
		LineOfSight [][]point `json:"line_of_sight"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		tb.Fatal(err)
	}
	o, ppg := f.Resolution.MapOrigin, f.Resolution.PixelsPerGrid
	var segs [][4]float64
	box := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, line := range f.LineOfSight {
		for i := 0; i+1 < len(line); i++ {
			s := [4]float64{(line[i].X - o.X) * ppg, (line[i].Y - o.Y) * ppg, (line[i+1].X - o.X) * ppg, (line[i+1].Y - o.Y) * ppg}
			segs = append(segs, s)
			box = [4]float64{
				math.Min(box[0], math.Min(s[0], s[2])), math.Min(box[1], math.Min(s[1], s[3])),
				math.Max(box[2], math.Max(s[0], s[2])), math.Max(box[3], math.Max(s[1], s[3])),
			}
		}
	}
	return segs, [4]float64{box[0] - 1000, box[1] - 1000, box[2] + 1000, box[3] + 1000}
}

func TestVisionSweepMatchesRaysOnBlueTower(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	segs, box := blueTowerWhole(t)
	if len(segs) != 441 {
		t.Fatalf("the Blue Tower has %d wall segments, want 441", len(segs))
	}
	for _, v := range viewerGrid([4]float64{box[0] + 1000, box[1] + 1000, box[2] - 1000, box[3] - 1000}, 6) {
		checkAgainstRays(t, "blue tower, whole", v[0], v[1], segs, box, 3000, rng)
	}
	// As imported: the walls inside the exported image, with its doors.
	m, segs, box := realMapSegments(t, "mbround18-blue-tower-base.origin-offset.dd2vtt")
	viewers := viewerGrid(box, 5)
	for _, l := range m.Lights {
		viewers = append(viewers, [2]float64{l.X, l.Y})
	}
	viewers = append(viewers, [2]float64{m.X, m.Y}, [2]float64{-50, box[3] / 2}, [2]float64{box[2] + 10, box[3] + 10})
	for _, v := range viewers {
		checkAgainstRays(t, "blue tower, imported", v[0], v[1], segs, box, 3000, rng)
	}
}

func TestVisionSweepMatchesRaysOnEveryRealMap(t *testing.T) {
	dir := filepath.Dir(shareddata.Path(t, "uvtt/mbround18-blue-tower-base.origin-offset.dd2vtt"))
	files, err := filepath.Glob(filepath.Join(dir, "*.dd2vtt"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range files {
		name := filepath.Base(f)
		if strings.Contains(name, "blue-tower") {
			continue // its own test
		}
		t.Run(name, func(t *testing.T) {
			m, segs, box := realMapSegments(t, name)
			viewers := viewerGrid(box, 5)
			for _, l := range m.Lights {
				viewers = append(viewers, [2]float64{l.X, l.Y})
			}
			// On wall ends too: a token dropped exactly on a corner.
			for i := 0; i < len(segs); i += 1 + len(segs)/5 {
				viewers = append(viewers, [2]float64{segs[i][0], segs[i][1]})
			}
			for _, v := range viewers {
				checkAgainstRays(t, name, v[0], v[1], segs, box, 3000, rng)
			}
		})
	}
}

func TestVisionSweepMatchesRaysOnAGeneratedDungeon(t *testing.T) {
	d := newGeneratedDungeon(1)
	if len(d.segments) < 4500 {
		t.Fatalf("the generated dungeon has %d segments, want about 5,000", len(d.segments))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	// The ray caster takes about a second here: a few viewers, the one
	// that sees most (down open corridors and through rooms), a corridor
	// and a doorway.
	few := testing.Short() || raceEnabled
	widest, widestArea := 0, 0.0
	for i, v := range d.viewers {
		if few && i%8 != 0 {
			continue
		}
		if a := polygonArea(sight.VisionPolygon(v[0], v[1], d.segments, d.box)); a > widestArea {
			widest, widestArea = i, a
		}
	}
	if widestArea < 1.5e5 {
		t.Fatalf("no viewer in the dungeon sees more than %.0f square px: the generator shuts every room", widestArea)
	}
	picks := []int{widest, 0, len(d.viewers) - 1}
	if few {
		picks = picks[:1]
	}
	for _, i := range picks {
		v := d.viewers[i]
		checkAgainstRays(t, "dungeon", v[0], v[1], d.segments, d.box, 1500, rng)
	}
}

// randomSoup is n random segments in a 100 x 100 square: long and short,
// crossing, and some sharing ends, lying along each other or repeated.
func randomSoup(rng *rand.Rand, n int) [][4]float64 {
	segs := make([][4]float64, 0, n)
	point := func() (float64, float64) {
		if len(segs) > 0 && rng.IntN(4) == 0 { // reuse an end: polylines
			s := segs[rng.IntN(len(segs))]
			if rng.IntN(2) == 0 {
				return s[0], s[1]
			}
			return s[2], s[3]
		}
		return rng.Float64() * 100, rng.Float64() * 100
	}
	for len(segs) < n {
		x1, y1 := point()
		switch rng.IntN(10) {
		case 0: // repeated
			if len(segs) > 0 {
				segs = append(segs, segs[rng.IntN(len(segs))])
				continue
			}
		case 1: // along another, overlapping it
			if len(segs) > 0 {
				s := segs[rng.IntN(len(segs))]
				a, b := rng.Float64()*1.5-0.25, rng.Float64()*1.5-0.25
				segs = append(segs, [4]float64{
					s[0] + a*(s[2]-s[0]), s[1] + a*(s[3]-s[1]),
					s[0] + b*(s[2]-s[0]), s[1] + b*(s[3]-s[1]),
				})
				continue
			}
		case 2: // no length
			segs = append(segs, [4]float64{x1, y1, x1, y1})
			continue
		case 3, 4: // short
			segs = append(segs, [4]float64{x1, y1, x1 + rng.NormFloat64()*5, y1 + rng.NormFloat64()*5})
			continue
		}
		x2, y2 := point()
		segs = append(segs, [4]float64{x1, y1, x2, y2})
	}
	return segs
}

func TestVisionSweepMatchesRaysOnRandomSoups(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	rounds := 400
	if testing.Short() {
		rounds = 60
	}
	for round := 0; round < rounds; round++ {
		segs := randomSoup(rng, 1+rng.IntN(40))
		box := [4]float64{-20, -20, 120, 120}
		var vx, vy float64
		switch rng.IntN(5) {
		case 0: // on a segment end
			s := segs[rng.IntN(len(segs))]
			vx, vy = s[0], s[1]
		case 1: // outside the box
			vx, vy = 150+rng.Float64()*50, rng.Float64()*100
		case 2: // on a box corner's line
			vx, vy = rng.Float64()*100, -20
		default:
			vx, vy = rng.Float64()*100, rng.Float64()*100
		}
		checkAgainstRays(t, "soup", vx, vy, segs, box, 800, rng)
		if t.Failed() {
			t.Logf("segments: %v", segs)
			return
		}
	}
}

// When walls cross far more often than real ones do, the sweep looks at
// every crossed wall on each ray instead of cutting them: the result must
// be the same.
func TestVisionSweepMatchesRaysOnATangle(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	segs := make([][4]float64, 200)
	for i := range segs {
		a := rng.Float64() * math.Pi
		cx, cy := rng.Float64()*100, rng.Float64()*100
		segs[i] = [4]float64{cx - 80*math.Cos(a), cy - 80*math.Sin(a), cx + 80*math.Cos(a), cy + 80*math.Sin(a)}
	}
	for i := 0; i < 20; i++ {
		checkAgainstRays(t, "tangle", rng.Float64()*100, rng.Float64()*100, segs, [4]float64{-100, -100, 200, 200}, 1000, rng)
	}
}
