package engine_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestGetAttributeResolvesValues(t *testing.T) {
	f := newLiveFixture(t)
	ctx := context.Background()
	all, err := f.svc.GetAttribute(ctx, core.Attribute{EntityID: liveEntityID})
	if err != nil {
		t.Fatal(err)
	}
	if want := (core.Object{"str": 16.0, "dex": 12.0}); !reflect.DeepEqual(all.Attributes, want) {
		t.Fatalf("all attributes %v, want %v", all.Attributes, want)
	}
	some, err := f.svc.GetAttribute(ctx, core.Attribute{EntityID: liveEntityID, Attributes: core.Object{"str": nil, "cha": nil}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (core.Object{"str": 16.0, "cha": nil}); !reflect.DeepEqual(some.Attributes, want) {
		t.Fatalf("named attributes %v, want %v", some.Attributes, want)
	}
	if _, err := f.svc.GetAttribute(ctx, core.Attribute{EntityID: "nope"}); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("unknown entity: %v", err)
	}
	if _, err := f.svc.GetAttribute(ctx, core.Attribute{}); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("no entity id: %v", err)
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("a read published %v", eventNames(events))
	}
}

func TestSetAttributeMergesAndBroadcasts(t *testing.T) {
	f := newLiveFixture(t)
	ctx := context.Background()
	out, err := f.svc.SetAttribute(ctx, core.Attribute{EntityID: liveEntityID, Attributes: core.Object{"str": 18.0, "dex": nil, "wis": 9.0}})
	if err != nil {
		t.Fatal(err)
	}
	want := core.Object{"str": 18.0, "wis": 9.0}
	if !reflect.DeepEqual(out.Attributes, want) {
		t.Fatalf("attributes after set %v, want %v", out.Attributes, want)
	}
	e, err := f.svc.Entity(ctx, "", liveEntityID)
	if err != nil || !reflect.DeepEqual(e.Attributes, want) {
		t.Fatalf("stored attributes %v (%v), want %v", e.Attributes, err, want)
	}
	events := f.events.take()
	if len(events) == 0 || events[0].Name != core.EventEntityUpdated {
		t.Fatalf("events %v, want entityUpdated first", eventNames(events))
	}
	if _, err := f.svc.SetAttribute(ctx, core.Attribute{EntityID: liveEntityID}); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("set without attributes: %v", err)
	}
	if _, err := f.svc.SetAttribute(ctx, core.Attribute{EntityID: "nope", Attributes: core.Object{"a": 1.0}}); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("set on unknown entity: %v", err)
	}
}
