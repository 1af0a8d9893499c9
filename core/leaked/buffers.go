package leaked

import (
	"slices"
	"strings"
	"sync"
)

// arena hands out the bytes of the calls' arguments from shared chunks, so
// that a call costs no allocation of its own (the arguments of a 1 MiB text
// of calls took 7,600 allocations). No two slices it hands out share a
// byte, so appending to one never writes over another.
type arena struct {
	free []byte // the rest of the current chunk, len == cap
}

// arenaChunk is the size of a chunk; larger requests get their own slice.
const arenaChunk = 16 << 10

// alloc returns an empty slice with room for exactly n bytes.
func (a *arena) alloc(n int) []byte {
	if n > arenaChunk/4 {
		return make([]byte, 0, n)
	}
	if len(a.free) < n {
		a.free = make([]byte, arenaChunk)
	}
	b := a.free[:0:n]
	a.free = a.free[n:]
	return b
}

// compact returns valid JSON compacted (appendCompact) into the arena.
func (a *arena) compact(raw string) []byte {
	return appendCompact(a.alloc(len(raw)), raw)
}

// content returns text with the spans cut out, trimmed: one copy, sized
// before it is made.
func content(text string, spans []Span) string {
	n := len(text)
	for _, sp := range spans {
		n -= sp.Length
	}
	var b strings.Builder
	b.Grow(n)
	at := 0
	for _, sp := range spans {
		b.WriteString(text[at:sp.Offset])
		at = sp.Offset + sp.Length
	}
	b.WriteString(text[at:])
	return strings.TrimSpace(b.String())
}

// more returns list with room for one more element. append grows a long
// slice by a quarter at a time, which copies a 1 MiB text's calls about
// five times over (2.3 MB allocated for 0.4 MB of calls); more doubles it,
// for the first text a pooled scanner reads that is longer than the last.
func more[T any](list []T) []T {
	if len(list) < cap(list) {
		return list
	}
	return slices.Grow(list, max(len(list), 8))
}

// scanners keeps scanners between calls of Extract, with their buffers:
// the calls, spans and decoded values of a text are gathered in buffers
// that grew for earlier texts, and the result gets copies of its exact
// size, so that a text of many calls costs no regrowing of its lists.
var scanners = sync.Pool{New: func() any { return &scanner{needles: map[string]*memo{}} }}

// getScanner returns a scanner for s from the pool, its memos reset.
func getScanner(s string, opts Options) *scanner {
	sc := scanners.Get().(*scanner)
	sc.s, sc.opts = s, opts
	for _, m := range sc.needles {
		*m = memo{}
	}
	for _, m := range sc.exact {
		*m = memo{}
	}
	sc.fam = [len(anchors)]memo{}
	return sc
}

// maxPooled bounds the buffers that a pooled scanner keeps, in elements
// (16 bytes count as one in the parameters' buffer, so 1 MiB): a scanner
// whose buffers grew past it on a large text goes to the garbage
// collector.
const maxPooled = 1 << 16

// release empties the scanner, so that it holds nothing of the text or the
// result, and puts it back in the pool. What the scan cut short of a
// buffer of pointers was cleared where it was cut; the rest is cleared
// here.
func (sc *scanner) release() {
	clear(sc.calls)
	clear(sc.dropped)
	clear(sc.repairs)
	clear(sc.patterns)
	clear(sc.json.kids)
	clear(sc.params.list)
	if max(cap(sc.calls), cap(sc.spans), cap(sc.dropped), cap(sc.empties), cap(sc.kept), cap(sc.json.kids), cap(sc.json.stack), cap(sc.params.list),
		cap(sc.params.buf)/16) > maxPooled {
		return
	}
	*sc = scanner{
		spans: sc.spans[:0], empties: sc.empties[:0], calls: sc.calls[:0], dropped: sc.dropped[:0], repairs: sc.repairs[:0],
		patterns: sc.patterns[:0], stack: sc.stack[:0], needles: sc.needles, exact: sc.exact,
		json: strict{stack: sc.json.stack[:0], kids: sc.json.kids[:0]}, kept: sc.kept[:0],
		arena: sc.arena, params: params{buf: sc.params.buf[:0], list: sc.params.list[:0]},
	}
	scanners.Put(sc)
}

// exact returns a copy of list of its length, or nil when it is empty.
func exact[T any](list []T) []T {
	if len(list) == 0 {
		return nil
	}
	return append(make([]T, 0, len(list)), list...)
}
