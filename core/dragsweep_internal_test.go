package core

import "testing"

// Which published events may end a drag in progress: the rule the
// service's tracker sweeps by.
func TestMayEndDrags(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  bool
	}{
		{[]string{EventTokenMoved, EventPointerUpdated, EventMessageCreated, EventClientUpdated, EventTrackedObjectsUpdated}, false},
		{[]string{EventTokenMoved, EventTokenUpdated}, true},
		{[]string{EventInteractionUpdated}, true},
		{[]string{EventMapUpdated}, true},
		{[]string{EventScreenUpdated}, true},
		{[]string{EventReload}, true},
		{nil, false},
	} {
		events := make([]Event, len(c.names))
		for i, n := range c.names {
			events[i] = Event{Name: n}
		}
		if got := mayEndDrags(events); got != c.want {
			t.Errorf("mayEndDrags(%v) = %v", c.names, got)
		}
	}
}
