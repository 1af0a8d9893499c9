package memstore

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/toolout/toolout/core/gateway"
)

// Store is a gateway.Store held in memory. It is safe for concurrent use.
type Store struct {
	opts gateway.StoreOptions

	mu         sync.Mutex
	original   *queue
	compressed *queue
	bytes      int64  // size of every entry of both kinds
	held       int64  // heap held by every entry of both kinds (entry.heap)
	heapCap    int64  // NewBounded: the most held may be; 0: no such bound
	seq        uint64 // the seq of the next put
}

var _ gateway.Store = (*Store)(nil)

// New returns an empty Store; zero options mean the defaults
// (gateway.StoreOptions.WithDefaults).
func New(opts gateway.StoreOptions) *Store {
	opts = opts.WithDefaults()
	return &Store{opts: opts, original: newQueue("original", opts.OriginalTTL), compressed: newQueue("compressed", opts.CompressedTTL)}
}

// PutOriginal keeps caller's original content of id for OriginalTTL,
// replacing any original caller already kept for id (another caller's
// stays).
func (s *Store) PutOriginal(ctx context.Context, caller, id, content string) error {
	return s.put(ctx, s.original, gateway.OriginalKey(caller, id), len(caller)+len(id), content, 0)
}

// TakeOriginal is PutOriginal that keeps content itself, counting held
// bytes for it (gateway.OriginalTaker): the caller made content, in an
// allocation of held bytes, for this call alone.
func (s *Store) TakeOriginal(ctx context.Context, caller, id, content string, held int) error {
	return s.put(ctx, s.original, gateway.OriginalKey(caller, id), len(caller)+len(id), content, held)
}

// Original returns caller's original content of id, if it has not
// expired; another caller's is missing.
func (s *Store) Original(ctx context.Context, caller, id string) (string, bool, error) {
	return s.get(ctx, s.original, gateway.OriginalKey(caller, id))
}

// PutCompressed keeps the compressed text of id for CompressedTTL,
// replacing any compressed text already kept for id.
func (s *Store) PutCompressed(ctx context.Context, id, text string) error {
	return s.put(ctx, s.compressed, id, len(id), text, 0)
}

// Compressed returns the compressed text of id, if it has not expired.
func (s *Store) Compressed(ctx context.Context, id string) (string, bool, error) {
	return s.get(ctx, s.compressed, id)
}

// Stats reports the live entries of each kind and their bytes, after
// dropping the expired ones.
func (s *Store) Stats(ctx context.Context) (gateway.StoreStats, error) {
	if err := ctx.Err(); err != nil {
		return gateway.StoreStats{}, fmt.Errorf("memstore: stats: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.purge(s.opts.Sources.Time())
	return gateway.StoreStats{Originals: s.original.len(), Compressed: s.compressed.len(), Bytes: s.bytes}, nil
}

// Close drops every entry, releasing their memory, also while other calls
// run. The store stays usable.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.original.clear() // in place: the methods pass the queues without the lock
	s.compressed.clear()
	s.bytes, s.held = 0, 0
	return nil
}

// NewBounded is New, and also keeps what the store holds (Held) within
// HeapBound(opts): past it the oldest entries go, of either kind, even
// under MaxBytes, and an entry that holds more than that on its own is not
// kept. MaxBytes counts bytes as the gateway.Store contract does, while
// the allocator rounds each value up (a 32,769-byte value takes 40,960),
// so a store of values that round up badly holds more than MaxBytes; this
// one does not hold more than its bound, so a memory limit set from
// HeapBound holds for any sizes of values.
func NewBounded(opts gateway.StoreOptions) *Store {
	s := New(opts)
	s.heapCap = HeapBound(opts)
	return s
}

// Held is the heap the live entries hold, as the store accounts it: for
// each entry the allocations of its key and value (their bytes rounded up
// as the allocator rounded them) and EntryOverhead. It is at most
// HeapBound of the store's options in a store from NewBounded.
func (s *Store) Held() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held
}

// put replaces the entry of key in q, then evicts: the oldest of q past
// MaxEntries, the oldest of both kinds past MaxBytes or the heap bound. keyBytes is what the
// key counts against MaxBytes (the caller's and the id's bytes). The clock
// is read under the lock, so put order is the order of the readings.
func (s *Store) put(ctx context.Context, q *queue, key string, keyBytes int, value string, held int) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("memstore: put %s: %w", q.kind, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Sources.Time()
	s.purge(now)
	old, had := q.byID[key]
	if had {
		s.drop(q, old)
	}
	if int64(keyBytes+len(value)) > s.opts.MaxBytes {
		return nil // larger than the whole store: not kept
	}
	e := &entry{keyBytes: keyBytes, expires: now.Add(q.ttl), seq: s.seq}
	// The store holds copies, so a key or value cut from a larger string
	// does not keep the rest of it alive; a put of the value already held
	// (the gateway's put on every cache hit) keeps the copy it has.
	switch {
	case had && old.value == value:
		e.id, e.value, e.heap = old.id, old.value, old.heap
	case held > 0:
		e.id, e.value, e.heap = take(key, value, held)
	default:
		e.id, e.value, e.heap = hold(key, value)
	}
	if s.heapCap > 0 && e.heap > s.heapCap {
		return nil // larger than the heap bound on its own: not kept
	}
	s.seq++
	q.push(e)
	s.bytes += e.size()
	s.held += e.heap
	for q.len() > s.opts.MaxEntries {
		s.drop(q, q.head)
	}
	for s.bytes > s.opts.MaxBytes || (s.heapCap > 0 && s.held > s.heapCap) {
		s.dropOldest()
	}
	return nil
}

// get returns the live value of key in q.
func (s *Store) get(ctx context.Context, q *queue, key string) (string, bool, error) {
	if err := ctx.Err(); err != nil {
		return "", false, fmt.Errorf("memstore: get %s: %w", q.kind, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Sources.Time()
	s.purge(now)
	e, ok := q.byID[key]
	if !ok {
		return "", false, nil
	}
	if !now.Before(e.expires) {
		// behind a live entry: the clock went back between puts
		s.drop(q, e)
		return "", false, nil
	}
	return e.value, true, nil
}

// purge drops the expired entries at the front of both queues. Each entry
// is dropped once, so the cost is O(1) amortized per put.
func (s *Store) purge(now time.Time) {
	for _, q := range []*queue{s.original, s.compressed} {
		for q.head != nil && !now.Before(q.head.expires) {
			s.drop(q, q.head)
		}
	}
}

// dropOldest drops the entry put first, of either kind. The store must not
// be empty.
func (s *Store) dropOldest() {
	o, c := s.original.head, s.compressed.head
	if c == nil || (o != nil && o.seq < c.seq) {
		s.drop(s.original, o)
		return
	}
	s.drop(s.compressed, c)
}

func (s *Store) drop(q *queue, e *entry) {
	q.remove(e)
	s.bytes -= e.size()
	s.held -= e.heap
}

// Remote is false: the store is a lookup in the process (gateway.Locality),
// so the gateway may read an original back to check a content against it.
func (s *Store) Remote() bool { return false }
