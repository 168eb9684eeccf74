package imports

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/download"
)

// A manifest fetched over https that points its download at plain http is
// the same downgrade as a redirect from https to http: a public page would
// make the device fetch from its own local network.
func TestManifestOverHTTPSCannotPointAtPlainHTTP(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, true)
	plain := newContentServer(t, false) // http on 127.0.0.1: local, allowed on its own
	plain.put("/bats.module", batsModule(t, "1.0.0", "Cave Bat"))
	srv.put("/manifest.json", manifestJSON(t, map[string]any{"download": plain.URL + "/bats.module"}))
	m := newTestManager(t, env, srv.Client(), Limits{})
	o, err := m.Offer(Source{Manifest: srv.URL + "/manifest.json"}, "link")
	if err != nil {
		t.Fatal(err)
	}
	o = checked(t, m, o.ID)
	if o.Status != StatusFailed || !strings.Contains(o.Error, "https") {
		t.Fatalf("offer %s %q, want failed over the downgrade", o.Status, o.Error)
	}
	if plain.hitCount("/bats.module") != 0 {
		t.Error("the plain http download was fetched")
	}
	// A manifest served over local http may name a local http download.
	plain.put("/manifest.json", manifestJSON(t, map[string]any{"download": plain.URL + "/bats.module"}))
	if _, err := FetchPackage(context.Background(), &download.Fetcher{}, plain.URL+"/manifest.json", Limits{}); err != nil {
		t.Errorf("local http manifest with local http download: %v", err)
	}
}

// Every hop of a redirect chain is checked, not only the first and last.
func TestRedirectChainIsCheckedAtEveryHop(t *testing.T) {
	srv := newContentServer(t, true)
	plain := newContentServer(t, false)
	plain.put("/secret", []byte("router admin page"))
	srv.handle("/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/b", http.StatusFound) })
	srv.handle("/b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/c", http.StatusTemporaryRedirect) })
	srv.handle("/c", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/secret", http.StatusMovedPermanently)
	})
	plain.handle("/to-public", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.org/x.module", http.StatusFound)
	})
	f := &download.Fetcher{Client: srv.Client()}
	var buf bytes.Buffer
	_, err := f.Fetch(context.Background(), srv.URL+"/a", 1<<20, 5*time.Second, &buf, nil)
	wantKind(t, err, core.KindInvalid, "redirect from https to plain http")
	if plain.hitCount("/secret") != 0 || buf.Len() != 0 {
		t.Error("the downgraded target was fetched")
	}
	_, err = (&download.Fetcher{}).Fetch(context.Background(), plain.URL+"/to-public", 1<<20, 5*time.Second, &buf, nil)
	wantKind(t, err, core.KindInvalid, "Plain http can only be used for a source on the local network, not 'example.org'.")
}

// A server that trickles one byte at a time, forever, is stopped by the
// overall timeout: no read deadline is reset by each byte.
func TestSlowlorisServerIsStoppedByTheOverallTimeout(t *testing.T) {
	srv := newContentServer(t, false)
	trickle := func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	srv.handle("/trickle.module", trickle)
	srv.handle("/trickle.json", trickle)
	srv.handle("/no-headers", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	f := &download.Fetcher{}
	for _, path := range []string{"/trickle.module", "/no-headers"} {
		start := time.Now()
		var buf bytes.Buffer
		_, err := f.Fetch(context.Background(), srv.URL+path, 1<<30, 300*time.Millisecond, &buf, nil)
		wantKind(t, err, core.KindInvalid, "did not answer within")
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: stopped after %v", path, d)
		}
	}
	start := time.Now()
	_, err := FetchPackage(context.Background(), f, srv.URL+"/trickle.json", Limits{ManifestTimeout: 300 * time.Millisecond})
	wantKind(t, err, core.KindInvalid, "did not answer within")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("manifest: stopped after %v", d)
	}
}

func TestSHA256MismatchNamesBothDigests(t *testing.T) {
	want := strings.Repeat("ab", 32)
	got := strings.Repeat("cd", 32)
	err := download.CheckSHA256(want, got)
	wantKind(t, err, core.KindInvalid, want)
	if !strings.Contains(err.Error(), got) {
		t.Errorf("%v", err)
	}
	if download.CheckSHA256(strings.ToUpper(got), got) != nil {
		t.Error("an upper-case digest does not match")
	}
	// A digest of another length never matches (no prefix match).
	if download.CheckSHA256(got[:10], got) == nil {
		t.Error("a truncated digest matched")
	}
}
