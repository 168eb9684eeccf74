package scripting

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The watchdog's trigger is process-wide; its decision is not. A call that
// holds little must not fail however much the rest of the process
// allocates while it runs.
func TestMemoryWatchdogIgnoresOtherGoroutinesAllocations(t *testing.T) {
	rt := start(t, map[string]string{"system.lua": kindWith(`local n = 0 for i = 1, 200000 do n = n + i % 7 end return { n = n }`)},
		Options{CallTimeout: 60 * time.Second, MaxCallMemory: 4 << 20})
	var stop atomic.Bool
	var wg sync.WaitGroup
	var sink [][]byte
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			sink = append(sink[:0], make([]byte, 1<<20)) // garbage, 1 MiB at a time
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	checks := memoryChecks.Load()
	for i := 0; i < 3; i++ {
		v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
		if err != nil || v["n"] == nil {
			t.Fatalf("call %d failed while another goroutine allocated: %v", i, err)
		}
	}
	if memoryChecks.Load() == checks {
		t.Fatal("the other goroutine's allocations never made the watchdog look: the test proves nothing")
	}
}

// What a call holds counts, including its globals, tables and upvalues,
// and the limit is the one configured; a negative limit turns it off.
//
// The script grows what it holds a megabyte at a time with a little work
// between steps, so it runs for many sampling periods (1 ms) whatever the
// machine's speed: a script that finishes before the first sample is not
// what this test is about, and an earlier version that raced the sampler
// flaked under -race.
func TestMemoryLimitIsConfigurable(t *testing.T) {
	body := `local s = ("x"):rep(1048576) holder = {}
		for i = 1, 48 do
			holder[i] = s .. i
			local spin = 0 for j = 1, 20000 do spin = spin + j % 3 end
		end
		return { n = #holder }`
	rt := start(t, map[string]string{"system.lua": kindWith(body)}, Options{CallTimeout: 20 * time.Second, MaxCallMemory: 8 << 20})
	_, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "limit of 8 MiB") || !strings.Contains(err.Error(), "system.lua:") {
		t.Fatalf("want the 8 MiB limit with the script's position, got %v", err)
	}
	rt = start(t, map[string]string{"system.lua": kindWith(body)}, Options{CallTimeout: 20 * time.Second, MaxCallMemory: -1})
	if v, err := rt.CallTable(context.Background(), "thing", "view", map[string]any{}); err != nil || v["n"] == nil {
		t.Fatalf("without a limit: %v %v", v, err)
	}
}
