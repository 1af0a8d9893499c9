package storecontract

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/toolout/toolout/core/gateway"
)

func bounds() []Case {
	return []Case{
		{Name: "bounds/entries", Desc: "drops the oldest entry of a kind past MaxEntries, leaving the other kind alone",
			opts: gateway.StoreOptions{MaxEntries: 3}, body: func(e *env) {
				for _, id := range []string{"a", "b", "c"} {
					e.putCompressed(id, "c-"+id)
				}
				for _, id := range []string{"a", "b", "c", "d"} {
					e.putOriginal(id, "o-"+id)
				}
				eq(e, e.original("a"), missing, "original a, the oldest of four")
				for _, id := range []string{"b", "c", "d"} {
					eq(e, e.original(id), "o-"+id, "original %s", id)
				}
				for _, id := range []string{"a", "b", "c"} {
					eq(e, e.compressed(id), "c-"+id, "compressed %s", id)
				}
				eq(e, e.stats(), gateway.StoreStats{Originals: 3, Compressed: 3, Bytes: 4*3 + 4*3}, "stats")
			}},
		{Name: "bounds/newest", Desc: "counts an id put again as the newest", opts: gateway.StoreOptions{MaxEntries: 3}, body: func(e *env) {
			for _, id := range []string{"a", "b", "c", "a", "d"} {
				e.putOriginal(id, "v")
			}
			for id, want := range map[string]string{"a": "v", "b": missing, "c": "v", "d": "v"} {
				eq(e, e.original(id), want, "original %s after a, b, c, a, d", id)
			}
		}},
	}
}

// byteBounds is the MaxBytes part of the bounds.
func byteBounds() []Case {
	return []Case{
		{Name: "bytes/oldest", Desc: "drops the oldest entries of either kind past MaxBytes", opts: gateway.StoreOptions{MaxBytes: 100}, body: func(e *env) {
			e.putOriginal("o1", sized("o1", 30))
			e.putCompressed("c1", sized("c1", 30))
			e.putOriginal("o2", sized("o2", 30))
			eq(e, e.stats().Bytes, 90, "bytes of three entries of 30")
			e.putCompressed("c2", sized("c2", 30))
			eq(e, e.original("o1"), missing, "original o1, the oldest")
			eq(e, e.stats(), gateway.StoreStats{Originals: 1, Compressed: 2, Bytes: 90}, "stats after a fourth entry")
			e.putOriginal("o3", sized("o3", 70))
			eq(e, e.compressed("c1"), missing, "compressed c1")
			eq(e, e.original("o2"), missing, "original o2")
			eq(e, e.compressed("c2"), sized("c2", 30), "compressed c2")
			eq(e, e.stats(), gateway.StoreStats{Originals: 1, Compressed: 1, Bytes: 100}, "stats after an entry of 70")
		}},
		{Name: "bytes/every-put", Desc: "keeps Stats.Bytes within MaxBytes after every put",
			opts: gateway.StoreOptions{MaxBytes: 500, MaxEntries: 1000}, body: func(e *env) {
				for i := range 200 {
					id := fmt.Sprint("id", i%37)
					v := strings.Repeat("v", (i*53)%240)
					if i%3 == 0 {
						e.putCompressed(id, v)
					} else {
						e.putOriginal(id, v)
					}
					if b := e.stats().Bytes; b > 500 {
						e.failf("after put %d: %d bytes, over MaxBytes 500", i, b)
					}
				}
			}},
		{Name: "bytes/exact", Desc: "keeps an entry of exactly MaxBytes alone", opts: gateway.StoreOptions{MaxBytes: 64}, body: func(e *env) {
			e.putOriginal("a", "1")
			e.putCompressed("b", "2")
			e.putOriginal("big", sized("big", 64))
			eq(e, e.original("big"), sized("big", 64), "original big")
			eq(e, e.stats(), gateway.StoreStats{Originals: 1, Bytes: 64}, "stats")
		}},
		{Name: "bytes/too-large", Desc: "does not keep an entry larger than MaxBytes alone, and evicts nothing for it",
			opts: gateway.StoreOptions{MaxBytes: 64}, body: func(e *env) {
				e.putOriginal("a", "1")
				e.putCompressed("b", "2")
				e.putOriginal("big", sized("big", 65))
				e.putCompressed("big", sized("big", 1000))
				eq(e, e.original("big"), missing, "original big (65 bytes)")
				eq(e, e.compressed("big"), missing, "compressed big (1000 bytes)")
				eq(e, e.stats(), gateway.StoreStats{Originals: 1, Compressed: 1, Bytes: 4}, "stats")
			}},
		{Name: "bytes/replaced-too-large", Desc: "drops the old value of an id whose new value is too large to keep",
			opts: gateway.StoreOptions{MaxBytes: 64}, body: func(e *env) {
				e.putOriginal("a", "old")
				e.putOriginal("a", sized("a", 65))
				eq(e, e.original("a"), missing, "original a")
				eq(e, e.stats(), gateway.StoreStats{}, "stats")
			}},
	}
}

func concurrency() []Case {
	const maxEntries, maxBytes, ids = 16, 4000, 40
	return []Case{{Name: "concurrency", Desc: "ends within its bounds after 8 goroutines x 200 mixed operations, Stats matching the lookups",
		opts: gateway.StoreOptions{MaxEntries: maxEntries, MaxBytes: maxBytes}, body: func(e *env) {
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					for i := range 200 {
						concurrentOp(e, g, i, maxEntries, maxBytes)
					}
				})
			}
			wg.Wait()
			var want gateway.StoreStats
			for i := range ids {
				id := fmt.Sprint("id", i)
				for kind, get := range map[string]func(string) string{"o": e.original, "c": e.compressed} {
					v := get(id)
					if v == missing {
						continue
					}
					if !strings.HasPrefix(v, kind+":"+id+":") {
						e.failf("%s %s: %q is not a value put for its own id and kind", kind, id, clip(v))
					}
					want.Bytes += int64(len(id) + len(v))
					if kind == "o" {
						want.Originals++
					} else {
						want.Compressed++
					}
				}
			}
			eq(e, e.stats(), want, "stats against what the lookups found")
			withinBounds(e, want, maxEntries, maxBytes, "the lookups")
		}}}
}

// withinBounds records a failure when st is past the bounds.
func withinBounds(e *env, st gateway.StoreStats, maxEntries int, maxBytes int64, what string) {
	if st.Originals > maxEntries || st.Compressed > maxEntries || st.Bytes > maxBytes {
		e.failf("%s: %+v past MaxEntries %d, MaxBytes %d", what, st, maxEntries, maxBytes)
	}
}

// concurrentOp is operation i of goroutine g: a put, a get or a Stats
// check, of either kind, on one of 40 ids, with values of 0 to 400 bytes.
func concurrentOp(e *env, g, i, maxEntries int, maxBytes int64) {
	id := fmt.Sprint("id", (g*7+i*13)%40)
	pad := strings.Repeat("p", (g*31+i*17)%400)
	switch i % 5 {
	case 0, 1:
		e.putOriginal(id, fmt.Sprintf("o:%s:%d:%d:%s", id, g, i, pad))
	case 2:
		e.putCompressed(id, fmt.Sprintf("c:%s:%d:%d:%s", id, g, i, pad))
	case 3:
		if v := e.original(id); v != missing && !strings.HasPrefix(v, "o:"+id+":") {
			e.failf("original %s: %q is not a value put for it", id, clip(v))
		}
		if v := e.compressed(id); v != missing && !strings.HasPrefix(v, "c:"+id+":") {
			e.failf("compressed %s: %q is not a value put for it", id, clip(v))
		}
	default:
		withinBounds(e, e.stats(), maxEntries, maxBytes, fmt.Sprintf("stats of goroutine %d at operation %d", g, i))
	}
}

// cancelWait bounds how long a call with a cancelled context may take.
const cancelWait = 10 * time.Second

func cancel() []Case {
	return []Case{{Name: "cancel", Desc: "answers a cancelled context with an error or a no-op, never a hang", body: func(e *env) {
		e.putOriginal("kept", "v")
		e.putCompressed("kept", "v")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		calls := map[string]func() error{
			"PutOriginal":   func() error { return e.store.PutOriginal(ctx, e.caller, "new", "v") },
			"PutCompressed": func() error { return e.store.PutCompressed(ctx, "new", "v") },
			"Original":      getter(ctx, e.originalOf(e.caller)),
			"Compressed":    getter(ctx, e.store.Compressed),
			"Stats": func() error {
				st, err := e.store.Stats(ctx)
				if err == nil && st != (gateway.StoreStats{Originals: 1, Compressed: 1, Bytes: 10}) {
					return fmt.Errorf("stats %+v without an error", st)
				}
				return err
			},
		}
		for _, name := range []string{"PutOriginal", "PutCompressed", "Original", "Compressed", "Stats"} {
			done := make(chan error, 1)
			go func() { done <- calls[name]() }()
			select {
			case err := <-done:
				if err != nil && !errors.Is(err, context.Canceled) {
					e.failf("%s with a cancelled context: %v: want an error wrapping context.Canceled, or none", name, err)
				}
			case <-time.After(cancelWait):
				e.failf("%s with a cancelled context did not return within %s", name, cancelWait)
			}
		}
		eq(e, e.original("new"), missing, "original new (a put with a cancelled context is a no-op)")
		eq(e, e.compressed("new"), missing, "compressed new (a put with a cancelled context is a no-op)")
	}}}
}

// getter calls a lookup with ctx: an error, or a no-op answer (the value
// that is there, or none).
func getter(ctx context.Context, get func(context.Context, string) (string, bool, error)) func() error {
	return func() error {
		v, ok, err := get(ctx, "kept")
		if err == nil && ok && v != "v" {
			return fmt.Errorf("got %q without an error", v)
		}
		return err
	}
}
