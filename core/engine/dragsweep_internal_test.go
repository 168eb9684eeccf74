package engine

import (
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/play"
)

// Which published events may end a drag in progress: the rule the
// service's tracker sweeps by.
func TestMayEndDrags(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  bool
	}{
		{[]string{core.EventTokenMoved, core.EventPointerUpdated, core.EventMessageCreated, core.EventClientUpdated, core.EventTrackedObjectsUpdated}, false},
		{[]string{core.EventTokenMoved, core.EventTokenUpdated}, true},
		{[]string{core.EventInteractionUpdated}, true},
		{[]string{core.EventMapUpdated}, true},
		{[]string{core.EventScreenUpdated}, true},
		{[]string{core.EventReload}, true},
		{nil, false},
	} {
		events := make([]core.Event, len(c.names))
		for i, n := range c.names {
			events[i] = core.Event{Name: n}
		}
		if got := play.MayEndDrags(events); got != c.want {
			t.Errorf("mayEndDrags(%v) = %v", c.names, got)
		}
	}
}
