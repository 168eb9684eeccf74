package scripting

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A firing of the timer left over from an earlier call must not stop the
// next call on the same state.
func TestCallDeadlineIgnoresALateTimerOfAnEarlierCall(t *testing.T) {
	w := newCallDeadline()
	defer w.close()
	w.arm(context.Background(), 5*time.Millisecond)
	w.disarm()
	w.expire() // as if the timer had fired just after disarm
	w.arm(context.Background(), time.Hour)
	time.Sleep(20 * time.Millisecond)
	w.expire() // a late firing of the first arm: the deadline is an hour away
	select {
	case <-w.Done():
		t.Fatal("the second call was stopped by the first call's timer")
	default:
	}
	w.disarm()
}

func TestCallDeadlineStopsAtTheDeadlineAndIsReusable(t *testing.T) {
	w := newCallDeadline()
	defer w.close()
	for i := 0; i < 2; i++ {
		w.arm(context.Background(), 10*time.Millisecond)
		select {
		case <-w.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the deadline did not close Done")
		}
		w.disarm()
		if !errors.Is(w.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err = %v", w.Err())
		}
	}
	w.arm(context.Background(), time.Hour)
	if w.Err() != nil {
		t.Fatalf("a re-armed deadline reports %v", w.Err())
	}
	w.disarm()
}

// A caller cancelling its context stops an endless loop at once, located,
// and a call armed afterwards on the same deadline is not affected by that
// cancellation.
func TestCancellingTheCallerStopsAnEndlessLoop(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`
    if e.loop then
      while true do end
    end
    return { ok = true }
`)}, Options{CallTimeout: time.Hour, PoolSize: 1})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err := rt.CallTable(ctx, "thing", "view", map[string]any{"loop": true})
	var se *ScriptError
	if !errors.As(err, &se) || se.File != "system.lua" || se.Line != 7 || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("want a cancellation at system.lua:7, got %v", err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	for i := 0; i < 100; i++ {
		if v, err := rt.CallTable(ctx2, "thing", "view", map[string]any{}); err != nil || v["ok"] != true {
			t.Fatalf("call %d after the cancellation: %v %v", i, v, err)
		}
	}
}
