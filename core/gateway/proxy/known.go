package proxy

import (
	"bytes"
	"hash/maphash"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/internal/sample"
	"github.com/toolout/toolout/core/jsonspan"
)

// KnownBytes is the most heap the proxy's memo of long request strings
// holds (their text and their bytes as sent): a few dozen 200 KB tool
// results. gateway serve adds it to the memory limit it derives.
const KnownBytes = 16 << 20

// knownMin is the shortest string content the memo keeps: a shorter one is
// scanned and decoded in about the time a lookup takes.
const knownMin = 4096

// knownHintBits is the size of the memo's hint: one bit per hash of the
// first eight bytes of a string's content.
const knownHintBits = 4096

// knownStrings is the proxy's memo of the long strings of recent request
// bodies (jsonspan.Known): each request of a conversation carries its
// earlier tool results again, byte for byte, and a body that holds one the
// memo has is not scanned or decoded there again. An entry is found by the
// first eight bytes of the content and taken only when the body holds
// exactly its bytes followed by the closing quote. Entries belong to the
// caller whose request brought them, and a request is matched against its
// own caller's only: whether another caller sent a string is never told,
// not even by the time a request takes. A string is kept the second time
// a request of its caller holds it (admit). It holds at most KnownBytes; past
// that, the oldest entry not matched since it was last passed over goes
// (a second chance: results a conversation keeps sending stay).
type knownStrings struct {
	hint     [knownHintBits / 64]atomic.Uint64 // set: some entry may start with such bytes
	mu       sync.RWMutex
	byPrefix map[uint64][]*knownEntry // copied on write: a reader keeps its slice
	queue    []*knownEntry            // oldest first, from head
	head     int
	bytes    int64 // heap the live entries hold
	dropped  int   // entries gone since the hint was last rebuilt
	budget   int64
	min      int // the shortest content kept (knownMin; at least 8)
	seed     maphash.Seed
	offered  [knownOffered]atomic.Uint64 // hashes of strings offered once (admit)
}

// knownOffered is how many strings offered once the memo remembers (by a
// hash each) until they come again.
const knownOffered = 4096

// knownEntry is one string: its content as sent and its text.
type knownEntry struct {
	caller string
	prefix uint64
	raw    []byte
	text   string
	heap   int64       // the retained body or the copy of raw, and text
	ref    atomic.Bool // matched since the queue last passed it
}

func newKnownStrings(budget int64, min int) *knownStrings {
	return &knownStrings{byPrefix: map[uint64][]*knownEntry{}, budget: budget, min: max(min, 8), seed: maphash.MakeSeed()}
}

// known is a caller's view of a memo, what a request's parse uses;
// retained says the memo kept the body itself (it is not lent out again).
type known struct {
	m        *knownStrings
	caller   string
	retained bool
}

func (k *known) Match(b []byte, at int) (string, int, bool) { return k.m.match(k.caller, b, at) }

func (k *known) Keep(b []byte, start, end int, text string) {
	k.retained = k.m.keep(k.caller, b, start, end, text) || k.retained
}

var _ jsonspan.Known = (*known)(nil)

// knownFor returns the memo as r's caller sees it.
func (p *Proxy) knownFor(r *http.Request) *known {
	p.knownOnce.Do(func() { p.known = newKnownStrings(KnownBytes, knownMin) })
	return &known{m: p.known, caller: gateway.CallerOf(r.Context())}
}

// prefix8 is the first eight bytes of b as a word.
func prefix8(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// hintBit is the hint's bit for prefix x.
func hintBit(x uint64) (word int, bit uint64) {
	h := (x * 0x9e3779b97f4a7c15) >> (64 - 12) // 12 bits: knownHintBits
	return int(h / 64), 1 << (h % 64)
}

func (m *knownStrings) match(caller string, b []byte, at int) (string, int, bool) {
	if len(b)-at <= m.min {
		return "", 0, false
	}
	x := prefix8(b[at:])
	if w, bit := hintBit(x); m.hint[w].Load()&bit == 0 {
		return "", 0, false
	}
	m.mu.RLock()
	bucket := m.byPrefix[x]
	m.mu.RUnlock()
	for _, e := range bucket {
		n := len(e.raw)
		if e.caller == caller && at+n < len(b) && b[at+n] == '"' && bytes.Equal(b[at:at+n], e.raw) {
			e.ref.Store(true)
			return e.text, n, true
		}
	}
	return "", 0, false
}

// keep remembers body[start:end] and its text for caller the second time
// it is offered them (see admit), and reports whether the entry holds the
// body itself, which it does when the string is most of it (else a copy).
func (m *knownStrings) keep(caller string, body []byte, start, end int, text string) bool {
	n := end - start
	if n < m.min || !m.admit(caller, body[start:end]) {
		return false
	}
	raw, heap, retained := body[start:end:end], int64(len(body)), len(body) <= 2*n
	if !retained {
		raw, heap = bytes.Clone(raw), int64(n)
	}
	heap += int64(len(text))
	if heap > m.budget/4 { // one string never takes most of the memo
		return false
	}
	e := &knownEntry{caller: caller, prefix: prefix8(raw), raw: raw, text: text, heap: heap}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, o := range m.byPrefix[e.prefix] {
		if o.caller == caller && bytes.Equal(o.raw, raw) {
			return false // two requests raced with the same string
		}
	}
	for m.bytes+heap > m.budget && m.head < len(m.queue) {
		m.dropOldest()
	}
	m.queue = append(m.queue, e)
	m.bytes += heap
	m.byPrefix[e.prefix] = append(m.byPrefix[e.prefix][:len(m.byPrefix[e.prefix]):len(m.byPrefix[e.prefix])], e)
	w, bit := hintBit(e.prefix)
	m.hint[w].Or(bit)
	return retained
}

// admit reports whether caller's raw was offered before: a string is
// kept only when it comes again, so a result sent once (most of a stream
// of new ones) costs the memo a hash and no memory, and one a conversation
// sends again is kept from its second request and matched from its third.
// A slot of the table remembers the last hash that fell in it: a string
// whose slot another took since is offered anew. The hash is of a sample
// of the string (sample.Bytes): two strings that share it pass for one,
// which only keeps the second a request early.
func (m *knownStrings) admit(caller string, raw []byte) bool {
	sum := sample.Bytes(m.seed, caller+"\x00", raw)
	slot := &m.offered[sum%uint64(len(m.offered))]
	return slot.Swap(sum) == sum
}

// dropOldest drops the oldest entry not matched since the queue last
// passed it; a matched one goes to the back, its mark cleared.
func (m *knownStrings) dropOldest() {
	for m.head < len(m.queue) {
		e := m.queue[m.head]
		m.queue[m.head] = nil
		m.head++
		if e.ref.Swap(false) {
			m.queue = append(m.queue, e)
			continue
		}
		m.remove(e)
		break
	}
	if m.head > len(m.queue)/2 { // the dropped front takes no room
		m.queue = append(m.queue[:0:0], m.queue[m.head:]...)
		m.head = 0
	}
}

// remove takes e out of its bucket (a new slice: readers keep theirs) and
// rebuilds the hint once as many entries went as are left.
func (m *knownStrings) remove(e *knownEntry) {
	old := m.byPrefix[e.prefix]
	rest := make([]*knownEntry, 0, len(old))
	for _, o := range old {
		if o != e {
			rest = append(rest, o)
		}
	}
	if len(rest) == 0 {
		delete(m.byPrefix, e.prefix)
	} else {
		m.byPrefix[e.prefix] = rest
	}
	m.bytes -= e.heap
	if m.dropped++; m.dropped > len(m.queue)-m.head {
		m.rebuildHint()
	}
}

// rebuildHint clears the bits of the entries gone. A reader that looks in
// between misses a string it could have matched: it reads it instead.
func (m *knownStrings) rebuildHint() {
	m.dropped = 0
	var hint [knownHintBits / 64]uint64
	for x := range m.byPrefix {
		w, bit := hintBit(x)
		hint[w] |= bit
	}
	for i := range hint {
		m.hint[i].Store(hint[i])
	}
}
