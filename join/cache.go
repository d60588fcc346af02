package join

import (
	"container/list"
	"errors"
	"sync"
	"time"
)

// CacheOptions are Flink's 'lookup.partial-cache.*' options (its
// DefaultLookupCache).
type CacheOptions struct {
	MaxRows           int           // most keys kept, least recently used dropped first; 0: no bound
	ExpireAfterWrite  time.Duration // 0: never
	ExpireAfterAccess time.Duration // 0: never
	CacheMissingKey   bool          // also remember keys that matched no row
}

// Cache is an LRU cache of lookup results by key, with Flink's expiry rules.
// It is safe for concurrent use.
type Cache struct {
	opts CacheOptions
	now  func() time.Time

	mu      sync.Mutex
	lru     *list.List // of *cached, most recently used first
	byKey   map[string]*list.Element
	hits    int64
	misses  int64
	evicted int64
}

type cached struct {
	key      string
	rows     []Row
	written  time.Time
	accessed time.Time
}

// NewCache returns an empty cache. As Flink's, it needs a bound: a size or
// an expiry.
func NewCache(opts CacheOptions) (*Cache, error) {
	if opts.MaxRows < 0 || opts.ExpireAfterWrite < 0 || opts.ExpireAfterAccess < 0 {
		return nil, errors.New("lookup cache: negative size or expiry")
	}
	if opts.MaxRows == 0 && opts.ExpireAfterWrite == 0 && opts.ExpireAfterAccess == 0 {
		return nil, errors.New("lookup cache: PARTIAL needs 'lookup.partial-cache.max-rows', " +
			"'lookup.partial-cache.expire-after-write' or 'lookup.partial-cache.expire-after-access'")
	}
	return &Cache{opts: opts, now: time.Now, lru: list.New(), byKey: map[string]*list.Element{}}, nil
}

// Get returns the rows cached for key; ok is false on a miss. An empty,
// non-nil result means the key is known to match nothing.
func (c *Cache) Get(key string) (rows []Row, ok bool) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	el, found := c.byKey[key]
	if found {
		it := el.Value.(*cached)
		if c.expired(it, now) {
			c.remove(el)
		} else {
			it.accessed = now
			c.lru.MoveToFront(el)
			c.hits++
			return it.rows, true
		}
	}
	c.misses++
	return nil, false
}

func (c *Cache) expired(it *cached, now time.Time) bool {
	return c.opts.ExpireAfterWrite > 0 && now.Sub(it.written) >= c.opts.ExpireAfterWrite ||
		c.opts.ExpireAfterAccess > 0 && now.Sub(it.accessed) >= c.opts.ExpireAfterAccess
}

// Put remembers rows for key; an empty result only with CacheMissingKey.
func (c *Cache) Put(key string, rows []Row) {
	if len(rows) == 0 {
		if !c.opts.CacheMissingKey {
			return
		}
		rows = []Row{}
	}
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		it := el.Value.(*cached)
		it.rows, it.written, it.accessed = rows, now, now
		c.lru.MoveToFront(el)
		return
	}
	c.byKey[key] = c.lru.PushFront(&cached{key: key, rows: rows, written: now, accessed: now})
	for c.opts.MaxRows > 0 && c.lru.Len() > c.opts.MaxRows {
		c.remove(c.lru.Back())
		c.evicted++
	}
}

func (c *Cache) remove(el *list.Element) {
	c.lru.Remove(el)
	delete(c.byKey, el.Value.(*cached).key)
}

// CacheStats counts what a cache served.
type CacheStats struct {
	Hits, Misses, Evicted int64
	Size                  int
}

// HitRatio is hits over lookups, 0 before any.
func (s CacheStats) HitRatio() float64 {
	if s.Hits+s.Misses == 0 {
		return 0
	}
	return float64(s.Hits) / float64(s.Hits+s.Misses)
}

// Stats returns the counts so far.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Hits: c.hits, Misses: c.misses, Evicted: c.evicted, Size: c.lru.Len()}
}
