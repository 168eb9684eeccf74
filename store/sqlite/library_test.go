package sqlite

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestPagesRoundTripAndListWithoutContent(t *testing.T) {
	s := newStore(t)
	put(t, s, testModule("m1"),
		&core.Page{ID: "p2", Name: "Beta", Slug: "beta", Format: "markdown", Content: "# B", Rank: 1, ParentID: "g1", Owner: "m1"},
		&core.Page{ID: "p1", Name: "Alpha", Slug: "alpha", Format: "html", Content: "<p>a</p>", Rank: 1, Owner: "m1"},
		&core.Page{ID: "p0", Name: "Zed", Slug: "alpha", Format: "html", Content: "<p>z</p>", Rank: 0, Owner: "m2"})
	view(t, s, func(tx core.Tx) error {
		p, err := tx.Page("p2")
		if err != nil {
			return err
		}
		if p.Content != "# B" || p.Format != "markdown" || p.ParentID != "g1" || p.Owner != "m1" || p.Revision != 1 {
			t.Errorf("page %+v", p)
		}
		heads, err := tx.Pages(core.PageQuery{Owner: "m1"})
		if err != nil {
			return err
		}
		if len(heads) != 2 || heads[0].ID != "p1" || heads[1].ID != "p2" || heads[0].Content != "" {
			t.Errorf("heads %+v", heads)
		}
		bySlug, err := tx.Pages(core.PageQuery{Slug: "alpha", Content: true})
		if err != nil {
			return err
		}
		if len(bySlug) != 2 || bySlug[0].ID != "p0" || bySlug[1].Content != "<p>a</p>" {
			t.Errorf("by slug %+v", bySlug)
		}
		_, err = tx.Page("nope")
		wantNotFound(t, err, "page", "nope")
		return nil
	})
}

func TestEncountersGroupsAssetsRoundTrip(t *testing.T) {
	s := newStore(t)
	x, y := 10.0, 20.0
	enc := &core.Encounter{ID: "e1", Name: "Ambush", Slug: "ambush", MapID: "map1", Owner: "m1",
		Combatants: []core.EncounterCreature{{Reference: "/monster/goblin", Count: 3, X: &x, Y: &y, Label: "G"}}}
	put(t, s, enc, &core.Group{ID: "g2", Name: "B", Slug: "b", Rank: 2, Owner: "m1"}, &core.Group{ID: "g1", Name: "A", Slug: "a", Rank: 2, ParentID: "g2", Owner: "m1"},
		&core.Asset{ID: "a1", Name: "Tent", Slug: "tent", Resource: "/modules/m1/tent.png", Tags: []string{"camp"}, Owner: "m1"})
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Encounter("e1")
		if err != nil {
			return err
		}
		got.Revision = 0
		enc.Revision = 0
		if !reflect.DeepEqual(got, enc) {
			t.Errorf("encounter %+v, want %+v", got, enc)
		}
		groups, err := tx.Groups("m1")
		if err != nil {
			return err
		}
		if len(groups) != 2 || groups[0].ID != "g1" || groups[0].ParentID != "g2" {
			t.Errorf("groups %+v", groups)
		}
		assets, err := tx.Assets("")
		if err != nil {
			return err
		}
		if len(assets) != 1 || assets[0].Resource != "/modules/m1/tent.png" || assets[0].Owner != "m1" {
			t.Errorf("assets %+v", assets)
		}
		return nil
	})
	update(t, s, func(tx core.Tx) error { return tx.DeleteGroup("g1") })
	update(t, s, func(tx core.Tx) error {
		wantNotFound(t, tx.DeleteGroup("g1"), "group")
		return nil
	})
}

// A page shown in a campaign stays shown until hidden, and the show goes
// with the page (a module deleted) or with the campaign.
func TestPageShowsFollowPagesAndCampaigns(t *testing.T) {
	s := newStore(t)
	put(t, s, testModule("m1"), testCampaign("c1"), testCampaign("c2"),
		&core.Page{ID: "p1", Name: "A", Slug: "a", Owner: "m1"}, &core.Page{ID: "p2", Name: "B", Slug: "b", Owner: "c1"})
	update(t, s, func(tx core.Tx) error {
		for _, show := range [][3]string{{"c1", "p1", ""}, {"c1", "p2", "intro"}, {"c1", "p2", "intro"}, {"c1", "p2", "end"}, {"c2", "p1", "x"}} {
			if err := tx.AddPageShow(show[0], show[1], show[2]); err != nil {
				return err
			}
		}
		wantNotFound(t, tx.AddPageShow("c1", "nope", ""), "page")
		wantNotFound(t, tx.AddPageShow("nope", "p1", ""), "campaign")
		return nil
	})
	shows := func(c string) []core.PageShow {
		var out []core.PageShow
		view(t, s, func(tx core.Tx) error {
			var err error
			out, err = tx.PageShows(c)
			return err
		})
		return out
	}
	if got, want := shows("c1"), []core.PageShow{{PageID: "p1"}, {PageID: "p2", Section: "intro"}, {PageID: "p2", Section: "end"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("c1 shows %v, want %v", got, want)
	}
	update(t, s, func(tx core.Tx) error { return tx.DeletePageShows("c1", "p2") })
	if got := shows("c1"); len(got) != 1 {
		t.Fatalf("after hiding p2: %v", got)
	}
	update(t, s, func(tx core.Tx) error { return tx.DeleteModule("m1") })
	if got := shows("c1"); len(got) != 0 {
		t.Errorf("the module's page is gone but its show stays: %v", got)
	}
	if got := shows("c2"); len(got) != 0 {
		t.Errorf("c2: %v", got)
	}
	checkNoOrphans(t, s)
}

// A database of schema version 1 (before adventures) migrates with its
// content kept, and deleting its modules then deletes their pages.
func TestMigrationTwoKeepsContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "companion.db")
	opt := defaultOptions()
	opt.migrations = migrations[:1]
	old, _, err := open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	put(t, old, testModule("m1"), testEntity("e1", "monster", "Goblin", "m1"))
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	opt.migrations = migrations[:2]
	s, applied, err := open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !reflect.DeepEqual(applied, []int{2}) {
		t.Fatalf("applied %v", applied)
	}
	put(t, s, &core.Page{ID: "p1", Name: "A", Slug: "a", Owner: "m1"})
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Entity("e1")
		return err
	})
	update(t, s, func(tx core.Tx) error { return tx.DeleteModule("m1") })
	if left := rowsOf(t, s, "m1"); len(left) != 0 {
		t.Fatalf("left after the migrated trigger: %v", left)
	}
}
