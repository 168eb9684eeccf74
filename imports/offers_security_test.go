package imports

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

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

// The attack of issue 32: POST /api/import fetches an offer's manifest at
// once, and an offer whose fetch failed freed its address's place, so one
// address made the device fetch a hundred URLs of its loopback and its
// network in five seconds (and learned, from which places came back, what
// answered). Now an offer counts for its address until the person at the
// device acts on it, whatever its fetch found: five fetches, and the
// answers the offerer gets say nothing of what the fetches found.
func TestAnOfferFloodFetchesNoMoreThanItsPlaces(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, false) // a service of the game master's network
	srv.put("/real.json", manifestJSON(t, map[string]any{"download": srv.URL + "/real.module"}))
	m := newTestManager(t, env, srv.Client(), Limits{})
	answers := map[bool][]string{} // by whether the target answers
	for i := range 100 {
		path := "/closed" + itoa(i) + ".json" // 404: nothing there
		if i%2 == 1 {
			path = "/real.json"
		}
		o, err := m.OfferFrom(Source{Manifest: srv.URL + path}, "10.0.0.9")
		answer := "accepted"
		if err != nil {
			answer = core.MessageOf(err)
		} else {
			checked(t, m, o.ID) // the attacker waits for the fetch to end
		}
		answers[i%2 == 1] = append(answers[i%2 == 1], answer)
	}
	fetches := 0
	for _, o := range m.Offers() {
		if o.Manifest != "" {
			fetches++
		}
	}
	hits := srv.hitCount("/real.json")
	for i := range 100 {
		hits += srv.hitCount("/closed" + itoa(i) + ".json")
	}
	if hits != DefaultMaxOffersPerAddress || fetches != DefaultMaxOffersPerAddress {
		t.Fatalf("one address made the device fetch %d manifests (%d offers listed), want %d", hits, fetches, DefaultMaxOffersPerAddress)
	}
	// The same answers whether the fetch found something or not.
	for i := range answers[true] {
		if i < len(answers[false]) && i > 2 && answers[true][i] != answers[false][i] {
			t.Fatalf("request %d answered %q for a target that answers, %q for one that does not", i, answers[true][i], answers[false][i])
		}
	}
	// The person at the device acts on one (a failed one, dismissed):
	// its place is free again.
	for _, o := range m.Offers() {
		if o.Status == StatusFailed {
			if err := m.Dismiss(o.ID); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if _, err := m.OfferFrom(Source{Manifest: srv.URL + "/real.json"}, "10.0.0.9"); err != nil {
		t.Fatalf("after the person acted: %v", err)
	}
}

// An offer's manifest is fetched under a short timeout and a small size
// cap: anyone on the network may make the device fetch it.
func TestAnOffersManifestFetchIsShortAndSmall(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, false)
	srv.put("/big.json", []byte(`{"id":"x","name":"`+strings.Repeat("x", 200<<10)+`"}`))
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv.handle("/slow.json", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	m := newTestManager(t, env, srv.Client(), Limits{OfferManifestTimeout: 300 * time.Millisecond})
	for path, want := range map[string]string{"/big.json": "larger than 131072 bytes", "/slow.json": "did not answer within 300ms"} {
		start := time.Now()
		o, err := m.OfferFrom(Source{Manifest: srv.URL + path}, "10.0.0.20")
		if err != nil {
			t.Fatal(err)
		}
		o = checked(t, m, o.ID)
		if o.Status != StatusFailed || !strings.Contains(o.Error, want) {
			t.Errorf("%s: %s %q, want failed with %q", path, o.Status, o.Error, want)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%s: the check took %v", path, took)
		}
	}
}
