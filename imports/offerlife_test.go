package imports

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestFailedOfferIsOneStateAndCanBeRetriedOrDismissed(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, false)
	var logs bytes.Buffer
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: testCollections{},
		Log: slog.New(slog.NewTextHandler(&logs, nil))})
	defer m.Close()

	// The download fails: nothing is served yet.
	o, err := m.Offer(Source{URL: srv.URL + "/bats.module"}, "link")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	failed := settle(t, m, o.ID)
	if failed.Status != StatusFailed || failed.Error == "" || failed.Checking || failed.Progress != (Transfer{Total: -1}) || failed.Result != nil {
		t.Fatalf("failed offer %+v: want one clear failed state with its reason", failed)
	}
	if !strings.Contains(logs.String(), "import offer failed") || !strings.Contains(logs.String(), o.ID) {
		t.Fatalf("the failure is not logged: %q", logs.String())
	}

	// Retried once the file is there, it installs.
	srv.put("/bats.module", batsModule(t, "1.0.0", "Cave Bat"))
	again, err := m.Retry(o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.Status != StatusPending || again.Error != "" {
		t.Fatalf("retried offer %+v", again)
	}
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	if done := settle(t, m, o.ID); done.Status != StatusInstalled {
		t.Fatalf("after retry: %+v", done)
	}
	_, err = m.Retry(o.ID)
	wantKind(t, err, core.KindConflict, "only a failed offer")

	// Dismissed, it leaves the list; a pending one is declined first.
	if err := m.Dismiss(o.ID); err != nil {
		t.Fatal(err)
	}
	pending, _ := m.Offer(Source{URL: srv.URL + "/bats.module"}, "link")
	if err := m.Dismiss(pending.ID); err != nil {
		t.Fatal(err)
	}
	if list := m.Offers(); len(list) != 0 {
		t.Fatalf("offers after dismissing: %+v", list)
	}
	wantKind(t, m.Dismiss(o.ID), core.KindNotFound, "no import offer")

	// One being downloaded stays.
	release := make(chan struct{})
	srv.handle("/slow.module", func(w http.ResponseWriter, r *http.Request) { <-release })
	slow, _ := m.Offer(Source{URL: srv.URL + "/slow.module"}, "link")
	if _, err := m.Accept(slow.ID, ""); err != nil {
		t.Fatal(err)
	}
	wantKind(t, m.Dismiss(slow.ID), core.KindConflict, "downloading")
	close(release)
	settle(t, m, slow.ID)
}
