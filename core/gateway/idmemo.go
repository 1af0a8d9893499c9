package gateway

import (
	"context"
	"hash/maphash"
	"sync/atomic"

	"github.com/toolout/toolout/core/gateway/internal/sample"
)

// idMemoSlots is how many contents the shadow-id memo remembers: a fixed
// table of that many slots, so the memo holds at most that many ids (a few
// hundred KiB) whatever the traffic, and never a content.
const idMemoSlots = 4096

// idMemo remembers the shadow ids of recent contents, so that a content
// sent again (each request of a conversation carries its earlier tool
// results) need not be hashed with SHA-256 again. A slot is chosen by a
// maphash of a sample of the content (sample.String) and records its
// length and id; that is only a guess. A guess is taken only once the
// store's original of this caller
// under that id is byte for byte the content: the pipe stores an original
// only under the SHA-256 id of its bytes, so equal bytes have that id.
// Correctness never rests on the maphash, and a guess is checked against
// the asking caller's own original: another caller's hit never reads, or
// tells anything of, an original it did not store. The memo is used only
// with a store whose Original is a lookup in the process (a [Locality]
// that is not Remote): reading a large original back from a remote store
// costs more than hashing it.
type idMemo struct {
	seed  maphash.Seed
	hash  func(seed maphash.Seed, s string) uint64 // sample.String; a spec makes every content collide
	slots [idMemoSlots]atomic.Pointer[idGuess]
}

// idGuess is what a slot remembers of one content.
type idGuess struct {
	sum uint64
	n   int
	id  string
}

func newIDMemo() *idMemo {
	return &idMemo{seed: maphash.MakeSeed(), hash: func(seed maphash.Seed, s string) uint64 { return sample.String(seed, "", s) }}
}

// shadowID returns ShadowID(content): from the memo when the store holds
// caller's original under the remembered id with exactly these bytes,
// else by hashing it, and then remembers it. A store error is not one:
// the id is then hashed.
func (m *idMemo) shadowID(ctx context.Context, st Store, caller, content string) string {
	sum := m.hash(m.seed, content)
	slot := &m.slots[sum%idMemoSlots]
	if g := slot.Load(); g != nil && g.sum == sum && g.n == len(content) {
		if orig, ok, err := st.Original(ctx, caller, g.id); err == nil && ok && orig == content {
			return g.id
		}
	}
	id := ShadowID(content)
	slot.Store(&idGuess{sum: sum, n: len(content), id: id})
	return id
}

// localStore reports whether st's calls stay in the process.
func localStore(st Store) bool {
	l, ok := st.(Locality)
	return ok && !l.Remote()
}
