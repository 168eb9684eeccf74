package core

import (
	"context"
	"slices"
	"sync"
)

// Live is the state that lives in memory only: host settings and the
// objects a table-top display tracks. It is safe for concurrent use.
type Live struct {
	mu       sync.RWMutex
	settings Settings
	tracked  map[string]*TrackedObject
	order    []string // keys of tracked, in the order they appeared
}

// NewLive returns live state with the given initial settings.
func NewLive(settings Settings) *Live {
	settings.normalize()
	return &Live{settings: settings, tracked: map[string]*TrackedObject{}}
}

// Settings returns the current host settings.
func (l *Live) Settings() Settings {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.settings
}

// TrackedObjects returns the tracked objects in the order they appeared.
func (l *Live) TrackedObjects() []*TrackedObject {
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := make([]*TrackedObject, 0, len(l.order))
	for _, k := range l.order {
		o := *l.tracked[k]
		out = append(out, &o)
	}
	return out
}

// SettingsPatch changes host settings; nil fields are left as they are.
type SettingsPatch struct {
	RemoteInteraction *bool   `json:"remoteInteraction"`
	Interaction       *string `json:"interaction"`
	Paused            *bool   `json:"paused"`
}

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
	s.events.Publish(events...)
	return settings, nil
}

// Limits of object tracking. The objects live in memory and any client may
// report them, so their number and each contour are capped; a table-top
// display tracks a few dozen pieces with contours of a few hundred points.
const (
	MaxTrackedObjects = 1000
	MaxTrackedContour = 4096 // numbers: x,y pairs
)

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
	s.events.Publish(Event{Name: name, Data: data})
	return nil
}

// track applies a trackedObject* report to the set.
func (l *Live) track(name string, keys []string, objects []*TrackedObject) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch name {
	case EventTrackedObjectCreated, EventTrackedObjectUpdated:
		if n := l.countWith(keys); n > MaxTrackedObjects {
			return Invalidf("too many tracked objects: %d, the limit is %d", n, MaxTrackedObjects)
		}
		if err := checkTrackedContours(l.tracked, keys, objects, false); err != nil {
			return err
		}
		for i, o := range objects {
			if _, ok := l.tracked[keys[i]]; !ok {
				l.order = append(l.order, keys[i])
			}
			l.tracked[keys[i]] = o
		}
	case EventTrackedObjectDeleted:
		for _, k := range keys {
			if _, ok := l.tracked[k]; !ok {
				continue
			}
			delete(l.tracked, k)
			l.order = slices.DeleteFunc(l.order, func(o string) bool { return o == k })
		}
	case EventTrackedObjectsUpdated:
		if len(objects) > MaxTrackedObjects {
			return Invalidf("too many tracked objects: %d, the limit is %d", len(objects), MaxTrackedObjects)
		}
		if err := checkTrackedContours(l.tracked, keys, objects, true); err != nil {
			return err
		}
		l.tracked = make(map[string]*TrackedObject, len(objects))
		l.order = l.order[:0]
		for i, o := range objects {
			if _, dup := l.tracked[keys[i]]; !dup {
				l.order = append(l.order, keys[i])
			}
			l.tracked[keys[i]] = o
		}
	default:
		return Invalidf("unknown tracked object event '%s'", name)
	}
	return nil
}

// countWith is how many objects are tracked once keys are added. The
// caller holds l.mu.
func (l *Live) countWith(keys []string) int {
	n := len(l.tracked)
	seen := map[string]bool{}
	for _, k := range keys {
		if _, ok := l.tracked[k]; !ok && !seen[k] {
			seen[k] = true
			n++
		}
	}
	return n
}
