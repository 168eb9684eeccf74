package systems

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestCacheIsBoundedAndKeepsUsedEntries(t *testing.T) {
	c := newCache(3)
	key := func(i int) cacheKey { return cacheKey{id: fmt.Sprint(i), revision: 1, variant: 'v'} }
	for i := 0; i < 3; i++ {
		c.put(&cacheEntry{key: key(i), bytes: []byte{byte(i)}})
	}
	c.get(key(0)) // used: survives the next eviction
	c.put(&cacheEntry{key: key(3)})
	if c.len() != 3 {
		t.Fatalf("len %d", c.len())
	}
	if _, ok := c.get(key(0)); !ok {
		t.Fatal("a recently used entry was evicted")
	}
	if _, ok := c.get(key(1)); ok {
		t.Fatal("the unused oldest entry should have been evicted")
	}
	if _, ok := c.get(key(3)); !ok {
		t.Fatal("the new entry is missing")
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				c.put(&cacheEntry{key: key(g*1000 + i)})
				c.get(key(g*1000 + i - 1))
			}
		}(g)
	}
	wg.Wait()
	if c.len() != 3 || len(c.ring) != 3 {
		t.Fatalf("bound broken: %d items, %d slots", c.len(), len(c.ring))
	}
}

func TestViewCachePerRevision(t *testing.T) {
	s := loadTiny(t)
	ctx := context.Background()
	e := goblin()
	first, err := s.View(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	first[0] = 'X' // callers own their copy
	again, _ := s.View(ctx, e)
	if again[0] != '{' {
		t.Fatal("a caller's change leaked into the cache")
	}
	// Same revision: the cached bytes are served even if the entity changed
	// in memory; a new revision is rendered afresh.
	e.Data["type"] = "fey"
	cached, _ := s.View(ctx, e)
	if string(cached) != string(again) {
		t.Fatal("the same revision must be served from the cache")
	}
	e.Revision = 2
	fresh, _ := s.View(ctx, e)
	if string(fresh) == string(again) {
		t.Fatal("a new revision must be rendered again")
	}
	row, _ := s.ListRow(ctx, e, false)
	if want := `"type":"fey"`; !contains(row, want) {
		t.Fatalf("row %s lacks %s", row, want)
	}
	// Revision 0 (never stored) is never cached.
	e.Revision = 0
	s.View(ctx, e)
	n := s.viewCache.len()
	e.Data["type"] = "undead"
	v, _ := s.View(ctx, e)
	if !contains(v, "undead") || s.viewCache.len() != n {
		t.Fatal("an unstored entity must not be cached")
	}
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }

func TestReferencesCachedPerRevision(t *testing.T) {
	s := loadTiny(t)
	ctx := context.Background()
	e := goblin()
	refs, err := s.References(ctx, e)
	if err != nil || len(refs) != 1 {
		t.Fatal(refs, err)
	}
	refs[0] = "changed"
	e.Data["spells"] = []any{"a", "b"}
	again, _ := s.References(ctx, e)
	if len(again) != 1 || again[0] != "spell.fire-bolt" {
		t.Fatalf("same revision must come from the cache, unchanged by callers: %v", again)
	}
	e.Revision++
	fresh, _ := s.References(ctx, e)
	if len(fresh) != 2 || fresh[1] != "spell.b" {
		t.Fatalf("new revision: %v", fresh)
	}
}

// Past the first rebuild most hits come from the lock-free snapshot; an
// entry evicted after the snapshot was made must not be served from it.
func TestCacheSnapshotServesLiveEntriesOnly(t *testing.T) {
	c := newCache(64)
	key := func(i int) cacheKey { return cacheKey{id: fmt.Sprint(i), revision: 1, variant: 'v'} }
	for i := 0; i < 64; i++ {
		c.put(&cacheEntry{key: key(i), bytes: []byte{byte(i)}})
	}
	if c.snapshot.Load() == nil {
		t.Fatal("no snapshot after 64 puts")
	}
	for i := 0; i < 64; i++ {
		if e, ok := c.get(key(i)); !ok || e.bytes[0] != byte(i) {
			t.Fatalf("entry %d: %v %v", i, e, ok)
		}
	}
	// Every entry is used: the sweep clears all flags, then evicts entry 0.
	c.put(&cacheEntry{key: key(64), bytes: []byte{64}})
	if _, ok := c.get(key(0)); ok {
		t.Fatal("an evicted entry was served from the snapshot")
	}
	if _, ok := c.get(key(64)); !ok {
		t.Fatal("the entry put after the snapshot is missing")
	}
	// Replacing an entry serves the new one, whichever map holds the old.
	c.put(&cacheEntry{key: key(5), bytes: []byte{55}})
	if e, ok := c.get(key(5)); !ok || e.bytes[0] != 55 {
		t.Fatalf("replaced entry: %v %v", e, ok)
	}
	if c.len() != 64 {
		t.Fatalf("len %d", c.len())
	}
	live := 0
	for i := 0; i <= 64; i++ {
		if _, ok := c.get(key(i)); ok {
			live++
		}
	}
	if live != 64 {
		t.Fatalf("%d entries readable, want 64", live)
	}
}

// Entries read often move to the lock-free snapshot without waiting for
// more puts.
func TestCacheReadsMoveRecentEntriesToTheSnapshot(t *testing.T) {
	c := newCache(100)
	key := cacheKey{id: "a", revision: 1, variant: 'v'}
	c.put(&cacheEntry{key: key})
	for i := 0; i < lockedHitsBeforeRebuild; i++ {
		if _, ok := c.get(key); !ok {
			t.Fatal("miss")
		}
	}
	snap := c.snapshot.Load()
	if snap == nil || len((*snap)[key.id]) != 1 {
		t.Fatal("a frequently read entry is still only in recent")
	}
}
