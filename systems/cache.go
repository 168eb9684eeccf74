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
}

type cacheEntry struct {
	key   cacheKey
	bytes []byte
	refs  []string    // references, read-only
	used  atomic.Bool // second chance for the clock eviction

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

// cache is a bounded map with CLOCK (second chance) eviction. A hit is a
// lock-free sync.Map load and a flag, so a cached read costs little more
// than copying the bytes; puts and evictions take a mutex. Entries are
// never modified after insertion (except their flag); readers get copies of
// the bytes.
type cache struct {
	items sync.Map // cacheKey -> *cacheEntry

	mu   sync.Mutex // guards ring and hand
	max  int
	ring []*cacheEntry // the entries in items, swept by the clock hand
	hand int
}

func newCache(max int) *cache {
	return &cache{max: max}
}

func (c *cache) get(k cacheKey) (*cacheEntry, bool) {
	v, ok := c.items.Load(k)
	if !ok {
		return nil, false
	}
	e := v.(*cacheEntry)
	if !e.used.Load() {
		e.used.Store(true)
	}
	return e, true
}

func (c *cache) put(e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.items.Load(e.key); ok {
		// Same key rendered twice concurrently: keep one, in old's slot.
		for i, r := range c.ring {
			if r == old.(*cacheEntry) {
				c.ring[i] = e
				break
			}
		}
		c.items.Store(e.key, e)
		return
	}
	if len(c.ring) < c.max {
		c.ring = append(c.ring, e)
		c.items.Store(e.key, e)
		return
	}
	// Sweep: clear the flag of recently used entries, evict the first
	// entry not used since the hand last passed.
	for {
		victim := c.ring[c.hand]
		if victim.used.Load() {
			victim.used.Store(false)
			c.hand = (c.hand + 1) % len(c.ring)
			continue
		}
		c.items.Delete(victim.key)
		c.ring[c.hand] = e
		c.items.Store(e.key, e)
		c.hand = (c.hand + 1) % len(c.ring)
		return
	}
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
