package scripting

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestPoolIsBoundedAndConcurrent(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`return { n = e.n * 2 }`)}, Options{PoolSize: 3})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{"n": int64(g*1000 + i)})
				if err != nil {
					errs <- err
					return
				}
				if v["n"] != int64(2*(g*1000+i)) {
					errs <- fmt.Errorf("wrong answer %v", v)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if c := rt.Created(); c > 3 {
		t.Fatalf("the pool of 3 prepared %d states", c)
	}
}

func TestCallWaitsForAStateUntilTheContextEnds(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`return { x = 1 }`)}, Options{PoolSize: 1})
	// Hold the only state.
	st, err := rt.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = rt.CallTable(ctx, "thing", "view", map[string]any{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the caller's deadline, got %v", err)
	}
	rt.release(st)
	if _, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{}); err != nil {
		t.Fatal(err)
	}
}

func TestUnknownFunction(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`return {}`)}, Options{})
	if _, err := rt.Call(context.Background(), "nope", "view", nil); err == nil {
		t.Fatal("calling an undeclared kind must fail")
	}
	if rt.HasFunc("thing", "references") != true || rt.HasFunc("thing", "other") {
		t.Fatal("HasFunc")
	}
}

func TestCloseReleasesStates(t *testing.T) {
	rt, err := tryStart(map[string]string{"system.lua": kindWith(`return {}`)}, Options{PoolSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	rt.Close()
	if len(rt.idle) != 0 {
		t.Fatal("idle states remain after Close")
	}
	// A late call still works (it prepares a state and drops it after).
	if _, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if len(rt.idle) != 0 {
		t.Fatal("a state was returned to a closed pool")
	}
}

func TestCallFreshUsesItsOwnState(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`counter = (counter or 0) + 1 return { n = counter }`)}, Options{PoolSize: 2})
	ctx := context.Background()
	// Pooled calls do not see each other's globals either (freeze.go).
	for i := 1; i <= 3; i++ {
		v, err := rt.Call(ctx, "thing", "view", map[string]any{})
		if err != nil || v.(map[string]any)["n"] != int64(1) {
			t.Fatalf("pooled call %d: %v %v", i, v, err)
		}
	}
	before := rt.Created()
	v, err := rt.CallFresh(ctx, "thing", "view", map[string]any{})
	if err != nil || v.(map[string]any)["n"] != int64(1) {
		t.Fatalf("a fresh state starts from scratch: %v %v", v, err)
	}
	if rt.Created() != before+1 || len(rt.slots) != 1 {
		t.Fatalf("the fresh state must be created and released: created %d->%d, slots %d", before, rt.Created(), len(rt.slots))
	}
}
