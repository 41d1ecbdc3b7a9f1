package web

import (
	"container/list"
	"sync"
)

// renderCache keeps rendered diagrams by key (project, version, format,
// options), least recently used out first, within a byte budget. A
// project's new version makes new keys; old entries age out.
type renderCache struct {
	mu     sync.Mutex
	budget int
	size   int
	order  *list.List // front: most recent
	items  map[string]*list.Element
}

type cacheEntry struct {
	key  string
	data []byte
}

func newRenderCache(budget int) *renderCache {
	return &renderCache{budget: budget, order: list.New(), items: map[string]*list.Element{}}
}

// get returns the bytes cached under key.
func (c *renderCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheEntry).data, true
}

// put caches data under key, dropping the least recently used entries
// past the budget. Data larger than the budget is not cached.
func (c *renderCache) put(key string, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(data) > c.budget {
		return
	}
	if el, ok := c.items[key]; ok {
		c.size -= len(el.Value.(*cacheEntry).data)
		c.order.Remove(el)
	}
	c.items[key] = c.order.PushFront(&cacheEntry{key, data})
	c.size += len(data)
	for c.size > c.budget {
		el := c.order.Back()
		e := el.Value.(*cacheEntry)
		c.order.Remove(el)
		delete(c.items, e.key)
		c.size -= len(e.data)
	}
}
