package routes

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestHostSettingsInteractionModes(t *testing.T) {
	e := newConsoleEnv(t)
	for _, tc := range []struct{ body, mode, remote, event string }{ // payloads: core and tests/api/realclient_test.go
		{`{"interaction": "token"}`, "token", "true", "interactionUpdated"},
		{`{"remoteInteraction": false}`, "none", "false", "interactionUpdated"},
		{`{"remoteInteraction": true}`, "all", "true", "interactionUpdated"},
		{`{"interaction": "none"}`, "none", "false", "interactionUpdated"},
	} {
		r := e.call(t, "PATCH", "/host/api/settings", tc.body)
		want := `{"remoteInteraction":` + tc.remote + `,"interaction":"` + tc.mode + `","paused":false}`
		if r.status != http.StatusOK || strings.TrimSpace(string(r.body)) != want {
			t.Fatalf("%s: %d %s, want %s", tc.body, r.status, r.body, want)
		}
		if got := e.events.Take(); !strings.Contains(got, tc.event) {
			t.Fatalf("%s: events %q, want %s", tc.body, got, tc.event)
		}
	}
	for body, msg := range map[string]string{
		`{"interaction": "some"}`:                            "must be none, token or all",
		`{"interaction": true}`:                              "settings:",
		`{"interaction": "all", "remoteInteraction": false}`: "contradicts",
	} {
		wantError(t, e.call(t, "PATCH", "/host/api/settings", body), http.StatusBadRequest, msg)
	}
	if s := e.svc.Live().Settings(); s.Interaction != core.InteractionNone {
		t.Fatalf("a refused change changed the mode to %q", s.Interaction)
	}
}
