package gateway

import (
	"context"
	"hash/maphash"
	"strings"
	"testing"
)

// originals is a Store of originals only, in the process, that records
// the callers Original was asked for.
type originals struct {
	Store
	held  map[string]string
	asked []string
}

func (o *originals) Remote() bool { return false }

func (o *originals) Original(_ context.Context, caller, id string) (string, bool, error) {
	o.asked = append(o.asked, caller)
	v, ok := o.held[OriginalKey(caller, id)]
	return v, ok, nil
}

// collidingMemo is a memo whose maphash gives every content the same sum:
// a guess then names another content's id whenever the lengths match.
func collidingMemo() *idMemo {
	m := newIDMemo()
	m.hash = func(maphash.Seed, string) uint64 { return 7 }
	return m
}

// TestIDMemoCollision: contents of one length that collide in the memo
// each get their own SHA-256 id, first seen, repeated and interleaved: a
// guess is taken only when the caller's stored original has the same bytes.
func TestIDMemoCollision(t *testing.T) {
	st := &originals{held: map[string]string{}}
	m, ctx := collidingMemo(), context.Background()
	a, b := strings.Repeat("a", 3000), strings.Repeat("b", 3000)
	for _, c := range []string{a, a, b, a, b, b} {
		id := m.shadowID(ctx, st, "alice", c)
		if want := ShadowID(c); id != want {
			t.Fatalf("content %q…: id %s, want %s", c[:1], id, want)
		}
		st.held[OriginalKey("alice", id)] = c
	}
}

// TestIDMemoCaller: a guess is checked against the asking caller's own
// original only; another caller, who never stored the content, gets its id
// by hashing, and the memo never reads an original of someone else.
func TestIDMemoCaller(t *testing.T) {
	st := &originals{held: map[string]string{}}
	m, ctx := newIDMemo(), context.Background()
	c := strings.Repeat("x", 5000)
	id := m.shadowID(ctx, st, "alice", c)
	st.held[OriginalKey("alice", id)] = c
	st.asked = nil
	if got := m.shadowID(ctx, st, "bob", c); got != ShadowID(c) {
		t.Fatalf("bob's id %s, want %s", got, ShadowID(c))
	}
	for _, caller := range st.asked {
		if caller != "bob" {
			t.Fatalf("the memo asked the store for %q's original on bob's request", caller)
		}
	}
	// A store that lost the original (evicted, expired) is no proof either.
	delete(st.held, OriginalKey("alice", id))
	if got := m.shadowID(ctx, st, "alice", c); got != id {
		t.Fatalf("alice's id after eviction %s, want %s", got, id)
	}
}

// TestIDMemoBounded: however many contents pass, the memo remembers at
// most idMemoSlots of them, and none of their bytes.
func TestIDMemoBounded(t *testing.T) {
	st := &originals{held: map[string]string{}}
	m, ctx := newIDMemo(), context.Background()
	for i := range 3 * idMemoSlots {
		m.shadowID(ctx, st, "", strings.Repeat("y", i+1))
	}
	n := 0
	for i := range m.slots {
		if g := m.slots[i].Load(); g != nil {
			n++
			if len(g.id) != len(ShadowID("")) {
				t.Fatalf("slot %d holds %q, not a shadow id", i, g.id)
			}
		}
	}
	if n > idMemoSlots {
		t.Fatalf("%d guesses held, want at most %d", n, idMemoSlots)
	}
}

// TestIDMemoSample: two contents that differ only outside the bytes the
// memo's hash samples share a slot, and each still gets its own id.
func TestIDMemoSample(t *testing.T) {
	st := &originals{held: map[string]string{}}
	m, ctx := newIDMemo(), context.Background()
	a := strings.Repeat("a", 10000)
	b := a[:1000] + "b" + a[1001:] // past the first 512 bytes, before the middle ones
	if m.hash(m.seed, a) != m.hash(m.seed, b) {
		t.Fatalf("the sample hash read byte 1000")
	}
	for _, c := range []string{a, b, a, b} {
		id := m.shadowID(ctx, st, "alice", c)
		if want := ShadowID(c); id != want {
			t.Fatalf("content %d: id %s, want %s", strings.IndexByte(c, 'b'), id, want)
		}
		st.held[OriginalKey("alice", id)] = c
	}
}
