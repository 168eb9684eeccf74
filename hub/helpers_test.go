package hub

import (
	"net/http/httptest"
	"testing"

	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/internal/testkit"
)

// tokenA is a token of the fixture campaign (testkit.SeedFixture).
const tokenA = testkit.TokenA

// hubEnv is a hub serving WebSockets on any path of a loopback server,
// over the fixture campaign in a real SQLite store with D&D 5e. No routes:
// these tests speak to the hub alone.
type hubEnv struct {
	srv    *httptest.Server
	svc    *engine.Service
	hub    *Hub
	events *testkit.EventLog
	logs   *testkit.LogBuffer
}

func newHubEnv(t testing.TB, opts Options) *hubEnv {
	t.Helper()
	g := testkit.NewGame(t, testkit.GameOptions{})
	h := New(g.Service, g.Bus, g.Log, opts)
	srv := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); srv.Close() })
	return &hubEnv{srv: srv, svc: g.Service, hub: h, events: g.Events, logs: g.Logs}
}
