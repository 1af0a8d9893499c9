// Package memstore is the in-process gateway.Store: two maps with expiry
// and insertion-order eviction, on the injected clock.
package memstore

import (
	"container/list"
	"context"
	"sync"
	"time"

	"github.com/toolout/toolout/core/gateway"
)

// Store is a gateway.Store held in memory. It is safe for concurrent use.
type Store struct {
	opts       gateway.StoreOptions
	mu         sync.Mutex
	original   *ttlMap
	compressed *ttlMap
}

var _ gateway.Store = (*Store)(nil)

// New returns a Store; zero options mean the defaults.
func New(opts gateway.StoreOptions) *Store {
	opts = opts.WithDefaults()
	return &Store{opts: opts, original: newTTLMap(opts.MaxEntries), compressed: newTTLMap(opts.MaxEntries)}
}

// PutOriginal keeps the original content of id for OriginalTTL.
func (s *Store) PutOriginal(_ context.Context, id, content string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.original.put(id, content, s.opts.Sources.Time().Add(s.opts.OriginalTTL))
	return nil
}

// Original returns the original content of id, if it has not expired.
func (s *Store) Original(_ context.Context, id string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.original.get(id, s.opts.Sources.Time())
	return v, ok, nil
}

// PutCompressed keeps the compressed text of id for CompressedTTL.
func (s *Store) PutCompressed(_ context.Context, id, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compressed.put(id, text, s.opts.Sources.Time().Add(s.opts.CompressedTTL))
	return nil
}

// Compressed returns the compressed text of id, if it has not expired.
func (s *Store) Compressed(_ context.Context, id string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.compressed.get(id, s.opts.Sources.Time())
	return v, ok, nil
}

// Stats reports the entries held.
func (s *Store) Stats(context.Context) (gateway.StoreStats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return gateway.StoreStats{Originals: s.original.order.Len(), Compressed: s.compressed.order.Len()}, nil
}

// Close does nothing.
func (s *Store) Close() error { return nil }

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
