package systems

import (
	"container/list"
	"sync"
)

// cacheKey names one rendering of one entity revision. The system version
// is implicit: every loaded System has its own caches.
type cacheKey struct {
	id       string
	revision int64
	variant  byte // 'l' list row, 'b' basic row, 'v' view, 'p' page
}

type cacheEntry struct {
	key   cacheKey
	bytes []byte
	value map[string]any // the decoded view, for pages (read-only)
}

// cache is a bounded least-recently-used map. Values are never modified
// after insertion; readers get copies of the bytes.
type cache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front = most recent
	items map[cacheKey]*list.Element
}

func newCache(max int) *cache {
	return &cache{max: max, order: list.New(), items: make(map[cacheKey]*list.Element, max)}
}

func (c *cache) get(k cacheKey) (*cacheEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheEntry), true
}

func (c *cache) put(e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[e.key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.items[e.key] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*cacheEntry).key)
	}
}

func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// cacheable: an entity that was never stored (revision 0) has no stable
// identity to cache under.
func cacheable(revision int64) bool { return revision > 0 }

func copyBytes(b []byte) []byte { return append([]byte(nil), b...) }
