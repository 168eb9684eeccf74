package core

import "context"

// UpdateSettings applies a settings change and tells clients what changed:
// interactionUpdated for remote interaction, systemPaused for pause. Each
// carries the bare new value, as the real web client reads it: the mode
// string ("none", "token", "all") and the boolean. A change that is not
// valid changes nothing.
func (s *Service) UpdateSettings(ctx context.Context, p SettingsPatch) (Settings, error) {
	mode, setMode, err := p.interaction()
	if err != nil {
		return s.live.Settings(), err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.live
	l.mu.Lock()
	var events []Event
	if setMode && mode != l.settings.Interaction {
		l.settings.Interaction = mode
		l.settings.RemoteInteraction = mode != InteractionNone
		events = append(events, Event{Name: EventInteractionUpdated, Data: mode})
	}
	if p.Paused != nil && *p.Paused != l.settings.Paused {
		l.settings.Paused = *p.Paused
		events = append(events, Event{Name: EventSystemPaused, Data: l.settings.Paused})
	}
	settings := l.settings
	l.mu.Unlock()
	s.publishLocked(events...)
	return settings, nil
}

// TrackObject handles the four trackedObject* client events: created and
// updated upsert, deleted removes, and trackedObjectsUpdated replaces the
// whole set. The same event is broadcast to every client. A report that
// would pass the limits is refused whole.
func (s *Service) TrackObject(name string, objects []*TrackedObject) error {
	keys := make([]string, len(objects))
	for i, o := range objects {
		k, err := o.Key()
		if err != nil {
			return err
		}
		if len(o.Contour) > MaxTrackedContour {
			return Invalidf("tracked object: 'contour' has %d numbers, more than the limit of %d", len(o.Contour), MaxTrackedContour)
		}
		if err := checkTrackedObject(o); err != nil {
			return err
		}
		keys[i] = k
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.live.track(name, keys, objects); err != nil {
		return err
	}
	var data any = objects
	if name != EventTrackedObjectsUpdated && len(objects) == 1 {
		data = objects[0]
	}
	s.publishLocked(Event{Name: name, Data: data})
	return nil
}
