package engine_test

import (
	"context"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// Fog changes on a map the GM prepares off screen reach the host alone;
// once the map is on the player screen, players get them too.
func TestSetFogReachesPlayersOnlyForTheMapOnScreen(t *testing.T) {
	f := newLiveFixture(t)
	f.clearScreen(t)
	ctx := context.Background()
	on := true
	if _, err := f.svc.SetFog(ctx, liveMapID, "", []byte("png"), &on); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventMapUpdated, core.EventFogUpdated)
	for _, e := range events {
		if redact.PlayersView(e.Data) != nil {
			t.Errorf("%s of an off-screen map reaches players", e.Name)
		}
		if redact.HostView(e.Data) == nil {
			t.Errorf("%s does not reach the host", e.Name)
		}
	}

	if _, err := f.svc.ShowMap(ctx, liveMapID); err != nil {
		t.Fatal(err)
	}
	f.events.take()
	off := false
	if _, err := f.svc.SetFog(ctx, liveMapID, "", []byte("png"), &off); err != nil {
		t.Fatal(err)
	}
	events = f.events.take()
	wantNames(t, events, core.EventMapUpdated, core.EventFogUpdated)
	for _, e := range events {
		if redact.PlayersView(e.Data) == nil {
			t.Errorf("%s of the map on screen does not reach players", e.Name)
		}
	}
}
