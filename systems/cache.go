package systems

import (
	"sync"
	"sync/atomic"

	"github.com/vttapp/companion/scripting"
	"github.com/vttapp/companion/templates"
)

// cacheKey names one rendering of one entity revision. The system version
// is implicit: every loaded System has its own caches.
type cacheKey struct {
	id       string
	revision int64
	variant  byte // 'l' list row, 'b' basic row, 'r' references, 'v' view, 'p' page
	// redacted: rendered from players' copy (core.EntityForPlayers), which
	// may differ from the whole entity's.
	redacted bool
}

type cacheEntry struct {
	key   cacheKey
	bytes []byte
	refs  []string    // references, read-only
	used  atomic.Bool // second chance for the clock eviction
	gone  atomic.Bool // evicted or replaced: no longer served

	// value is the view for templates (nulls marked), read-only; a view
	// rendered for its JSON alone gets it from the bytes when a page first
	// needs it.
	value     map[string]any
	valueOnce sync.Once
	valueErr  error
}

// templateValue returns the view for templates.
func (ce *cacheEntry) templateValue() (map[string]any, error) {
	ce.valueOnce.Do(func() {
		if ce.value != nil {
			return
		}
		v, err := scripting.DecodeJSON(ce.bytes)
		if err != nil {
			ce.valueErr = err
			return
		}
		ce.value = templates.MarkNulls(v).(map[string]any)
	})
	return ce.value, ce.valueErr
}

// cache is a bounded map with CLOCK (second chance) eviction.
//
// Reads are lock-free: a hit is one lookup in an immutable Go map reached
// through an atomic pointer (the snapshot), a flag check and a flag set, so
// a cached read costs little more than copying the bytes. Entries put since
// the snapshot was made sit in a small map under the mutex (recent) until
// the snapshot is rebuilt from the ring, which happens when recent has
// grown to a quarter of the ring (each put pays for about four entries of
// the rebuild) or after 64 reads had to take the lock. An evicted entry is flagged gone at once, so the snapshot
// never serves it. Entries are never modified after insertion (except their
// flags); readers get copies of the bytes.
//
// (sync.Map was the first design; its lookups walk a hash trie and cost
// two to five times a plain map lookup once the cache holds thousands of
// entries.)
type cache struct {
	snapshot atomic.Pointer[map[string][]*cacheEntry] // by id: a string key hashes faster than cacheKey

	mu     sync.Mutex // guards everything below
	max    int
	ring   []*cacheEntry // every live entry, swept by the clock hand
	hand   int
	slot   map[cacheKey]int         // key -> position in ring
	recent map[cacheKey]*cacheEntry // live entries not in the snapshot
	// lockedHits counts reads served from recent since the last snapshot.
	lockedHits int
}

func newCache(max int) *cache {
	return &cache{max: max, slot: map[cacheKey]int{}, recent: map[cacheKey]*cacheEntry{}}
}

func (c *cache) get(k cacheKey) (*cacheEntry, bool) {
	if snap := c.snapshot.Load(); snap != nil {
		for _, e := range (*snap)[k.id] {
			if e.key == k && !e.gone.Load() {
				c.touch(e)
				return e, true
			}
		}
	}
	c.mu.Lock()
	e, ok := c.recent[k]
	if ok {
		// Entries read often belong in the snapshot: rebuild it after a
		// few reads that had to take the lock.
		c.lockedHits++
		if c.lockedHits >= lockedHitsBeforeRebuild {
			c.rebuild()
		}
	}
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	c.touch(e)
	return e, true
}

// lockedHitsBeforeRebuild bounds the reads served under the lock (from
// recent) between two snapshots.
const lockedHitsBeforeRebuild = 64

func (c *cache) touch(e *cacheEntry) {
	if !e.used.Load() {
		e.used.Store(true)
	}
}

func (c *cache) put(e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, ok := c.slot[e.key]; ok {
		// Same key rendered twice concurrently: keep one, in old's slot.
		c.ring[i].gone.Store(true)
		c.ring[i] = e
	} else if len(c.ring) < c.max {
		c.slot[e.key] = len(c.ring)
		c.ring = append(c.ring, e)
	} else {
		c.evictInto(e)
	}
	c.recent[e.key] = e
	if len(c.recent) >= max(8, len(c.ring)/4) {
		c.rebuild()
	}
}

// evictInto sweeps the ring: it clears the flag of recently used entries
// and replaces the first entry not used since the hand last passed by e.
func (c *cache) evictInto(e *cacheEntry) {
	for {
		victim := c.ring[c.hand]
		if victim.used.Load() {
			victim.used.Store(false)
			c.hand = (c.hand + 1) % len(c.ring)
			continue
		}
		victim.gone.Store(true)
		delete(c.slot, victim.key)
		delete(c.recent, victim.key)
		c.ring[c.hand] = e
		c.slot[e.key] = c.hand
		c.hand = (c.hand + 1) % len(c.ring)
		return
	}
}

// rebuild makes a new snapshot of every live entry.
func (c *cache) rebuild() {
	snap := make(map[string][]*cacheEntry, len(c.ring))
	for _, e := range c.ring {
		snap[e.key.id] = append(snap[e.key.id], e)
	}
	c.snapshot.Store(&snap)
	clear(c.recent)
	c.lockedHits = 0
}

func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.ring)
}

// cacheable: an entity that was never stored (revision 0) has no stable
// identity to cache under.
func cacheable(revision int64) bool { return revision > 0 }

func copyBytes(b []byte) []byte { return append([]byte(nil), b...) }
