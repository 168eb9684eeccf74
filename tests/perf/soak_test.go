package perf

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vttapp/companion/core/engine"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/examples/dnd5e"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/routes"
	"github.com/vttapp/companion/store/sqlite"
	"github.com/vttapp/companion/systems"
)

// The soak test: a table far busier than a real one, for a bounded time.
// 200 WebSocket clients each drag their own token in a stream while HTTP
// workers read collection listings and the snapshot and post messages.
// Nothing may fail (no error reply, no dropped client, no failed request),
// and once the clients leave, goroutines and heap return to their baseline.
//
// It runs only when COMPANION_SOAK names a duration (CI: 20s; the long run
// is COMPANION_SOAK=10m): go test -run TestSoak -count=1 ./tests/perf/
const (
	soakClients      = 200
	soakMoveInterval = 250 * time.Millisecond // per client: 800 moves/s in all
	soakHTTPWorkers  = 4
	soakHTTPPause    = 20 * time.Millisecond
	// soakHeapSlack is how far the heap may stay above its baseline
	// after the run: caches of listings and views are filled by the run.
	soakHeapSlack = 32 << 20
	// soakGoroutineSlack allows for the runtime's and net/http's own
	// (idle keep-alive connections of the test's HTTP client are closed).
	soakGoroutineSlack = 5
)

func TestSoak(t *testing.T) {
	spec := os.Getenv("COMPANION_SOAK")
	if spec == "" || testing.Short() {
		t.Skip("soak test: set COMPANION_SOAK to a duration (e.g. COMPANION_SOAK=20s) to run it")
	}
	duration, err := time.ParseDuration(spec)
	if err != nil || duration <= 0 {
		t.Fatalf("COMPANION_SOAK=%q is not a duration", spec)
	}
	env := newSoakEnv(t)
	httpClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: soakHTTPWorkers}}

	runtime.GC()
	baseGoroutines := runtime.NumGoroutine()
	baseHeap := heapInUse()

	var (
		failures            atomic.Int64
		moves, received     atomic.Int64
		httpRequests, posts atomic.Int64
		firstFailure        sync.Once
		failureText         string
	)
	fail := func(format string, args ...any) {
		failures.Add(1)
		firstFailure.Do(func() { failureText = fmt.Sprintf(format, args...) })
	}

	ctx, stop := context.WithTimeout(context.Background(), duration)
	defer stop()
	var peakHeap atomic.Uint64
	var peakGoroutines atomic.Int64
	var workers sync.WaitGroup
	workers.Add(1)
	go func() { // sampler
		defer workers.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if h := heapInUse(); h > peakHeap.Load() {
					peakHeap.Store(h)
				}
				if g := int64(runtime.NumGoroutine()); g > peakGoroutines.Load() {
					peakGoroutines.Store(g)
				}
			}
		}
	}()

	conns := make([]*websocket.Conn, soakClients)
	var readers sync.WaitGroup
	for i := range soakClients {
		ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(env.srv.URL, "http")+"/", nil)
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		conns[i] = ws
		readers.Add(1)
		go func() { // every client reads all it is sent, as a browser does
			defer readers.Done()
			for {
				_, data, err := ws.ReadMessage()
				if err != nil {
					if ctx.Err() == nil {
						fail("client %d ended during the run: %v", i, err)
					}
					return
				}
				received.Add(1)
				var env struct {
					Name string          `json:"name"`
					Data json.RawMessage `json:"data"`
				}
				if json.Unmarshal(data, &env) == nil && env.Name == "error" {
					fail("client %d got an error: %s", i, env.Data)
				}
			}
		}()
		workers.Add(1)
		go func() { // its drag stream
			defer workers.Done()
			token := soakToken(i)
			send := func(state any, x float64) bool {
				err := ws.WriteJSON(map[string]any{"name": core.EventTokenMoved,
					"data": map[string]any{"id": token, "x": x, "y": float64(i), "state": state}})
				if err != nil && ctx.Err() == nil {
					fail("client %d: send: %v", i, err)
				}
				moves.Add(1)
				return err == nil
			}
			tick := time.NewTicker(soakMoveInterval)
			defer tick.Stop()
			for step := 0; ; step++ {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				var ok bool
				switch step % 8 {
				case 0:
					ok = send(core.DragStart, float64(step))
				case 7:
					ok = send(core.DragEnd, float64(step))
				default:
					ok = send(core.DragControl, float64(step))
				}
				if !ok {
					return
				}
			}
		}()
	}

	for w := range soakHTTPWorkers {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for n := 0; ctx.Err() == nil; n++ {
				var status int
				var err error
				switch n % 3 {
				case 0:
					status, err = soakDo(ctx, httpClient, "GET", env.srv.URL+"/api/monsters", "")
				case 1:
					status, err = soakDo(ctx, httpClient, "GET", env.srv.URL+"/api", "")
				default:
					status, err = soakDo(ctx, httpClient, "POST", env.srv.URL+"/api/messages",
						fmt.Sprintf(`{"text":"worker %d attacks [[1d20+5]]","source":"soak"}`, w))
					posts.Add(1)
				}
				if ctx.Err() != nil {
					return
				}
				httpRequests.Add(1)
				if err != nil || status != http.StatusOK {
					fail("worker %d request %d: status %d, %v", w, n, status, err)
				}
				time.Sleep(soakHTTPPause)
			}
		}()
	}
	<-ctx.Done()
	workers.Wait()
	for _, ws := range conns {
		ws.Close()
	}
	readers.Wait()
	httpClient.CloseIdleConnections()

	// The hub forgets every client, its goroutines end, the heap returns.
	deadline := time.Now().Add(15 * time.Second)
	var goroutines int
	var heap uint64
	for {
		runtime.GC()
		goroutines, heap = runtime.NumGoroutine(), heapInUse()
		if goroutines <= baseGoroutines+soakGoroutineSlack && heap <= baseHeap+soakHeapSlack && len(env.hub.Clients()) == 0 {
			break
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("soak %v: %d clients, %d moves sent, %d frames received, %d HTTP requests (%d message posts), %d failures",
		duration, soakClients, moves.Load(), received.Load(), httpRequests.Load(), posts.Load(), failures.Load())
	t.Logf("goroutines: baseline %d, peak %d, after %d; heap in use: baseline %.1f MiB, peak %.1f MiB, after %.1f MiB",
		baseGoroutines, peakGoroutines.Load(), goroutines, mibOf(baseHeap), mibOf(peakHeap.Load()), mibOf(heap))
	if n := failures.Load(); n > 0 {
		t.Errorf("%d failures during the soak; the first: %s", n, failureText)
		logged := strings.Split(env.logs.String(), "\n")
		t.Logf("the server logged %d warnings and errors; the first:\n%s", len(logged)-1, strings.Join(logged[:min(len(logged), 10)], "\n"))
	}
	if httpRequests.Load() == 0 || moves.Load() == 0 {
		t.Errorf("the soak did no work")
	}
	if n := len(env.hub.Clients()); n != 0 {
		t.Errorf("%d clients still registered after all left", n)
	}
	if goroutines > baseGoroutines+soakGoroutineSlack {
		t.Errorf("goroutines: %d after the run, baseline %d", goroutines, baseGoroutines)
	}
	if heap > baseHeap+soakHeapSlack {
		t.Errorf("heap in use: %.1f MiB after the run, baseline %.1f MiB", mibOf(heap), mibOf(baseHeap))
	}
}

func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

func mibOf(n uint64) float64 { return float64(n) / (1 << 20) }

func soakToken(i int) string { return fmt.Sprintf("soak-token-%03d", i) }

func soakDo(ctx context.Context, c *http.Client, method, url, body string) (int, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

type soakEnv struct {
	srv  *httptest.Server
	hub  *hub.Hub
	logs *testkit.LogBuffer // warnings and errors
}

// newSoakEnv runs the real handlers and hub with D&D 5e over a real store
// seeded with a campaign, a map with one token per client, and monsters
// (the SRD's when ../shared/data is present, generated ones otherwise).
func newSoakEnv(t *testing.T) *soakEnv {
	t.Helper()
	dir := t.TempDir()
	store, err := sqlite.Open(filepath.Join(dir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	sys, err := systems.Load(dnd5e.FS, systems.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sys.Close)
	holder := systems.NewHolder(sys)
	err = store.Update(context.Background(), func(tx core.Tx) error {
		c := &core.Campaign{ID: "soak-campaign", Name: "Soak", System: sys.ID(), Primary: true}
		c.Normalize()
		if err := tx.PutCampaign(c); err != nil {
			return err
		}
		m := &core.Map{ID: "soak-map", Name: "Arena", Owner: c.ID}
		for i := range soakClients {
			m.Tokens = append(m.Tokens, &core.Token{ID: soakToken(i), Name: fmt.Sprintf("Token %d", i), X: 0, Y: float64(i), MapID: m.ID})
		}
		if err := m.Normalize(); err != nil {
			return err
		}
		for _, tk := range m.Tokens {
			tk.Normalize()
		}
		if err := tx.PutMap(m); err != nil {
			return err
		}
		if err := tx.PutScreen(c.ID, &core.Screen{MapID: m.ID}); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	records, _ := monsterData(t) // the SRD's when the shared data is present
	(&loadEnv{store: store}).seedMonsters(t, records[:min(len(records), 400)])
	logs := &testkit.LogBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	bus := core.NewBus()
	svc := engine.NewService(engine.ServiceConfig{Store: store, Events: bus, Rules: holder, Roller: dice.NewRoller()})
	live := hub.New(svc, bus, log, hub.Options{})
	srv := httptest.NewServer(routes.NewPublicHandler(routes.Config{Service: svc, Hub: live, Systems: holder, DataDir: dir, Log: log}))
	t.Cleanup(func() { live.Close(); srv.Close() })
	return &soakEnv{srv: srv, hub: live, logs: logs}
}
