package perf

import (
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// TestStalledUploadsLoad measures what stalled uploads cost the server: 20
// connections each send all but the last byte of an 8 MiB POST
// /api/messages, and one more trickles a byte every 2 s. It reports the
// server's resident memory and when each connection was cut, for as long
// as COMPANION_STALL_LOAD says (past 2 minutes the runtime's periodic
// collection shows what memory was given back). It asserts nothing
// (TestStalledUploadsAreCutAndCappedPerAddress does); it runs only when
// asked:
//
//	COMPANION_STALL_LOAD=150s go test -run TestStalledUploadsLoad -v ./tests/perf/
//
// and COMPANION_BIN=path/to/companion measures another build (main's, say).
func TestStalledUploadsLoad(t *testing.T) {
	spec := os.Getenv("COMPANION_STALL_LOAD")
	if spec == "" {
		t.Skip("load measurement: set COMPANION_STALL_LOAD to a duration (e.g. 150s) to run it")
	}
	duration, err := time.ParseDuration(spec)
	if err != nil || duration <= 0 {
		t.Fatalf("COMPANION_STALL_LOAD=%q is not a duration", spec)
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	addr := strings.TrimPrefix(srv.URL, "http://")
	rss := func() int64 {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", srv.Cmd.Process.Pid))
		if err != nil {
			return -1
		}
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb >> 10
			}
		}
		return -1
	}
	t.Logf("RSS before: %d MiB", rss())
	start := time.Now()
	var mu sync.Mutex
	cut := map[string]time.Duration{}
	watch := func(name string, c net.Conn) {
		_, _ = io.Copy(io.Discard, c) // until the server closes it
		mu.Lock()
		cut[name] = time.Since(start)
		mu.Unlock()
	}
	const size = 8 << 20
	for i := range 20 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /api/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size)
		go func() {
			_, _ = c.Write([]byte(`{"text":"x"` + strings.Repeat(" ", size-len(`{"text":"x"}`)-1)))
		}()
		go watch(fmt.Sprintf("stalled %02d", i), c)
	}
	trickle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer trickle.Close()
	fmt.Fprintf(trickle, "POST /api/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
	go func() {
		for {
			if _, err := trickle.Write([]byte(" ")); err != nil {
				return
			}
			time.Sleep(2 * time.Second)
		}
	}()
	go watch("trickled", trickle)
	peak := int64(0)
	for s := 1; s <= int(duration/time.Second); s++ {
		time.Sleep(time.Second)
		r := rss()
		peak = max(peak, r)
		mu.Lock()
		n := len(cut)
		mu.Unlock()
		if s%10 == 0 {
			t.Logf("%2d s: RSS %d MiB, %d of 21 connections cut", s, r, n)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("peak RSS %d MiB; cut after: %v", peak, cut)
}
