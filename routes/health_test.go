package routes

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vttapp/companion/core"
)

// TestHealthAnswers: liveness answers without touching anything, readiness
// reads the store and names the loaded system; both on both listeners.
func TestHealthAnswers(t *testing.T) {
	e := newEnv(t, envOptions{})
	host := httptest.NewServer(NewHostHandler(Config{Service: e.svc, Systems: e.holder}))
	t.Cleanup(host.Close)
	for name, base := range map[string]string{"public": e.srv.URL, "host": host.URL} {
		t.Run(name, func(t *testing.T) {
			live := get(t, base+"/api/-/live")
			if live.status != http.StatusOK || live.json(t)["status"] != "ok" || live.json(t)["app"] != "companion" {
				t.Fatalf("live: %d %s", live.status, live.body)
			}
			ready := get(t, base+"/api/-/ready")
			body := ready.json(t)
			if ready.status != http.StatusOK || body["status"] != "ready" || body["system"] != "dnd5e" ||
				body["version"] != core.Version || body["build"] != float64(core.Build) {
				t.Fatalf("ready: %d %s", ready.status, ready.body)
			}
			if cc := ready.header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("ready Cache-Control %q, want no-store (a cached health answer says nothing)", cc)
			}
		})
	}
	// The contract's paths around it still answer as before.
	if r := e.do(t, http.MethodGet, "/api/monsters", ""); r.status != http.StatusOK {
		t.Fatalf("/api/monsters: %d", r.status)
	}
}

// TestHealthNotReadyWhenTheStoreFails: a store that cannot be read makes
// readiness 503 with a message, while liveness still answers 200.
func TestHealthNotReadyWhenTheStoreFails(t *testing.T) {
	e := newEnv(t, envOptions{})
	if err := e.store.Close(); err != nil {
		t.Fatal(err)
	}
	ready := e.do(t, http.MethodGet, "/api/-/ready", "")
	if ready.status != http.StatusServiceUnavailable || ready.json(t)["message"] != "not ready: the store does not answer" {
		t.Fatalf("ready with a closed store: %d %s", ready.status, ready.body)
	}
	if live := e.do(t, http.MethodGet, "/api/-/live", ""); live.status != http.StatusOK {
		t.Fatalf("live with a closed store: %d %s", live.status, live.body)
	}
}

func get(t *testing.T, url string) reply {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: body}
}
