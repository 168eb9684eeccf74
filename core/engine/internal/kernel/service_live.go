package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
)

// UpdateSettings applies a settings change and tells clients what changed:
// interactionUpdated for remote interaction, systemPaused for pause. Each
// carries the bare new value, as the real web client reads it: the mode
// string ("none", "token", "all") and the boolean. A change that is not
// valid changes nothing.
func (s *Kernel) UpdateSettings(ctx context.Context, p SettingsPatch) (core.Settings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	settings, events, err := s.LiveState.update(p)
	if err != nil {
		return settings, err
	}
	s.publishLocked(events...)
	return settings, nil
}

// TrackObject handles the four trackedObject* client events: created and
// updated upsert, deleted removes, and trackedObjectsUpdated replaces the
// whole set. The same event is broadcast to every client. A report that
// would pass the limits is refused whole.
func (s *Kernel) TrackObject(name string, objects []*core.TrackedObject) error {
	keys := make([]string, len(objects))
	for i, o := range objects {
		k, err := o.Key()
		if err != nil {
			return err
		}
		if len(o.Contour) > MaxTrackedContour {
			return core.Invalidf("tracked object: 'contour' has %d numbers, more than the limit of %d", len(o.Contour), MaxTrackedContour)
		}
		if err := checkTrackedObject(o); err != nil {
			return err
		}
		keys[i] = k
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.LiveState.track(name, keys, objects); err != nil {
		return err
	}
	var data any = objects
	if name != core.EventTrackedObjectsUpdated && len(objects) == 1 {
		data = objects[0]
	}
	s.publishLocked(core.Event{Name: name, Data: data})
	return nil
}
