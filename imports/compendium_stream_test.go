package imports

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/legacy"
)

// A compendium is written to the store in batches while it is read (the
// issue: a 200 MB file held 8.4 GB of memory, every entity kept until one
// transaction wrote them all), and nothing of it is seen before the
// install commits, nor after it fails.

// countingStore counts the write transactions of a store.
type countingStore struct {
	core.Store
	updates atomic.Int64
}

func (s *countingStore) Update(ctx context.Context, fn func(tx core.Tx) error) error {
	s.updates.Add(1)
	return s.Store.Update(ctx, fn)
}

// peekingMapper is fakeMapper that, at the entry named "Peek", counts the
// monsters the service lists, once the batches before it are written
// (the store's writes reach base+batches).
type peekingMapper struct {
	fakeMapper
	svc     *engine.Service
	writes  *atomic.Int64
	base    atomic.Int64
	batches int64
	mu      sync.Mutex
	seen    []int
	early   int // peeks that came before the batches were written
}

func (p *peekingMapper) MapCompendium(ctx context.Context, kind string, el map[string]any) ([]*core.Entity, error) {
	if el["name"] == "Peek" {
		written := false
		for deadline := time.Now().Add(10 * time.Second); !written && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			written = p.writes.Load()-p.base.Load() >= p.batches
		}
		if !written {
			p.mu.Lock()
			p.early++
			p.mu.Unlock()
		}
		list, err := p.svc.Entities(ctx, "monster")
		if err != nil {
			return nil, err
		}
		p.mu.Lock()
		p.seen = append(p.seen, len(list))
		p.mu.Unlock()
	}
	return p.fakeMapper.MapCompendium(ctx, kind, el)
}

type peekingCollections struct {
	testCollections
	m *peekingMapper
}

func (c peekingCollections) Compendium() CompendiumMapper { return c.m }

// monsterDoc is a compendium of n monsters named M0.., with one named
// peek at peekAt (-1: none) and one named Boom at the end when boom.
func monsterDoc(n, peekAt int, boom bool) []byte {
	var b strings.Builder
	b.WriteString("<compendium>\n")
	for i := range n {
		name := "M" + strconv.Itoa(i)
		if i == peekAt {
			name = "Peek"
		}
		fmt.Fprintf(&b, "<monster><name>%s</name><hp>%d</hp></monster>\n", name, i%40)
	}
	if boom {
		b.WriteString("<monster><name>Boom</name></monster>\n")
	}
	b.WriteString("</compendium>\n")
	return []byte(b.String())
}

func TestACompendiumIsWrittenInBatchesAndSeenAllAtOnce(t *testing.T) {
	env := newTestEnv(t)
	counting := &countingStore{Store: env.store}
	env.svc = engine.NewService(engine.ServiceConfig{Store: counting, Events: env.bus})
	peek := &peekingMapper{svc: env.svc, writes: &counting.updates, batches: 2}
	env.in = NewInstaller(env.svc, env.dataDir, peekingCollections{m: peek})
	const n = 3*legacy.StageBatch + 17
	ctx := context.Background()

	// It fails at its last entry: nothing is seen, before or after.
	peek.base.Store(counting.updates.Load())
	_, err := env.in.InstallFile(ctx, writeTemp(t, "big.xml", monsterDoc(n, 2*legacy.StageBatch+5, true)), "big.xml", InstallOptions{})
	wantKind(t, err, core.KindInvalid, `failed on monster "Boom"`)
	if m, _, e, _ := env.counts(t); m != 0 || e != 0 {
		t.Fatalf("a failed import left %d modules, %d entities", m, e)
	}
	// Whole: written in batches, seen only once installed, all of it.
	before := counting.updates.Load()
	peek.base.Store(before)
	res, err := env.in.InstallFile(ctx, writeTemp(t, "big.xml", monsterDoc(n, 2*legacy.StageBatch+5, false)), "big.xml", InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	writes := counting.updates.Load() - before
	if m, _, e, _ := env.counts(t); m != 1 || e != n || res.Compendium.Entities != n {
		t.Fatalf("installed %d modules, %d entities (reported %d), want 1 and %d", m, e, res.Compendium.Entities, n)
	}
	if writes < n/legacy.StageBatch+1 {
		t.Errorf("%d write transactions for %d entities: not written in batches of %d", writes, n, legacy.StageBatch)
	}
	for _, seen := range peek.seen {
		if seen != 0 {
			t.Errorf("a reader saw %d of the import's monsters before it was installed", seen)
		}
	}
	if len(peek.seen) != 2 || peek.early != 0 {
		t.Fatalf("peeked %d times, %d of them before two batches were written", len(peek.seen), peek.early)
	}
	// A staged import interrupted by a stop leaves nothing once the
	// server starts again (NewManager drops what was staged).
	if err := env.svc.StageEntities(ctx, "import-left-behind", []*core.Entity{{ID: "e-left", Kind: "monster", Name: "Left", Slug: "left", System: "dnd5e"}}); err != nil {
		t.Fatal(err)
	}
	NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: testCollections{}}).Close()
	if err := env.store.Update(ctx, func(tx core.Tx) error {
		if n, err := tx.AdoptStaged("import-left-behind", "nobody"); err != nil || n != 0 {
			return fmt.Errorf("adopted %d left behind: %v", n, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// rssNow is the process's resident memory, from /proc (0 elsewhere).
func rssNow() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// bytesWritten is what the process has written to storage (/proc's
// write_bytes; 0 elsewhere).
func bytesWritten() int64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "write_bytes:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
			return n
		}
	}
	return 0
}

// memoryPeak samples the heap and the resident memory until stopped.
type memoryPeak struct {
	stop       chan struct{}
	done       sync.WaitGroup
	heap, rss  atomic.Int64
	heapBefore int64
}

func startMemoryPeak() *memoryPeak {
	runtime.GC()
	p := &memoryPeak{stop: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(sample)
		if v := int64(sample[0].Value.Uint64()); v > p.heap.Load() {
			p.heap.Store(v)
		}
		if v := rssNow(); v > p.rss.Load() {
			p.rss.Store(v)
		}
	}
	read()
	p.heapBefore = p.heap.Load()
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				read()
				return
			case <-tick.C:
				read()
			}
		}
	}()
	return p
}

func (p *memoryPeak) end() (heap, rss int64) {
	close(p.stop)
	p.done.Wait()
	return p.heap.Load(), p.rss.Load()
}

// bigCompendiumFile writes a compendium of at least size bytes into dir,
// from the legacy readers' fixture (its monster, spell and item in turn,
// each renamed), without holding it in memory; it returns its path and
// its entries.
func bigCompendiumFile(tb testing.TB, dir string, size int64) (string, int) {
	tb.Helper()
	one := string(bigCompendium(tb, 3))
	start, end := strings.Index(one, "<monster"), strings.LastIndex(one, "</compendium>")
	// Every text a little longer, as in a published compendium (a stat
	// block's traits are paragraphs): the file stays within the reader's
	// limit of elements at this size.
	pad := " " + strings.Repeat("The marsh remembers every step taken through it. ", 6)
	body := strings.ReplaceAll(one[start:end], "</text>", pad+"</text>")
	path := filepath.Join(dir, "big.compendium.xml")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := 0
	n, _ := f.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<compendium version=\"5\">\n")
	written := int64(n)
	for ; written < size; w++ {
		chunk := strings.NewReplacer(" 0</name>", fmt.Sprintf(" %d</name>", 3*w), " 1</name>", fmt.Sprintf(" %d</name>", 3*w+1),
			" 2</name>", fmt.Sprintf(" %d</name>", 3*w+2)).Replace(body)
		n, err := f.WriteString(chunk)
		if err != nil {
			tb.Fatal(err)
		}
		written += int64(n)
	}
	if _, err := f.WriteString("</compendium>\n"); err != nil {
		tb.Fatal(err)
	}
	return path, 3 * w
}

// TestABigCompendiumStaysUnderItsMemoryBound imports a compendium of
// COMPANION_BIG_COMPENDIUM_MB megabytes (200 for the file; unset,
// the test is skipped: it takes minutes) with the D&D 5e system's Lua
// hook, and reports the peak heap and resident memory, which must stay
// under 512 MB.
func TestABigCompendiumStaysUnderItsMemoryBound(t *testing.T) {
	mb, _ := strconv.Atoi(os.Getenv("COMPANION_BIG_COMPENDIUM_MB"))
	if mb <= 0 {
		t.Skip("set COMPANION_BIG_COMPENDIUM_MB=200 to import a compendium of that size (minutes)")
	}
	sys := loadDnd5e(t)
	env := newBenchEnv(t, sys)
	path, entries := bigCompendiumFile(t, t.TempDir(), int64(mb)<<20)
	info, _ := os.Stat(path)
	peak := startMemoryPeak()
	writtenBefore := bytesWritten()
	start := time.Now()
	res, err := env.in.InstallFile(context.Background(), path, "big.compendium.xml", InstallOptions{})
	took := time.Since(start)
	heap, rss := peak.end()
	written := bytesWritten() - writtenBefore
	if err != nil {
		t.Fatal(err)
	}
	dbSize := int64(0)
	for _, name := range []string{"companion.db", "companion.db-wal"} {
		if fi, err := os.Stat(filepath.Join(env.dataDir, name)); err == nil {
			dbSize += fi.Size()
		}
	}
	t.Logf("%d MB of compendium XML (%d entries) imported in %v: %d entities; peak heap %d MB (%d MB before), peak resident %d MB; the database and its log %d MB; %d MB written to storage",
		info.Size()>>20, entries, took.Round(time.Second), res.Compendium.Entities, heap>>20, peak.heapBefore>>20, rss>>20, dbSize>>20, written>>20)
	if res.Compendium.Entities != entries {
		t.Errorf("%d entities from %d entries", res.Compendium.Entities, entries)
	}
	if rss >= 512<<20 || heap >= 512<<20 {
		t.Errorf("peak memory %d MB resident, %d MB heap: over 512 MB", rss>>20, heap>>20)
	}
}
