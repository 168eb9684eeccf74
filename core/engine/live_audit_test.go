package engine_test

import (
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// TestAuditTrackedObjectsAreBounded: tracked objects live in memory and
// come from any client, so their number and each contour are capped; a
// refused report changes and publishes nothing.
func TestAuditTrackedObjectsAreBounded(t *testing.T) {
	f := newLiveFixture(t)
	obj := func(id float64) *core.TrackedObject { return &core.TrackedObject{ID: id} }
	for i := 0; i < kernel.MaxTrackedObjects; i++ {
		if err := f.svc.TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{obj(float64(i))}); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
	}
	f.events.take()
	err := f.svc.TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{obj(-1)})
	if core.KindOf(err) != core.KindInvalid {
		t.Fatalf("one object past the cap: %v, want invalid", err)
	}
	if n := len(f.svc.Live().TrackedObjects()); n != kernel.MaxTrackedObjects {
		t.Fatalf("%d objects kept after a refused report", n)
	}
	// Updating a known object, or deleting one, is fine at the cap.
	x := 5.0
	if err := f.svc.TrackObject(core.EventTrackedObjectUpdated, []*core.TrackedObject{{ID: 3.0, X: &x}}); err != nil {
		t.Fatalf("update at the cap: %v", err)
	}
	if err := f.svc.TrackObject(core.EventTrackedObjectDeleted, []*core.TrackedObject{obj(0)}); err != nil {
		t.Fatalf("delete at the cap: %v", err)
	}
	if err := f.svc.TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{obj(-1)}); err != nil {
		t.Fatalf("create after a delete: %v", err)
	}
	too := make([]*core.TrackedObject, kernel.MaxTrackedObjects+1)
	for i := range too {
		too[i] = obj(float64(1000 + i))
	}
	if err := f.svc.TrackObject(core.EventTrackedObjectsUpdated, too); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("replacing with too many objects: %v", err)
	}
	long := &core.TrackedObject{ID: 1.0, Contour: make([]float64, kernel.MaxTrackedContour+1)}
	if err := f.svc.TrackObject(core.EventTrackedObjectUpdated, []*core.TrackedObject{long}); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("an over-long contour: %v", err)
	}
	if names := eventNames(f.events.take()); len(names) != 3 {
		t.Fatalf("published %v, want only the three accepted reports", names)
	}
	if n := len(f.svc.Live().TrackedObjects()); n != kernel.MaxTrackedObjects {
		t.Fatalf("%d objects after the refusals", n)
	}
}
