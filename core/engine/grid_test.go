package engine_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/core/redact"
)

func intp(v int) *int           { return &v }
func strp(v string) *string     { return &v }
func floatp(v float64) *float64 { return &v }
func boolp(v bool) *bool        { return &v }
func gridMap() *core.Map {
	m := &core.Map{Name: "Crypt", Width: 1000, Height: 700}
	m.Normalize()
	return m
}
func near(a, b float64) bool { return math.Abs(a-b) < 0.02 }

func TestGridChangeChecksEveryField(t *testing.T) {
	bad := []struct {
		change mapobjects.GridChange
		says   string
	}{
		{mapobjects.GridChange{}, "'gridSize' is required"},
		{mapobjects.GridChange{Size: intp(3)}, "4 to 1000, not 3"},
		{mapobjects.GridChange{Size: intp(1001)}, "not 1001"},
		{mapobjects.GridChange{Size: intp(50), OffsetX: intp(-100001)}, "'gridOffsetX'"},
		{mapobjects.GridChange{Size: intp(50), OffsetY: intp(100001)}, "'gridOffsetY'"},
		{mapobjects.GridChange{Size: intp(50), Type: strp("hexRow")}, "square, hexFlat, hexPointy, not 'hexRow'"},
		{mapobjects.GridChange{Size: intp(50), Scale: floatp(0)}, "'gridScale'"},
		{mapobjects.GridChange{Size: intp(50), Scale: floatp(math.NaN())}, "'gridScale'"},
		{mapobjects.GridChange{Size: intp(50), Units: strp("  ")}, "'gridUnits'"},
		{mapobjects.GridChange{Size: intp(50), Units: strp(strings.Repeat("f", 17))}, "'gridUnits'"},
	}
	for _, c := range bad {
		m := gridMap()
		before := *m
		err := c.change.Apply(m)
		if core.KindOf(err) != core.KindInvalid || !strings.Contains(core.MessageOf(err), c.says) {
			t.Errorf("%+v: %v, want invalid saying %q", c.change, err, c.says)
		}
		if m.GridSize != before.GridSize || m.GridOffsetX != before.GridOffsetX || m.GridType != before.GridType {
			t.Errorf("%+v changed the map although refused", c.change)
		}
	}
	m := gridMap()
	err := mapobjects.GridChange{Size: intp(64), OffsetX: intp(-12), OffsetY: intp(30), Type: strp("hexFlat"),
		Scale: floatp(1.5), Units: strp(" m "), Visible: boolp(false)}.Apply(m)
	if err != nil {
		t.Fatal(err)
	}
	if m.GridSize != 64 || m.GridOffsetX != -12 || m.GridOffsetY != 30 || m.GridType != "hexFlat" || m.GridScale != 1.5 ||
		m.GridUnits != "m" || m.GridVisible {
		t.Errorf("applied: %+v", m)
	}
	// Left out keeps the map's value.
	if err := (mapobjects.GridChange{Size: intp(80)}).Apply(m); err != nil || m.GridOffsetX != -12 || m.GridType != "hexFlat" || m.GridUnits != "m" {
		t.Errorf("partial change: %v %+v", err, m)
	}
}

func TestGridPreviewOfASquareGridIsWhatThePlayerClientDraws(t *testing.T) {
	f := newGCFixture(t)
	ctx := context.Background()
	// The Cave is 800 x 600 with 50 px cells; shift the grid 20 left and 10 down.
	p, err := f.svc.GridPreview(ctx, gcCave, &mapobjects.GridChange{Size: intp(50), OffsetX: intp(-20), OffsetY: intp(10)})
	if err != nil {
		t.Fatal(err)
	}
	if p.Hex != nil || p.Lines == nil {
		t.Fatalf("a square grid gives lines: %+v", p)
	}
	// offset mod size, then every size, up to (not at) the far edge.
	if len(p.Lines.X) != 16 || p.Lines.X[0] != 30 || p.Lines.X[1] != 80 || p.Lines.X[15] != 780 {
		t.Errorf("vertical lines %v", p.Lines.X)
	}
	if len(p.Lines.Y) != 12 || p.Lines.Y[0] != 10 || p.Lines.Y[11] != 560 {
		t.Errorf("horizontal lines %v", p.Lines.Y)
	}
	if p.Cells.Across != 16 || p.Cells.Down != 12 || p.Media.Width != 800 || p.Media.Height != 600 {
		t.Errorf("cells %+v media %+v", p.Cells, p.Media)
	}
	// A preview stores nothing.
	m, _ := f.svc.Map(ctx, gcCave)
	if m.GridOffsetX != 0 || m.GridSize != 50 {
		t.Errorf("the preview changed the map: %+v", m)
	}
}

// hexCentre is the player client's snapping (web/client/src/map/grid.ts):
// the centre of the hex that holds (x, y).
func hexCentre(kind string, size, ox, oy, x, y float64) (float64, float64) {
	r := size / math.Sqrt(3)
	cubeRound := func(q, rr float64) (float64, float64) {
		s := -q - rr
		rq, rrr, rs := math.Round(q), math.Round(rr), math.Round(s)
		dq, dr, ds := math.Abs(rq-q), math.Abs(rrr-rr), math.Abs(rs-s)
		if dq > dr && dq > ds {
			rq = -rrr - rs
		} else if dr > ds {
			rrr = -rq - rs
		}
		return rq, rrr
	}
	px, py := x-ox, y-oy
	if kind == "hexFlat" {
		q, rr := cubeRound((2.0/3)*px/r, ((-1.0/3)*px+(math.Sqrt(3)/3)*py)/r)
		return ox + r*1.5*q, oy + r*math.Sqrt(3)*(rr+q/2)
	}
	q, rr := cubeRound(((math.Sqrt(3)/3)*px-(1.0/3)*py)/r, (2.0/3)*py/r)
	return ox + r*math.Sqrt(3)*(q+rr/2), oy + r*1.5*rr
}

// Every centre of the lattice is a centre of the player client's hex grid,
// and the lattice covers the map: each corner and the middle of the map
// lies within a hex of it.
func TestGridPreviewOfAHexGridLiesOnThePlayerClientsLattice(t *testing.T) {
	f := newGCFixture(t)
	ctx := context.Background()
	for _, kind := range []string{"hexFlat", "hexPointy"} {
		for _, off := range [][2]int{{0, 0}, {17, -23}, {-140, 95}, {333, 401}} {
			p, err := f.svc.GridPreview(ctx, gcCave, &mapobjects.GridChange{Size: intp(60), Type: strp(kind), OffsetX: intp(off[0]), OffsetY: intp(off[1])})
			if err != nil {
				t.Fatal(err)
			}
			l := p.Hex
			if l == nil || p.Lines != nil || l.Orientation != strings.ToLower(kind[3:]) || len(l.Corners) != 12 {
				t.Fatalf("%s: %+v", kind, p)
			}
			centre := func(i, j int) (float64, float64) {
				x, y := l.Origin.X+float64(i)*l.Step.X, l.Origin.Y+float64(j)*l.Step.Y
				if (l.ShiftOdd == "columns" && i%2 == 1) || (l.ShiftOdd == "rows" && j%2 == 1) {
					x, y = x+l.Shift.X, y+l.Shift.Y
				}
				return x, y
			}
			for i := 0; i < l.Columns; i++ {
				for j := 0; j < l.Rows; j++ {
					x, y := centre(i, j)
					cx, cy := hexCentre(kind, 60, float64(off[0]), float64(off[1]), x, y)
					if !near(x, cx) || !near(y, cy) {
						t.Fatalf("%s offset %v: centre (%d, %d) = (%.2f, %.2f) is not on the lattice (%.2f, %.2f)", kind, off, i, j, x, y, cx, cy)
					}
				}
			}
			for _, pt := range [][2]float64{{0, 0}, {800, 0}, {0, 600}, {800, 600}, {400, 300}} {
				cx, cy := hexCentre(kind, 60, float64(off[0]), float64(off[1]), pt[0], pt[1])
				found := false
				for i := 0; i < l.Columns && !found; i++ {
					for j := 0; j < l.Rows && !found; j++ {
						x, y := centre(i, j)
						found = near(x, cx) && near(y, cy)
					}
				}
				if !found {
					t.Errorf("%s offset %v: the hex at (%v) is not in the lattice %+v", kind, off, pt, l)
				}
			}
		}
	}
}

// A map made from an image waits for its grid: the player screen refuses
// it until the grid is set, and setting it on a map on screen tells clients.
func TestAMapWaitingForItsGridStaysOffThePlayerScreen(t *testing.T) {
	f := newGCFixture(t)
	ctx := context.Background()
	err := f.store.Update(ctx, func(tx core.Tx) error {
		m := &core.Map{ID: "pending-map", Name: "Swamp", Owner: gcCampaign, Width: 2000, Height: 1500,
			Image: "/campaigns/x/maps/swamp.jpg", GridPending: true}
		m.Normalize()
		return tx.PutMap(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.ShowMap(ctx, "pending-map")
	if core.KindOf(err) != core.KindConflict || !strings.Contains(core.MessageOf(err), "waits for its grid") {
		t.Fatalf("ShowMap of a pending map: %v", err)
	}
	if events := f.pub.take(); len(events) != 0 {
		t.Fatalf("a refused ShowMap published %v", gcEventNames(events))
	}
	p, err := f.svc.GridPreview(ctx, "pending-map", nil)
	if err != nil || !p.GridPending || p.Media.Kind != "image" || p.Media.URL != "/campaigns/x/maps/swamp.jpg" || p.Media.Width != 2000 {
		t.Fatalf("preview of a pending map: %+v %v", p, err)
	}
	// A refused change leaves it waiting.
	if _, err := f.svc.SetGrid(ctx, "pending-map", mapobjects.GridChange{}); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("SetGrid without a size: %v", err)
	}
	if m, _ := f.svc.Map(ctx, "pending-map"); !m.GridPending {
		t.Fatal("a refused SetGrid ended the wait")
	}
	p, err = f.svc.SetGrid(ctx, "pending-map", mapobjects.GridChange{Size: intp(100), OffsetX: intp(12), OffsetY: intp(-4)})
	if err != nil || p.GridPending || p.Grid.Size != 100 || p.Grid.OffsetX != 12 {
		t.Fatalf("SetGrid: %+v %v", p, err)
	}
	if events := f.pub.take(); len(events) != 0 {
		t.Fatalf("setting the grid of a map off screen published %v", gcEventNames(events))
	}
	m, _ := f.svc.Map(ctx, "pending-map")
	if m.GridPending || m.GridSize != 100 || m.GridOffsetY != -4 {
		t.Fatalf("stored: %+v", m)
	}
	if _, err := f.svc.ShowMap(ctx, "pending-map"); err != nil {
		t.Fatalf("ShowMap once the grid is set: %v", err)
	}
	f.pub.take()
	if _, err := f.svc.SetGrid(ctx, "pending-map", mapobjects.GridChange{Size: intp(90)}); err != nil {
		t.Fatal(err)
	}
	events := f.pub.take()
	if len(events) != 1 || events[0].Name != core.EventMapUpdated {
		t.Fatalf("SetGrid of the map on screen: %v, want mapUpdated", gcEventNames(events))
	}
	if got := redact.PlayersView(events[0].Data).(*core.Map); got.GridSize != 90 || got.GridPending {
		t.Errorf("players' map: grid %d pending %v", got.GridSize, got.GridPending)
	}
	if _, err := f.svc.SetGrid(ctx, "no-such-map", mapobjects.GridChange{Size: intp(90)}); !core.IsNotFound(err) {
		t.Errorf("SetGrid of an unknown map: %v", err)
	}
}
