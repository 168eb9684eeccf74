package engine_test

import (
	"context"
	"math"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/sight"
)

// polygonArea is the shoelace area of a flat x,y polygon.
func polygonArea(p []float64) float64 {
	var a float64
	n := len(p) / 2
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		a += p[2*i]*p[2*j+1] - p[2*j]*p[2*i+1]
	}
	return math.Abs(a) / 2
}

func maxX(p []float64) float64 {
	m := math.Inf(-1)
	for i := 0; i < len(p); i += 2 {
		m = math.Max(m, p[i])
	}
	return m
}

// room is a 100x100 room with a gap in its right wall from y=40 to y=60
// (the geometry's own tests in package sight use the same room).
var room = [][4]float64{
	{0, 0, 100, 0}, {100, 0, 100, 40}, {100, 60, 100, 100}, {100, 100, 0, 100}, {0, 100, 0, 0},
}

func TestDoorRecomputesTokenVision(t *testing.T) {
	f := newLiveFixture(t)
	ctx := context.Background()
	// The token stands in the 100x100 room whose east gap is the door; the
	// map has line of sight on and the token has vision.
	err := f.svc.ChangeContent(ctx, func(tx core.Tx) (core.Object, error) {
		m, err := tx.Map(liveMapID)
		if err != nil {
			return nil, err
		}
		m.LineOfSight = true
		m.Width, m.Height = 400, 400
		m.Walls = []core.Wall{{ID: liveDoorID, Data: []float64{100, 40, 100, 60}, Type: core.WallDoor, Door: core.DoorClosed}}
		for i, s := range room {
			m.Walls = append(m.Walls, core.Wall{ID: "room-" + string(rune('a'+i)), Data: s[:]})
		}
		m.Tokens = nil
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		for _, id := range []string{liveTokenID, liveHiddenID} {
			tok, err := tx.Token(id)
			if err != nil {
				return nil, err
			}
			tok.X, tok.Y, tok.Role = 50, 50, core.RoleFriendly
			tok.Vision = &core.Vision{ID: "v-" + id, Enabled: true}
			if err := tx.PutToken(tok); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}

	los, err := f.svc.UpdateDoor(ctx, core.Door{MapID: liveMapID, ID: liveDoorID, State: core.DoorLocked})
	if err != nil {
		t.Fatal(err)
	}
	v, ok := sightOf(los, sight.VisionSightKey("v-"+liveTokenID))
	if !ok {
		t.Fatalf("no vision for the token: %+v", los)
	}
	if a := polygonArea(v); math.Abs(a-10000) > 1 || maxX(v) > 100.01 {
		t.Fatalf("behind the locked door the token sees %.1f up to x=%v, want the room (10000, x<=100)", a, maxX(v))
	}
	if _, ok := sightOf(los, sight.VisionSightKey("v-"+liveHiddenID)); ok {
		t.Fatal("a hidden token's vision is broadcast")
	}

	los, err = f.svc.UpdateDoor(ctx, core.Door{MapID: liveMapID, ID: liveDoorID, State: core.DoorOpen})
	if err != nil {
		t.Fatal(err)
	}
	v, _ = sightOf(los, sight.VisionSightKey("v-"+liveTokenID))
	if x := maxX(v); x < 399.99 {
		t.Fatalf("through the open door the token sees up to x=%v, want the map edge 400", x)
	}
	if a := polygonArea(v); a < 20000 {
		t.Fatalf("through the open door the token sees %.1f, want the room and a cone beyond", a)
	}
}

// sightOf finds the polygon of the sight with key in a lineOfSightUpdated
// array.
func sightOf(sights []sight.Sight, key string) ([]float64, bool) {
	for _, s := range sights {
		if s.Key == key {
			return s.Polygon, true
		}
	}
	return nil, false
}
