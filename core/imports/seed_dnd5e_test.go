package imports

import (
	"context"
	"io/fs"
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
