package engine_test

import (
	"context"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

func ptr[T any](v T) *T { return &v }

func TestSettingsInteractionModesAndBareEvents(t *testing.T) {
	f := newLiveFixture(t)
	ctx := context.Background()
	if s := f.svc.Live().Settings(); s.Interaction != core.InteractionAll || !s.RemoteInteraction {
		t.Fatalf("default settings %+v, want all", s)
	}
	for _, tc := range []struct {
		patch  kernel.SettingsPatch
		mode   string
		remote bool
	}{
		{kernel.SettingsPatch{Interaction: ptr(core.InteractionToken)}, "token", true},
		{kernel.SettingsPatch{RemoteInteraction: ptr(false)}, "none", false},
		{kernel.SettingsPatch{RemoteInteraction: ptr(true)}, "all", true},
		{kernel.SettingsPatch{Interaction: ptr(core.InteractionNone), RemoteInteraction: ptr(false)}, "none", false},
	} {
		s, err := f.svc.UpdateSettings(ctx, tc.patch)
		if err != nil {
			t.Fatal(err)
		}
		if s.Interaction != tc.mode || s.RemoteInteraction != tc.remote {
			t.Fatalf("settings %+v, want %s/%v", s, tc.mode, tc.remote)
		}
		events := f.events.take()
		wantNames(t, events, core.EventInteractionUpdated)
		wantJSON(t, "interactionUpdated", events[0].Data, `"`+tc.mode+`"`)
	}
	if _, err := f.svc.UpdateSettings(ctx, kernel.SettingsPatch{Paused: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventSystemPaused)
	wantJSON(t, "systemPaused", events[0].Data, `true`)
}

func TestSettingsRefusesBadInteractionAndChangesNothing(t *testing.T) {
	f := newLiveFixture(t)
	for name, p := range map[string]kernel.SettingsPatch{
		"unknown mode":  {Interaction: ptr("some"), Paused: ptr(true)},
		"boolean mode":  {Interaction: ptr("true")},
		"contradiction": {Interaction: ptr(core.InteractionNone), RemoteInteraction: ptr(true), Paused: ptr(true)},
	} {
		if _, err := f.svc.UpdateSettings(context.Background(), p); core.KindOf(err) != core.KindInvalid {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
	if s := f.svc.Live().Settings(); s.Interaction != core.InteractionAll || s.Paused {
		t.Fatalf("a refused change changed the settings: %+v", s)
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("a refused change was broadcast: %v", eventNames(events))
	}
}

func TestNewLiveKeepsModeAndBooleanInStep(t *testing.T) {
	for _, tc := range []struct {
		in   core.Settings
		mode string
		on   bool
	}{
		{core.Settings{RemoteInteraction: true}, "all", true},
		{core.Settings{}, "none", false},
		{core.Settings{Interaction: "token"}, "token", true},
		{core.Settings{Interaction: "none", RemoteInteraction: true}, "none", false},
	} {
		s := kernel.NewLive(tc.in).Settings()
		if s.Interaction != tc.mode || s.RemoteInteraction != tc.on {
			t.Errorf("NewLive(%+v) = %+v, want %s/%v", tc.in, s, tc.mode, tc.on)
		}
	}
}

func TestScreenCarriesWhatTheRealClientReads(t *testing.T) {
	f := newLiveFixture(t)
	if _, err := f.svc.UpdateSettings(context.Background(), kernel.SettingsPatch{Interaction: ptr(core.InteractionToken)}); err != nil {
		t.Fatal(err)
	}
	snap, err := f.svc.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "screen", snap.Screen, `{"mapId":"map-1","interaction":"token","sharedVision":"always","overlayImage":"","overlayHandoutText":"",
		"overlayHandoutStyle":"","width":0,"height":0,"tableTopMode":false,"scrollLock":false,"fog":false,"remoteInteraction":true}`)
	for _, v := range []string{"never", "partial", "always"} {
		s := core.Screen{SharedVision: v}
		s.Normalize()
		if s.SharedVision != v {
			t.Errorf("sharedVision %q became %q", v, s.SharedVision)
		}
	}
}

func TestParseInteraction(t *testing.T) {
	for in, want := range map[string]string{"none": "none", "TOKEN": "token", " all ": "all", "true": "all", "false": "none"} {
		if got, ok := core.ParseInteraction(in); !ok || got != want {
			t.Errorf("ParseInteraction(%q) = %q, %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := core.ParseInteraction("some"); ok {
		t.Error("ParseInteraction accepted 'some'")
	}
}
