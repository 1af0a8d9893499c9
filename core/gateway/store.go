package gateway

import (
	"container/list"
	"sync"
	"time"

	"github.com/toolout/toolout/core"
)

// Store defaults: the spec's TTLs, and bounds on the entries kept.
const (
	DefaultOriginalTTL   = 5 * time.Minute
	DefaultCompressedTTL = 24 * time.Hour
	DefaultMaxEntries    = 10_000
)

// StoreOptions configure a Store.
type StoreOptions struct {
	// OriginalTTL is how long originals are kept for expansion.
	OriginalTTL time.Duration
	// CompressedTTL is how long compressed texts are kept for reuse.
	CompressedTTL time.Duration
	// MaxEntries bounds each of the two maps; the oldest entry goes first.
	MaxEntries int
	// Sources supplies the clock.
	Sources core.Sources
}

// Store keeps originals with a short TTL and compressed texts with a long
// one, both bounded. It is safe for concurrent use.
type Store struct {
	opts       StoreOptions
	mu         sync.Mutex
	original   *ttlMap
	compressed *ttlMap
}

// NewStore returns a Store; zero options mean the defaults.
func NewStore(opts StoreOptions) *Store {
	if opts.OriginalTTL <= 0 {
		opts.OriginalTTL = DefaultOriginalTTL
	}
	if opts.CompressedTTL <= 0 {
		opts.CompressedTTL = DefaultCompressedTTL
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	return &Store{opts: opts, original: newTTLMap(opts.MaxEntries), compressed: newTTLMap(opts.MaxEntries)}
}

// PutOriginal keeps the original content of id for OriginalTTL.
func (s *Store) PutOriginal(id, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.original.put(id, content, s.opts.Sources.Time().Add(s.opts.OriginalTTL))
}

// Original returns the original content of id, if it has not expired.
func (s *Store) Original(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.original.get(id, s.opts.Sources.Time())
}

// PutCompressed keeps the compressed text of id for CompressedTTL.
func (s *Store) PutCompressed(id, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compressed.put(id, text, s.opts.Sources.Time().Add(s.opts.CompressedTTL))
}

// Compressed returns the compressed text of id, if it has not expired.
func (s *Store) Compressed(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.compressed.get(id, s.opts.Sources.Time())
}

// Len returns the number of originals and compressed texts held, expired
// ones included until they are next looked up or pushed out.
func (s *Store) Len() (originals, compressed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.original.order.Len(), s.compressed.order.Len()
}

type ttlEntry struct {
	key     string
	value   string
	expires time.Time
}

// ttlMap is a map with expiry and insertion-order eviction.
type ttlMap struct {
	max   int
	m     map[string]*list.Element
	order *list.List
}

func newTTLMap(max int) *ttlMap {
	return &ttlMap{max: max, m: map[string]*list.Element{}, order: list.New()}
}

func (t *ttlMap) put(key, value string, expires time.Time) {
	if el, ok := t.m[key]; ok {
		t.order.Remove(el)
	}
	t.m[key] = t.order.PushBack(&ttlEntry{key, value, expires})
	for t.order.Len() > t.max {
		oldest := t.order.Front()
		t.order.Remove(oldest)
		delete(t.m, oldest.Value.(*ttlEntry).key)
	}
}

func (t *ttlMap) get(key string, now time.Time) (string, bool) {
	el, ok := t.m[key]
	if !ok {
		return "", false
	}
	e := el.Value.(*ttlEntry)
	if !now.Before(e.expires) {
		t.order.Remove(el)
		delete(t.m, key)
		return "", false
	}
	return e.value, true
}
