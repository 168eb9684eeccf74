package engine_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/store/sqlite"
)

// mapReadCounter is a store that counts the transactions that list maps.
type mapReadCounter struct {
	core.Store
	lists atomic.Int64
}

type mapListCounter struct {
	core.Tx
	lists *atomic.Int64
}

func (t mapListCounter) Maps(owner string) ([]*core.Map, error) {
	t.lists.Add(1)
	return t.Tx.Maps(owner)
}

func (s *mapReadCounter) View(ctx context.Context, fn func(tx core.Tx) error) error {
	return s.Store.View(ctx, func(tx core.Tx) error { return fn(mapListCounter{tx, &s.lists}) })
}

func (s *mapReadCounter) Update(ctx context.Context, fn func(tx core.Tx) error) error {
	return s.Store.Update(ctx, func(tx core.Tx) error { return fn(mapListCounter{tx, &s.lists}) })
}

// newMapFilesService is a campaign with many maps, the first on the
// player screen, each with a picture of its own.
func newMapFilesService(tb testing.TB, maps int) (*engine.Service, *mapReadCounter) {
	tb.Helper()
	st, err := sqlite.Open(filepath.Join(tb.TempDir(), "companion.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	err = st.Update(context.Background(), func(tx core.Tx) error {
		c := &core.Campaign{ID: "camp", System: "dnd5e", Name: "Demo", Primary: true}
		c.Normalize()
		if err := tx.PutCampaign(c); err != nil {
			return err
		}
		if err := tx.PutModule(&core.Module{ID: "mod", Name: "Maps", Version: "1.0.0", System: "dnd5e"}); err != nil {
			return err
		}
		for i := range maps {
			m := &core.Map{ID: fmt.Sprintf("map-%d", i), Name: "Map", Owner: "mod", Image: fmt.Sprintf("/modules/mod/maps/%d.jpg", i)}
			m.Normalize()
			if err := tx.PutMap(m); err != nil {
				return err
			}
		}
		return tx.PutScreen("camp", &core.Screen{MapID: "map-0"})
	})
	if err != nil {
		tb.Fatal(err)
	}
	counter := &mapReadCounter{Store: st}
	return engine.NewService(engine.ServiceConfig{Store: counter, Events: core.NewBus(), Rules: svcRules{}}), counter
}

// A media request asks an index of the maps' files, not the maps: they
// are listed once, again only after a write that touched a map, and not
// after other writes (a token's move is the most frequent).
func TestMapFileShownReadsTheMapsOnce(t *testing.T) {
	svc, counter := newMapFilesService(t, 20)
	ctx := context.Background()
	shown := func(path string, want bool) {
		t.Helper()
		got, err := svc.MapFileShown(ctx, path, "")
		if err != nil || got != want {
			t.Fatalf("MapFileShown(%s) = %v, %v; want %v", path, got, err, want)
		}
	}
	for range 3 {
		shown("/modules/mod/maps/0.jpg", true)
		shown("/modules/mod/maps/7.jpg", false)
		shown("/modules/mod/token.png", true)
	}
	if n := counter.lists.Load(); n != 1 {
		t.Fatalf("nine media requests listed the maps %d times, want once", n)
	}
	if _, err := svc.ShowMap(ctx, "map-7"); err != nil {
		t.Fatal(err)
	}
	shown("/modules/mod/maps/7.jpg", true)
	shown("/modules/mod/maps/0.jpg", false)
	before := counter.lists.Load()
	if _, err := svc.CreateMap(ctx, core.NewMap{Name: "Token art", Width: 70, Height: 70, Image: "/modules/mod/token.png"}); err != nil {
		t.Fatal(err)
	}
	shown("/modules/mod/token.png", false)
	shown("/modules/mod/maps/7.jpg", true)
	if n := counter.lists.Load() - before; n != 1 {
		t.Fatalf("after a map was made the maps were listed %d times, want once", n)
	}
}

// BenchmarkMapFileShown is one media request against 500 module maps,
// with the index warm (the common case: a page loading its art).
func BenchmarkMapFileShown(b *testing.B) {
	svc, _ := newMapFilesService(b, 500)
	ctx := context.Background()
	for b.Loop() {
		if _, err := svc.MapFileShown(ctx, "/modules/mod/maps/250.jpg", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMapFileShownFloor lists the 500 maps once per request, what a
// media request would cost without the index: the floor the benchmark
// above is read against, in the same run.
func BenchmarkMapFileShownFloor(b *testing.B) {
	_, counter := newMapFilesService(b, 500)
	ctx := context.Background()
	for b.Loop() {
		err := counter.View(ctx, func(tx core.Tx) error {
			_, err := tx.Maps("")
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
