package mapobjects_test

import (
	"context"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/internal/testkit"
)

// Every row of the kinds table names a field the map shape has, once.
func TestEveryMapKindIsAFieldOfTheMap(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range mapobjects.MapKinds {
		if seen[k.Field] {
			t.Errorf("kind %s twice", k.Field)
		}
		seen[k.Field] = true
		if _, err := mapobjects.MapKindOf(k.Field); err != nil {
			t.Errorf("%s: %v", k.Field, err)
		}
	}
	for _, want := range []string{"walls", "lights", "markers", "drawings", "areaEffects", "measurements", "tiles"} {
		if !seen[want] {
			t.Errorf("no row for %s", want)
		}
	}
}

// One write adds at most MaxMapObjectsPerWrite objects, and a map holds at
// most MaxMapObjects of a kind; past either nothing is stored.
func TestMapObjectWritesAreBounded(t *testing.T) {
	g := testkit.NewGame(t, testkit.GameOptions{})
	ctx := context.Background()
	walls := func(n int) []core.Object {
		out := make([]core.Object, n)
		for i := range out {
			out[i] = core.Object{"data": []any{float64(i), 0.0, float64(i), 70.0}}
		}
		return out
	}
	_, err := g.Service.AddMapObjects(ctx, testkit.MapID, "walls", walls(mapobjects.MaxMapObjectsPerWrite+1))
	if core.KindOf(err) != core.KindInvalid {
		t.Fatalf("%d walls in one write: %v, want refused", mapobjects.MaxMapObjectsPerWrite+1, err)
	}
	for range mapobjects.MaxMapObjects / mapobjects.MaxMapObjectsPerWrite {
		if _, err := g.Service.AddMapObjects(ctx, testkit.MapID, "walls", walls(mapobjects.MaxMapObjectsPerWrite)); err != nil {
			t.Fatal(err)
		}
	}
	_, err = g.Service.AddMapObjects(ctx, testkit.MapID, "walls", walls(1))
	if core.KindOf(err) != core.KindInvalid {
		t.Fatalf("one wall past %d: %v, want refused", mapobjects.MaxMapObjects, err)
	}
	list, err := g.Service.MapObjects(ctx, testkit.MapID, "walls")
	if err != nil || len(list) != mapobjects.MaxMapObjects {
		t.Fatalf("walls stored: %d, %v; want %d", len(list), err, mapobjects.MaxMapObjects)
	}
}
