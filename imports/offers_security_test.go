package imports

import (
	"context"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// A manifest from anywhere that reuses the id of a module installed from
// another manifest must not take it over: accepting it would replace the
// module's content and point its future updates at the newcomer.
func TestManifestCannotTakeOverAModuleFromAnotherSource(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, true)
	srv.put("/v1.module", batsModule(t, "1.0.0", "Cave Bat"))
	srv.put("/evil.module", batsModule(t, "9.0.0", "Evil Bat"))
	srv.put("/trusted.json", manifestJSON(t, map[string]any{"download": srv.URL + "/v1.module"}))
	srv.put("/evil.json", manifestJSON(t, map[string]any{"download": srv.URL + "/evil.module", "version": "9.0.0"}))
	m := newTestManager(t, env, srv.Client(), Limits{})

	o, _ := m.Offer(Source{Manifest: srv.URL + "/trusted.json"}, "link")
	checked(t, m, o.ID)
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	if done := settle(t, m, o.ID); done.Status != StatusInstalled {
		t.Fatalf("install: %+v", done)
	}

	o, _ = m.Offer(Source{Manifest: srv.URL + "/evil.json"}, "api 192.168.1.66")
	checked(t, m, o.ID)
	m.Accept(o.ID, "")
	done := settle(t, m, o.ID)
	if done.Status != StatusFailed || !strings.Contains(done.Error, "trusted.json") {
		t.Fatalf("takeover offer: %s %q", done.Status, done.Error)
	}
	if srv.hitCount("/evil.module") != 0 {
		t.Error("the takeover download was fetched")
	}
	env.view(t, func(tx core.Tx) error {
		mod, err := tx.Module("marsh-bats")
		if err != nil {
			return err
		}
		if mod.Version != "1.0.0" || mod.Package != srv.URL+"/trusted.json" {
			t.Errorf("module after the refused takeover: %+v", mod)
		}
		list, _ := tx.Entities(core.EntityQuery{Owner: "marsh-bats"})
		if len(list) != 1 || list[0].Name != "Cave Bat" {
			t.Errorf("entities %+v", list)
		}
		return nil
	})
	// The module's own manifest still updates it.
	srv.put("/v2.module", batsModule(t, "1.1.0", "Giant Bat"))
	srv.put("/trusted.json", manifestJSON(t, map[string]any{"download": srv.URL + "/v2.module", "version": "1.1.0"}))
	if _, err := m.UpdateModule(context.Background(), "marsh-bats", nil); err != nil {
		t.Fatal(err)
	}
}
