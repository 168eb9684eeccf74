package hub

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

func TestWSBucketBurstThenRate(t *testing.T) {
	var b bucket
	t0 := time.Unix(1000, 0)
	for i := 0; i < 3; i++ {
		if !b.take(t0, 10, 3) {
			t.Fatalf("take %d within the burst refused", i)
		}
	}
	if b.take(t0, 10, 3) {
		t.Fatal("take past the burst allowed")
	}
	if w := b.wait(10); w <= 0 || w > 100*time.Millisecond {
		t.Fatalf("wait %v, want (0, 100ms] at 10/s", w)
	}
	if !b.take(t0.Add(100*time.Millisecond), 10, 3) {
		t.Fatal("no token after 1/rate")
	}
	if b.full(t0.Add(100*time.Millisecond), 10, 3) || !b.full(t0.Add(time.Second), 10, 3) {
		t.Fatal("full: wrong before or after the refill")
	}
}

func TestWSStreamKeys(t *testing.T) {
	env := func(name, data string) *inEnvelope {
		return &inEnvelope{Name: name, Data: json.RawMessage(data), event: clientEvents[name]}
	}
	for _, c := range []struct {
		env              *inEnvelope
		key              string
		coalesce, stream bool
	}{
		{env(core.EventTokenMoved, `{"id":"t1","state":"control"}`), "tokenMoved\x00t1", true, true},
		{env(core.EventTokenMoved, `{"id":"t1","state":"end"}`), "tokenMoved\x00t1", false, true},
		{env(core.EventPointerUpdated, `{"x":1}`), "pointerUpdated\x00", true, true},
		{env(core.EventPointerUpdated, `{"state":"start"}`), "pointerUpdated\x00", false, true},
		{env(core.RequestMapViewportUpdated, `{"id":"m","x":1}`), "mapViewportUpdated\x00", true, true},
		{env(core.RequestMapViewportUpdated, `{"id":"n","x":2}`), "mapViewportUpdated\x00", true, true},
		{env(core.EventTokenMoved, `{"id":"t1","state":1}`), "tokenMoved\x00t1", true, true},
		{env(core.RequestCreateMessage, `{"text":"x"}`), "", false, false},
		{env(core.EventTokenMoved, `not json`), "", false, false},
	} {
		key, coalesce, stream := streamKey(c.env)
		if key != c.key || coalesce != c.coalesce || stream != c.stream {
			t.Errorf("%s %s: %q %v %v, want %q %v %v", c.env.Name, c.env.Data, key, coalesce, stream, c.key, c.coalesce, c.stream)
		}
	}
}

// A client cannot grow its stream table without bound by inventing ids:
// past maxStreams, streams at rest are forgotten, and while none is,
// new ids go to the request bucket (stream returns nil).
func TestWSStreamTableIsBounded(t *testing.T) {
	var l limiter
	t0 := time.Unix(1000, 0)
	for i := 0; i < maxStreams; i++ {
		s := l.stream("k"+strconv.Itoa(i), t0, 60, 10)
		s.bucket.take(t0, 60, 10) // in use: not at rest
	}
	if s := l.stream("one-more", t0, 60, 10); s != nil {
		t.Fatal("a stream past the bound was opened while all were in use")
	}
	if s := l.stream("one-more", t0.Add(time.Second), 60, 10); s == nil || len(l.streams) != 1 {
		t.Fatalf("streams at rest not forgotten: %d kept", len(l.streams))
	}
}
