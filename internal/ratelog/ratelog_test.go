package ratelog

import (
	"testing"
	"time"
)

// A flood is one line per interval; the next line counts what was left out.
func TestLimiterLetsOneLineThroughPerInterval(t *testing.T) {
	l := New(time.Hour)
	written := 0
	for range 1000 {
		if ok, _ := l.Allow(); ok {
			written++
		}
	}
	if written != 1 {
		t.Fatalf("%d lines of 1000 written in one interval, want 1", written)
	}
	l.next = time.Now().Add(-time.Second) // the interval has passed
	if ok, leftOut := l.Allow(); !ok || leftOut != 999 {
		t.Fatalf("after the interval: %v, %d left out, want true, 999", ok, leftOut)
	}
	var unlimited *Limiter
	if ok, _ := unlimited.Allow(); !ok {
		t.Fatal("a nil limiter refuses")
	}
}
