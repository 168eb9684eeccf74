package engine_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
)

// ChangeContent commits the change and publishes reload with the data the
// change returned; nil data publishes nothing; a failed change leaves the
// store as it was and publishes nothing.
func TestChangeContentPublishesReloadAfterTheCommit(t *testing.T) {
	f := newSvcFixture(t, true)
	gen := f.svc.Generation()
	err := f.svc.ChangeContent(svcCtx, func(tx core.Tx) (core.Object, error) {
		return core.Object{"reason": "test"}, tx.DeleteEntity(svcFireball)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.rec.names(); len(got) != 1 || got[0] != core.EventReload {
		t.Fatalf("events %v, want one reload", got)
	}
	if f.svc.Generation() == gen {
		t.Error("the generation did not move after a committed change")
	}
	if _, err := f.svc.Entity(svcCtx, "", svcFireball); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("the deleted entity: %v", err)
	}

	f.rec.reset()
	if err := f.svc.ChangeContent(svcCtx, func(tx core.Tx) (core.Object, error) { return nil, tx.DeleteEntity(svcGoblin) }); err != nil {
		t.Fatal(err)
	}
	if got := f.rec.names(); len(got) != 0 {
		t.Fatalf("nil reload data published %v", got)
	}

	failed := errors.New("disk full")
	err = f.svc.ChangeContent(svcCtx, func(tx core.Tx) (core.Object, error) {
		if err := tx.DeleteEntity(svcHero); err != nil {
			return nil, err
		}
		return core.Object{"reason": "test"}, failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("error %v, want the change's", err)
	}
	if got := f.rec.names(); len(got) != 0 {
		t.Fatalf("a failed change published %v", got)
	}
	if _, err := f.svc.Entity(svcCtx, "", svcHero); err != nil {
		t.Fatalf("a failed change was not rolled back: %v", err)
	}
}

// The reads the importers use answer the contract's not-found wording.
func TestContentReadsNameWhatIsMissing(t *testing.T) {
	f := newSvcFixture(t, true)
	_, err := f.svc.Module(svcCtx, "nope")
	svcWantErr(t, err, core.KindNotFound, "no module with id 'nope'")
	_, err = f.svc.Campaign(svcCtx, "nope")
	svcWantErr(t, err, core.KindNotFound, "no campaign with id 'nope'")
	_, err = f.svc.Map(svcCtx, "nope")
	svcWantErr(t, err, core.KindNotFound, "no map with id 'nope'")
	if c, err := f.svc.Campaign(svcCtx, svcCampaign); err != nil || c.Name != "Demo" {
		t.Fatalf("Campaign = %v, %v", c, err)
	}
	if c, err := f.svc.PrimaryCampaignOf(svcCtx, "dnd5e"); err != nil || c.ID != svcCampaign {
		t.Fatalf("PrimaryCampaignOf(dnd5e) = %v, %v", c, err)
	}
	if _, err := f.svc.PrimaryCampaignOf(svcCtx, "other"); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("PrimaryCampaignOf(other): %v", err)
	}
	if m, err := f.svc.Map(svcCtx, svcMap); err != nil || len(m.Tokens) != 3 {
		t.Fatalf("Map keeps hidden tokens for the host: %v, %v", m, err)
	}
	if maps, err := f.svc.AllMaps(svcCtx); err != nil || len(maps) != 1 {
		t.Fatalf("AllMaps = %v, %v", maps, err)
	}
	if list, err := f.svc.Campaigns(svcCtx); err != nil || len(list) != 1 {
		t.Fatalf("Campaigns = %v, %v", list, err)
	}
	if list, err := f.svc.Modules(svcCtx); err != nil || len(list) != 0 {
		t.Fatalf("Modules = %v, %v", list, err)
	}
}

// Packages outside core change state through named service methods, not a
// raw transaction: the service exports neither its store nor its write.
func TestServiceExportsNoStoreOrRawWrite(t *testing.T) {
	svc := reflect.TypeOf(&engine.Service{})
	for _, name := range []string{"Store", "Write", "View", "Update"} {
		if _, ok := svc.MethodByName(name); ok {
			t.Errorf("engine.Service exports %s: give its callers a named method instead", name)
		}
	}
}
