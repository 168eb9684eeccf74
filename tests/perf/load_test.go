package perf

// A load generator for the HTTP API: concurrent keep-alive clients on
// loopback, bounded in request count and in time. The benchmarks compare
// the real handlers with a "floor" handler that writes the same
// precomputed bytes, measured in the same run, and report the ratio.
//
//	go test ./tests/perf/ -run '^$' -bench 'Load' -benchtime 2000x

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
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/examples/dnd5e"
	"github.com/vttapp/companion/internal/cputime"
	"github.com/vttapp/companion/internal/shareddata"
	"github.com/vttapp/companion/routes"
	"github.com/vttapp/companion/store/sqlite"
	"github.com/vttapp/companion/systems"
)

// loadClients is how many clients send requests at the same time.
const loadClients = 8

// loadTimeLimit bounds one measurement whatever the request count.
const loadTimeLimit = 20 * time.Second

// loadResult is what one run measured.
type loadResult struct {
	requests  int
	elapsed   time.Duration
	cpu       time.Duration // this process's CPU time (server and clients alike)
	latencies []time.Duration
	failures  int64
}

// cpuPerRequest is the process CPU time spent per request.
func (r loadResult) cpuPerRequest() time.Duration { return r.cpu / time.Duration(max(1, r.requests)) }

func (r loadResult) perSecond() float64 { return float64(r.requests) / r.elapsed.Seconds() }

// percentile returns the p-th percentile latency (p in 0..100).
func (r loadResult) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	s := slices.Clone(r.latencies)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

// newLoadClient keeps one connection per concurrent client and asks for
// identity bodies, so both handlers send the same bytes.
func newLoadClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		MaxIdleConns: loadClients, MaxIdleConnsPerHost: loadClients, DisableCompression: true,
	}}
}

// runLoad sends count GETs of url from loadClients goroutines (or stops at
// the time limit) and measures each request's latency.
func runLoad(tb testing.TB, client *http.Client, url string, count int) loadResult {
	tb.Helper()
	return runLoadWith(tb, client, url, count, loadClients)
}

// runLoadWith is runLoad with a given number of concurrent clients.
func runLoadWith(tb testing.TB, client *http.Client, url string, count, clients int) loadResult {
	tb.Helper()
	var next atomic.Int64
	var failures atomic.Int64
	lat := make([][]time.Duration, clients)
	deadline := time.Now().Add(loadTimeLimit)
	cpu0 := cputime.Now()
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for next.Add(1) <= int64(count) && time.Now().Before(deadline) {
				t0 := time.Now()
				resp, err := client.Get(url)
				if err != nil {
					failures.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					failures.Add(1)
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		}(c)
	}
	wg.Wait()
	res := loadResult{elapsed: time.Since(start), cpu: cputime.Now() - cpu0, failures: failures.Load()}
	for _, l := range lat {
		res.latencies = append(res.latencies, l...)
	}
	res.requests = len(res.latencies)
	if res.failures > 0 {
		tb.Fatalf("%s: %d failed requests", url, res.failures)
	}
	return res
}

// loadRounds alternates the real handler and the floor in this many
// rounds, so a burst of load from elsewhere on the machine hits both alike.
const loadRounds = 10

// compareLoad sends n requests to each URL, alternating in rounds (and
// which side goes first), and returns the merged results (elapsed is the
// sum of the rounds' times) and the median of the per-round ratios
// floor req/s / real req/s, which a burst of load from elsewhere on the
// machine moves much less than the overall ratio.
func compareLoad(tb testing.TB, client *http.Client, realURL, floorURL string, n int) (real, floor loadResult, medianRatio float64) {
	tb.Helper()
	floorClient := newLoadClient() // its own connections: neither side reconnects between rounds
	runLoad(tb, floorClient, floorURL, 2*loadClients)
	per := max(1, n/loadRounds)
	merge := func(into *loadResult, r loadResult) {
		into.requests += r.requests
		into.elapsed += r.elapsed
		into.cpu += r.cpu
		into.latencies = append(into.latencies, r.latencies...)
	}
	var ratios []float64
	for round, sent := 0, 0; sent < n; round, sent = round+1, sent+per {
		k := min(per, n-sent)
		var r, f loadResult
		if round%2 == 0 {
			r = runLoad(tb, client, realURL, k)
			f = runLoad(tb, floorClient, floorURL, k)
		} else {
			f = runLoad(tb, floorClient, floorURL, k)
			r = runLoad(tb, client, realURL, k)
		}
		merge(&real, r)
		merge(&floor, f)
		ratios = append(ratios, f.perSecond()/r.perSecond())
	}
	slices.Sort(ratios)
	return real, floor, ratios[len(ratios)/2]
}

// loadEnv is the real public handler over a SQLite store with the dnd5e
// system, on a loopback listener.
type loadEnv struct {
	srv   *httptest.Server
	store *sqlite.Store
	svc   *engine.Service
}

func newLoadEnv(tb testing.TB) *loadEnv {
	tb.Helper()
	dir := tb.TempDir()
	store, err := sqlite.Open(filepath.Join(dir, "companion.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	sys, err := systems.Load(dnd5e.FS, systems.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	holder := systems.NewHolder(sys)
	bus := core.NewBus()
	svc := engine.NewService(engine.ServiceConfig{Store: store, Events: bus, Rules: holder})
	srv := httptest.NewServer(routes.NewPublicHandler(routes.Config{
		Service: svc, Systems: holder, DataDir: dir,
		Log: slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})),
	}))
	tb.Cleanup(srv.Close)
	return &loadEnv{srv: srv, store: store, svc: svc}
}

// monsterData returns the SRD monster records, or generated ones when the
// shared data is absent.
func monsterData(tb testing.TB) (records []map[string]any, source string) {
	tb.Helper()
	if root := shareddata.Root(); root != "" {
		path := filepath.Join(root, "srd5e", "2014-en-5e-SRD-Monsters.json")
		if raw, err := os.ReadFile(path); err == nil {
			if err := json.Unmarshal(raw, &records); err != nil {
				tb.Fatalf("%s: %v", path, err)
			}
			return records, "SRD (" + strconv.Itoa(len(records)) + " monsters)"
		}
	}
	sizes := []string{"Tiny", "Small", "Medium", "Large", "Huge"}
	types := []string{"beast", "humanoid", "undead", "fiend", "dragon"}
	for i := 0; i < 3000; i++ {
		records = append(records, map[string]any{
			"index": fmt.Sprintf("generated-%04d", i), "name": fmt.Sprintf("Generated Monster %04d", i),
			"size": sizes[i%len(sizes)], "type": types[i%len(types)], "alignment": "unaligned",
			"armor_class": []any{map[string]any{"type": "natural", "value": 10 + i%10}},
			"hit_points":  5 + i%200, "hit_dice": "4d8", "hit_points_roll": "4d8+4",
			"speed":    map[string]any{"walk": "30 ft."},
			"strength": 10 + i%10, "dexterity": 12, "constitution": 14, "intelligence": 8, "wisdom": 10, "charisma": 6,
			"challenge_rating": float64(i%20) + 0.5, "xp": 100 * (i % 20),
			"actions": []any{map[string]any{"name": "Bite", "desc": "Melee Weapon Attack: +4 to hit, reach 5 ft., one target. Hit: 7 (1d10 + 2) piercing damage."}},
		})
	}
	return records, "3000 generated monsters (shared data absent)"
}

// seedMonsters stores the records as monster entities.
func (e *loadEnv) seedMonsters(tb testing.TB, records []map[string]any) {
	tb.Helper()
	now := time.Now().UTC()
	err := e.store.Update(context.Background(), func(tx core.Tx) error {
		for _, rec := range records {
			name, _ := rec["name"].(string)
			slug, _ := rec["index"].(string)
			ent := &core.Entity{ID: core.NewID(), Kind: "monster", System: "dnd5e", Name: name, Slug: slug, Data: rec}
			if err := ent.Normalize(now); err != nil {
				return err
			}
			if err := tx.PutEntity(ent); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// floorServer answers every request with body, as cheaply as net/http can.
func floorServer(tb testing.TB, body []byte) *httptest.Server {
	tb.Helper()
	length := strconv.Itoa(len(body))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Content-Length", length)
		w.Write(body)
	}))
	tb.Cleanup(srv.Close)
	return srv
}

func fetch(tb testing.TB, client *http.Client, url string) []byte {
	tb.Helper()
	resp, err := client.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		tb.Fatalf("GET %s: %d %v %.200s", url, resp.StatusCode, err, body)
	}
	return body
}

// benchCollection measures GET /api/monsters?schema=... warm against the
// floor serving the identical bytes, b.N requests each.
func benchCollection(b *testing.B, schema string) {
	env := newLoadEnv(b)
	records, source := monsterData(b)
	env.seedMonsters(b, records)
	client := newLoadClient()
	url := env.srv.URL + "/api/monsters?schema=" + schema
	cold := time.Now()
	body := fetch(b, client, url) // first read renders every row: the cold cost
	coldTime := time.Since(cold)
	floor := floorServer(b, body)
	runLoad(b, client, url, 200) // warm the connections and caches
	runLoad(b, client, floor.URL, 200)

	b.ResetTimer()
	real, base, ratio := compareLoad(b, client, url, floor.URL, b.N)
	b.StopTimer()

	b.ReportMetric(real.perSecond(), "req/s")
	b.ReportMetric(base.perSecond(), "floor-req/s")
	b.ReportMetric(ratio, "x-floor")
	b.ReportMetric(float64(real.cpuPerRequest())/float64(base.cpuPerRequest()), "x-floor-cpu")
	b.ReportMetric(float64(real.percentile(99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(len(body)), "body-bytes")
	b.ReportMetric(float64(coldTime.Milliseconds()), "cold-ms")
	b.Logf("%s, schema=%s: %d bytes; %.0f req/s vs floor %.0f req/s (median round ratio %.2fx, overall %.2fx); p99 %v; cold first read %v",
		source, schema, len(body), real.perSecond(), base.perSecond(), ratio, base.perSecond()/real.perSecond(), real.percentile(99), coldTime)
}

func BenchmarkHTTPLoadMonstersList(b *testing.B) { benchCollection(b, "list") }

func BenchmarkHTTPLoadMonstersView(b *testing.B) { benchCollection(b, "view") }

// BenchmarkLoadSnapshot measures GET /api with 30 messages and 50 tokens
// on the map shown to players: requests per second and p99 latency.
func BenchmarkHTTPLoadSnapshot(b *testing.B) {
	env := newLoadEnv(b)
	err := env.store.Update(context.Background(), func(tx core.Tx) error {
		c := &core.Campaign{ID: core.NewID(), System: "dnd5e", Name: "Load", Primary: true}
		c.Normalize()
		if err := tx.PutCampaign(c); err != nil {
			return err
		}
		m := &core.Map{ID: core.NewID(), Name: "Arena", Owner: c.ID}
		m.Normalize()
		for i := 0; i < 50; i++ {
			m.Tokens = append(m.Tokens, &core.Token{ID: core.NewID(), Name: fmt.Sprintf("Token %d", i), X: float64(i * 70), Y: float64(i * 35), Scale: 1, Width: 1, Height: 1, Auras: []core.Object{}})
		}
		if err := tx.PutMap(m); err != nil {
			return err
		}
		for i := 0; i < 40; i++ {
			msg := &core.Message{Type: core.MessageChat, Source: "Player", Text: fmt.Sprintf("Message %d: I attack the goblin with my sword", i), Campaign: c.ID}
			if err := tx.AddMessage(msg); err != nil {
				return err
			}
		}
		return tx.PutScreen(c.ID, &core.Screen{MapID: m.ID})
	})
	if err != nil {
		b.Fatal(err)
	}
	client := newLoadClient()
	url := env.srv.URL + "/api"
	var snap struct {
		Messages []any `json:"messages"`
		Map      struct {
			Tokens []any `json:"tokens"`
		} `json:"map"`
	}
	body := fetch(b, client, url)
	if err := json.Unmarshal(body, &snap); err != nil || len(snap.Messages) != 30 || len(snap.Map.Tokens) != 50 {
		b.Fatalf("snapshot: %d messages, %d tokens, %v", len(snap.Messages), len(snap.Map.Tokens), err)
	}
	floor := floorServer(b, body)
	runLoad(b, client, url, 100)
	b.ResetTimer()
	real, base, ratio := compareLoad(b, client, url, floor.URL, b.N)
	b.StopTimer()
	// Latency of one client alone: the server's own time, without queueing
	// behind the other clients on a small machine.
	alone := runLoadWith(b, client, url, min(b.N, 2000), 1)
	b.ReportMetric(real.perSecond(), "req/s")
	b.ReportMetric(float64(real.percentile(50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(real.percentile(99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(alone.percentile(99).Microseconds()), "p99-1client-µs")
	b.ReportMetric(ratio, "x-floor")
	b.ReportMetric(float64(real.cpuPerRequest())/float64(base.cpuPerRequest()), "x-floor-cpu")
	b.Logf("GET /api (30 messages, 50 tokens, %d bytes): %d clients %.0f req/s, p50 %v, p99 %v; floor %.0f req/s; one client p50 %v p99 %v",
		len(body), loadClients, real.perSecond(), real.percentile(50), real.percentile(99), base.perSecond(), alone.percentile(50), alone.percentile(99))
}
