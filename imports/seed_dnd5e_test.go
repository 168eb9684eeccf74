package imports

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/examples/dnd5e"
)

// dnd5eCollections are the collection labels the shipped system declares.
type dnd5eCollections struct{}

func (dnd5eCollections) SystemID() string { return "dnd5e" }
func (dnd5eCollections) KindForCollection(label string) (string, bool) {
	kind, ok := map[string]string{"monsters": "monster", "spells": "spell", "items": "item", "characters": "character"}[label]
	return kind, ok
}

// The shipped system's sample seeds cleanly: on the critical path of a
// first `companion serve`.
func TestSeedShippedDnd5eSample(t *testing.T) {
	sample, err := fs.Sub(dnd5e.FS, "sample")
	if err != nil {
		t.Fatal(err)
	}
	env := newTestEnv(t)
	if err := Seed(context.Background(), env.svc, env.dataDir, sample, dnd5eCollections{}); err != nil {
		t.Fatal(err)
	}
	modules, campaigns, entities, maps := env.counts(t)
	if modules != 1 || campaigns != 1 || entities == 0 || maps == 0 {
		t.Errorf("%d modules %d campaigns %d entities %d maps", modules, campaigns, entities, maps)
	}
	env.view(t, func(tx core.Tx) error {
		c, err := tx.PrimaryCampaign("dnd5e")
		if err != nil {
			return err
		}
		combatants, _ := tx.Combatants(c.ID)
		if len(combatants) == 0 {
			t.Error("no combatants seeded")
		}
		return nil
	})
}

// The sample campaign carries a second fight as library content: the
// encounter's every creature names a monster of the sample compendium
// (none would run by name alone), stands on its map, and the eel waits
// hidden; the page that introduces it is the game master's until shown.
func TestSeedShippedDnd5eSampleEncounter(t *testing.T) {
	sample, err := fs.Sub(dnd5e.FS, "sample")
	if err != nil {
		t.Fatal(err)
	}
	env := newTestEnv(t)
	ctx := context.Background()
	if err := Seed(ctx, env.svc, env.dataDir, sample, dnd5eCollections{}); err != nil {
		t.Fatal(err)
	}
	enc, err := env.svc.Encounter(ctx, "5e0ca000-0000-4000-8000-000000000720")
	if err != nil {
		t.Fatal(err)
	}
	m, err := env.svc.Map(ctx, enc.MapID)
	if err != nil {
		t.Fatalf("the encounter's map: %v", err)
	}
	creatures, hidden := 0, 0
	for _, c := range enc.Combatants {
		slug := strings.TrimPrefix(c.Reference, "/monster/")
		if slug == c.Reference {
			t.Errorf("%+v does not name a monster", c)
			continue
		}
		if _, err := env.svc.EntityByReference(ctx, "monster", slug); err != nil {
			t.Errorf("%s is not in the sample: %v", c.Reference, err)
		}
		if !c.Placed() || *c.X > float64(m.Width) || *c.Y > float64(m.Height) {
			t.Errorf("%s stands off its map (%vx%v)", c.Reference, m.Width, m.Height)
		}
		n := max(c.Count, 1)
		creatures += n
		if c.Hidden {
			hidden += n
		}
	}
	if creatures != 5 || hidden != 1 {
		t.Errorf("%d creatures, %d hidden; want 5 and the eel hidden", creatures, hidden)
	}
	pages, err := env.svc.Pages(ctx, m.Owner)
	if err != nil || len(pages) != 1 || pages[0].Slug != "the-flooded-font" {
		t.Fatalf("the campaign's pages: %v %v", pages, err)
	}
}
