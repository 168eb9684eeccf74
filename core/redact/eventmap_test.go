package redact_test

import (
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// TestEventMapNamesTheMapOfEveryMapPayload: the hub hands an event about a
// map only to those looking at it (a split party), so every payload that
// is about a map must name it; one that names none goes to everyone.
func TestEventMapNamesTheMapOfEveryMapPayload(t *testing.T) {
	for name, c := range map[string]struct {
		data any
		want string
	}{
		"a token":               {&core.Token{ID: "t", MapID: "m1"}, "m1"},
		"a map":                 {&core.Map{ID: "m2"}, "m2"},
		"a map's tokens":        {&core.MapTokens{MapID: "m3"}, "m3"},
		"a fog image":           {&core.FogImage{ID: "m4"}, "m4"},
		"a drag step":           {&core.Movement{ID: "t", MapID: "m5"}, "m5"},
		"a displays' frame":     {&core.Frame{ID: "m6"}, "m6"},
		"a fit":                 {&core.ScreenMap{ID: "m7"}, "m7"},
		"a ruler's move":        {core.Object{"mapId": "m8"}, "m8"},
		"views naming it":       {redact.Views{Players: []int{1}, Map: "m9"}, "m9"},
		"the players' payload":  {redact.Views{Players: &core.Map{ID: "m10"}, Host: &core.Map{ID: "other"}}, "m10"},
		"the host's mapId":      {redact.Views{Players: []core.Object{}, Host: core.Object{"mapId": "m11"}}, "m11"},
		"host alone":            {redact.HostOnly(&core.Token{MapID: "m12"}), "m12"},
		"a message":             {&core.Message{ID: "x"}, ""},
		"a game":                {&core.Game{}, ""},
		"a pointer, unlabelled": {&core.Pointer{ID: "p"}, ""},
	} {
		if got := redact.EventMap(c.data); got != c.want {
			t.Errorf("%s: EventMap = %q, want %q", name, got, c.want)
		}
	}
}
