package imports

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestSeedInstallsCompendiumAndPrimaryCampaign(t *testing.T) {
	env := newTestEnv(t)
	ctx := context.Background()
	if err := Seed(ctx, env.svc, env.dataDir, os.DirFS("testdata/sample"), testCollections{}); err != nil {
		t.Fatal(err)
	}
	env.view(t, func(tx core.Tx) error {
		m, err := tx.Module("test-compendium")
		if err != nil {
			return err
		}
		if m.Version != "1.0.0" || m.Slug != "test-compendium" || m.Image != "cover.png" {
			t.Errorf("module defaults: %+v", m)
		}
		monsters, _ := tx.Entities(core.EntityQuery{Kind: "monster"})
		if len(monsters) != 2 {
			t.Fatalf("monsters: %d", len(monsters))
		}
		g, err := tx.Entity("0F6A2C4E-1B7D-4E2A-9C3B-7D5E8F9A0B1C")
		if err != nil {
			return err
		}
		if g.Owner != "test-compendium" || g.System != "dnd5e" || g.Image != "/modules/test-compendium/monsters/goblin.png" {
			t.Errorf("goblin: owner %q system %q image %q", g.Owner, g.System, g.Image)
		}
		spells, _ := tx.Entities(core.EntityQuery{Kind: "spell"})
		if len(spells) != 1 {
			t.Errorf("spells: %d", len(spells))
		}
		all, _ := tx.Entities(core.EntityQuery{Owner: "test-compendium"})
		if len(all) != 3 {
			t.Errorf("vehicles.json is not a collection of the system and must be ignored; got %d entities", len(all))
		}

		c, err := tx.PrimaryCampaign("dnd5e")
		if err != nil {
			return err
		}
		if c.ID != "C0FFEE00-0000-4000-8000-000000000001" || c.Name != "Salt Marsh Nights" {
			t.Errorf("primary campaign: %+v", c)
		}
		game, err := tx.Game(c.ID)
		if err != nil {
			return err
		}
		if !game.Started || game.Round != 2 || game.CombatantID != "DDDD0000-0000-4000-8000-000000000002" {
			t.Errorf("game: %+v", game)
		}
		combatants, _ := tx.Combatants(c.ID)
		if len(combatants) != 2 || combatants[0].Name != "Wren" {
			t.Errorf("combatants: %+v", combatants)
		}
		screen, _ := tx.Screen(c.ID)
		if screen.MapID != "AAAA0000-0000-4000-8000-000000000001" {
			t.Errorf("screen: %+v", screen)
		}
		msgs, _ := tx.RecentMessages(c.ID, 30)
		if len(msgs) != 1 || msgs[0].Text != "Welcome to the marsh." {
			t.Errorf("messages: %+v", msgs)
		}
		mp, err := tx.Map("AAAA0000-0000-4000-8000-000000000001")
		if err != nil {
			return err
		}
		if mp.Owner != c.ID || mp.Image != "/campaigns/"+c.ID+"/maps/cave.png" || len(mp.Tokens) != 1 || len(mp.Walls) != 1 {
			t.Errorf("map: owner %q image %q tokens %d walls %d", mp.Owner, mp.Image, len(mp.Tokens), len(mp.Walls))
		}
		return nil
	})
	mustExist(t, filepath.Join(env.dataDir, "modules/test-compendium/monsters/goblin.png"))
	mustExist(t, filepath.Join(env.dataDir, "campaigns/C0FFEE00-0000-4000-8000-000000000001/maps/cave.png"))
	if entries, _ := os.ReadDir(filepath.Join(env.dataDir, ".staging")); len(entries) != 0 {
		t.Errorf("staging folder not emptied: %v", entries)
	}

	// A second start finds content and seeds nothing more.
	if err := Seed(ctx, env.svc, env.dataDir, os.DirFS("testdata/sample"), testCollections{}); err != nil {
		t.Fatal(err)
	}
	if m, c, _, _ := env.counts(t); m != 1 || c != 1 {
		t.Errorf("second seed: %d modules, %d campaigns", m, c)
	}
}

func TestSeedWithoutSampleSeedsNothing(t *testing.T) {
	env := newTestEnv(t)
	if err := Seed(context.Background(), env.svc, env.dataDir, nil, testCollections{}); err != nil {
		t.Fatal(err)
	}
	if err := Seed(context.Background(), env.svc, env.dataDir, os.DirFS(t.TempDir()), testCollections{}); err != nil {
		t.Fatal(err)
	}
	if m, c, e, _ := env.counts(t); m+c+e != 0 {
		t.Errorf("seeded %d modules %d campaigns %d entities", m, c, e)
	}
}

func TestSeedBadSampleLeavesNothing(t *testing.T) {
	env := newTestEnv(t)
	bad := t.TempDir()
	os.MkdirAll(filepath.Join(bad, "compendium"), 0o755)
	os.WriteFile(filepath.Join(bad, "compendium/module.json"), []byte(`{"name":"X","color":"red"}`), 0o644)
	err := Seed(context.Background(), env.svc, env.dataDir, os.DirFS(bad), testCollections{})
	wantKind(t, err, core.KindInvalid, "color")
	if files := env.dataFiles(t); len(files) != 0 {
		t.Errorf("files left behind: %v", files)
	}
}
