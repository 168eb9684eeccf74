package kernel

import (
	"slices"
	"sync"

	"github.com/vttapp/companion/core"
)

// Live is the state that lives in memory only: host settings and the
// objects a table-top display tracks. It is safe for concurrent use.
type Live struct {
	mu       sync.RWMutex
	settings core.Settings
	tracked  map[string]*core.TrackedObject
	order    []string // keys of tracked, in the order they appeared
}

// NewLive returns live state with the given initial settings.
func NewLive(settings core.Settings) *Live {
	settings.Normalize()
	return &Live{settings: settings, tracked: map[string]*core.TrackedObject{}}
}

// Settings returns the current host settings.
func (l *Live) Settings() core.Settings {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.settings
}

// TrackedObjects returns the tracked objects in the order they appeared.
func (l *Live) TrackedObjects() []*core.TrackedObject {
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := make([]*core.TrackedObject, 0, len(l.order))
	for _, k := range l.order {
		o := *l.tracked[k]
		out = append(out, &o)
	}
	return out
}

// update applies a settings change and returns the settings after it with
// the events that tell clients what changed; a change that is not valid
// changes nothing and returns the settings as they are.
func (l *Live) update(p SettingsPatch) (core.Settings, []core.Event, error) {
	mode, setMode, err := p.interactionMode()
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		return l.settings, nil, err
	}
	var events []core.Event
	if setMode && mode != l.settings.Interaction {
		l.settings.Interaction = mode
		l.settings.RemoteInteraction = mode != core.InteractionNone
		events = append(events, core.Event{Name: core.EventInteractionUpdated, Data: mode})
	}
	if p.Paused != nil && *p.Paused != l.settings.Paused {
		l.settings.Paused = *p.Paused
		events = append(events, core.Event{Name: core.EventSystemPaused, Data: l.settings.Paused})
	}
	return l.settings, events, nil
}

// SettingsPatch changes host settings; nil fields are left as they are.
type SettingsPatch struct {
	RemoteInteraction *bool   `json:"remoteInteraction"`
	Interaction       *string `json:"interaction"`
	Paused            *bool   `json:"paused"`
}

// Limits of object tracking. The objects live in memory and any client may
// report them, so their number and each contour are capped; a table-top
// display tracks a few dozen pieces with contours of a few hundred points.
const (
	MaxTrackedObjects = 1000
	MaxTrackedContour = 4096 // numbers: x,y pairs
)

// track applies a trackedObject* report to the set.
func (l *Live) track(name string, keys []string, objects []*core.TrackedObject) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch name {
	case core.EventTrackedObjectCreated, core.EventTrackedObjectUpdated:
		if n := l.countWith(keys); n > MaxTrackedObjects {
			return core.Invalidf("too many tracked objects: %d, the limit is %d", n, MaxTrackedObjects)
		}
		if err := core.CheckTrackedContours(l.tracked, keys, objects, false); err != nil {
			return err
		}
		for i, o := range objects {
			if _, ok := l.tracked[keys[i]]; !ok {
				l.order = append(l.order, keys[i])
			}
			l.tracked[keys[i]] = o
		}
	case core.EventTrackedObjectDeleted:
		for _, k := range keys {
			if _, ok := l.tracked[k]; !ok {
				continue
			}
			delete(l.tracked, k)
			l.order = slices.DeleteFunc(l.order, func(o string) bool { return o == k })
		}
	case core.EventTrackedObjectsUpdated:
		if len(objects) > MaxTrackedObjects {
			return core.Invalidf("too many tracked objects: %d, the limit is %d", len(objects), MaxTrackedObjects)
		}
		if err := core.CheckTrackedContours(l.tracked, keys, objects, true); err != nil {
			return err
		}
		l.tracked = make(map[string]*core.TrackedObject, len(objects))
		l.order = l.order[:0]
		for i, o := range objects {
			if _, dup := l.tracked[keys[i]]; !dup {
				l.order = append(l.order, keys[i])
			}
			l.tracked[keys[i]] = o
		}
	default:
		return core.Invalidf("unknown tracked object event '%s'", name)
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
