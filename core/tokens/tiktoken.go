package tokens

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go-loader/assets"

	"github.com/toolout/toolout/core"
)

// Encoding names.
const (
	CL100K = "cl100k_base"
	O200K  = "o200k_base"
)

// Default is the encoding toolout uses when none is configured.
const Default = CL100K

var patterns = map[string]string{
	O200KHarmony: o200kPattern,
	CL100K:       `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	O200K:        o200kPattern,
}

// o200kPattern is o200k_base's pre-split pattern, o200k_harmony's too.
var o200kPattern = strings.Join([]string{
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`\p{N}{1,3}`,
	` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
	`\s*[\r\n]+`,
	`\s+(?!\S)`,
	`\s+`,
}, "|")

// Names returns the supported encoding names, sorted.
func Names() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for n := range patterns {
			if !yield(n) {
				return
			}
		}
	})
}

type encoding struct {
	name  string
	ranks *rankTable
	// match is the hand-written splitter (matchCL100K, matchO200K): the
	// end of the piece that starts at s[i]. The specs hold it to the
	// encoding's pattern (patterns) run through regexp2.
	match func(s string, i int) int
	// o200k picks o200k_base's rules in blockEnds (o200k_harmony's too).
	o200k bool
	// specials are the special tokens each counted as one, by their text
	// (nil: none; o200k_harmony's, see harmony.go).
	specials map[string]int
	// caches holds the idle piece caches of the counting loops.
	caches cachePool
}

// matchers are the hand-written splitters, by encoding.
var matchers = map[string]func(string, int) int{CL100K: matchCL100K, O200K: matchO200K}

var (
	encOnce = map[string]*sync.Once{CL100K: {}, O200K: {}, O200KHarmony: {}}
	encs    = map[string]*encoding{}
	encErrs = map[string]error{}
	encMu   sync.Mutex
)

func load(name string) (*encoding, error) {
	once, ok := encOnce[name]
	if !ok {
		return nil, fmt.Errorf("unknown encoding %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	once.Do(func() {
		e, err := build(name)
		encMu.Lock()
		encs[name], encErrs[name] = e, err
		encMu.Unlock()
	})
	encMu.Lock()
	defer encMu.Unlock()
	return encs[name], encErrs[name]
}

func build(name string) (*encoding, error) {
	if name == O200KHarmony { // o200k_base's ranks, shared, and its special tokens
		base, err := load(O200K)
		if err != nil {
			return nil, err
		}
		return &encoding{name: name, ranks: base.ranks, match: base.match, o200k: true, specials: harmonySpecials()}, nil
	}
	data, err := assets.Assets.ReadFile(rankFile(name))
	if err != nil {
		return nil, fmt.Errorf("tokens: %s: embedded ranks: %w", name, err)
	}
	// One pass with strconv, not fmt.Sscan: every process that counts
	// tokens loads the ranks first (200,000 lines for o200k_base), and
	// Sscan's reflection made that take 0.2 s, and over a second under the
	// race detector, which every test binary and child process pays.
	ranks := newRankTable(bytes.Count(data, []byte{'\n'}) + 1)
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			continue
		}
		tok, rank, ok := bytes.Cut(line, []byte{' '})
		r, err := strconv.Atoi(string(rank))
		if !ok || err != nil || r < 0 || r >= rankField { // the merge caches ranks in fields of rankBits
			return nil, fmt.Errorf("tokens: %s: embedded ranks: line %d: malformed", name, n)
		}
		dec := make([]byte, b64len(tok))
		m, err := b64.Decode(dec, tok)
		if err != nil {
			return nil, fmt.Errorf("tokens: %s: embedded ranks: line %d: %w", name, n, err)
		}
		ranks.add(string(dec[:m]), int32(r))
	}
	return &encoding{name: name, ranks: ranks, match: matchers[name], o200k: name == O200K}, nil
}

// rankFile is the embedded file of an encoding's ranks.
func rankFile(name string) string {
	if name == O200KHarmony {
		name = O200K
	}
	return name + ".tiktoken"
}

// Tiktoken is a tiktoken tokenizer for one encoding.
type Tiktoken struct{ enc *encoding }

var _ core.Tokenizer = (*Tiktoken)(nil)

// New returns the tokenizer for the named encoding (cl100k_base, o200k_base,
// o200k_harmony).
// The first call for an encoding loads its embedded ranks, once per
// process; later calls share them.
func New(name string) (*Tiktoken, error) {
	e, err := load(name)
	if err != nil {
		return nil, err
	}
	return &Tiktoken{enc: e}, nil
}

// MustNew is New for names known to be valid; it panics on error.
func MustNew(name string) *Tiktoken {
	t, err := New(name)
	if err != nil {
		panic(err)
	}
	return t
}

// Name returns the encoding name.
func (t *Tiktoken) Name() string { return t.enc.name }

// Count returns the number of tokens s encodes to.
func (t *Tiktoken) Count(s string) int {
	c := t.enc.caches.get()
	sp := newSplitter(t.enc, s)
	mk := marker{left: len(s) + 1} // no mark: a text has at most len(s) pieces
	t.enc.countBlock(c, &sp, 0, &mk, utf8.ValidString(s))
	t.enc.caches.put(c)
	return mk.tokens
}

// WalkPieces calls fn with each pre-split piece of s and its token count,
// in order, without building a slice (chunk planning uses it).
func (t *Tiktoken) WalkPieces(s string, fn func(start, end, tokens int)) {
	valid := utf8.ValidString(s)
	c := t.enc.caches.get()
	defer t.enc.caches.put(c)
	t.walk(s, func(start, end, special int) {
		if special >= 0 {
			fn(start, end, 1)
			return
		}
		fn(start, end, c.count(t.enc, s[start:end], valid))
	})
}

// PiecesFrom appends to dst the next n pre-split pieces of s from byte
// offset from on (fewer at the end of s), with their token counts. from must
// be 0 or the end of a piece of s: the pieces are then those Pieces gives
// from there, since splitting reads nothing before a piece's start. Chunk
// planning uses it to walk a few pieces again instead of keeping them.
func (t *Tiktoken) PiecesFrom(dst []core.Piece, s string, from, n int) []core.Piece {
	e, c := t.enc, t.enc.caches.get()
	defer e.caches.put(c)
	if e.specials != nil { // the splitter, which looks a few KiB ahead for special tokens
		sp := newSplitter(e, s)
		for i := from; n > 0 && i < len(s); n-- {
			j, special := sp.piece(i)
			tokens := 1
			if special < 0 {
				tokens = c.count(e, s[i:j], false)
			}
			dst = append(dst, core.Piece{Start: i, End: j, Tokens: tokens})
			i = j
		}
		return dst
	}
	// the counting loop with a mark at every boundary, up to markBatch+1
	// pieces a call: chunk planning walks blocks again at every chunk's edges
	mk := marker{every: 1, buf: &c.marks}
	for i := from; n > 0 && i < len(s); {
		mk.pieces, mk.tokens, mk.left, mk.n, mk.limit = 0, 0, 1, 0, min(n, markBatch+1)-1
		end := e.countFast(c, s, i, &mk, false) // boundaries 1 to limit; the end of the piece after stops it
		start, before := i, 0
		for _, m := range mk.marks() {
			dst = append(dst, core.Piece{Start: start, End: m.Offset, Tokens: m.Tokens - before})
			start, before = m.Offset, m.Tokens
		}
		dst = append(dst, core.Piece{Start: start, End: end, Tokens: mk.tokens - before})
		i, n = end, n-mk.pieces
	}
	return dst
}

// Mark is a piece boundary that WalkMarks reports.
type Mark struct {
	// Piece is k for the boundary before piece k (the number of pieces for
	// the end of the text).
	Piece int
	// Offset is its byte offset; Tokens counts the tokens before it.
	Offset, Tokens int
}

// markBatch is how many marks WalkMarks hands over at once.
const markBatch = 128

// WalkMarks counts s as Count does and reports every every-th piece
// boundary (0, every, 2·every, ...) and the end of s, whatever its number,
// as Marks, in order, a batch at a time: fn may keep the batch only until
// it returns, and returning false ends the walk. With PiecesFrom to walk a
// block again, that is all chunk planning keeps of a document: a callback
// per piece would cost it a tenth of the counting, one per mark two
// hundredths. The counting loop keeps the marks itself (marker), so a walk
// costs a mark's three words every every pieces over Count.
func (t *Tiktoken) WalkMarks(s string, every int, fn func(batch []Mark) bool) {
	every = max(every, 1)
	var buf [markBatch]Mark
	mk := marker{every: every, left: every, n: 1, limit: markBatch, buf: &buf} // boundary 0
	valid := utf8.ValidString(s)
	cache := t.enc.caches.get()
	defer t.enc.caches.put(cache)
	sp := newSplitter(t.enc, s)
	for i := 0; ; {
		if i = t.enc.countBlock(cache, &sp, i, &mk, valid); i >= len(s) {
			break
		}
		if !fn(mk.marks()) { // full, and another mark is due
			return
		}
		mk.n = 0
	}
	if mk.pieces > 0 { // the end of s: never a due mark, which comes before a piece
		if mk.n == mk.limit {
			if !fn(mk.marks()) {
				return
			}
			mk.n = 0
		}
		buf[mk.n], mk.n = Mark{Piece: mk.pieces, Offset: len(s), Tokens: mk.tokens}, mk.n+1
	}
	fn(mk.marks())
}

// countBlock counts s (sp's text) from byte offset i (0 or the end of a
// piece) to its end, into mk, keeping mk's marks, and returns where it
// stopped: the end of s, or the boundary where a mark is due and mk holds
// no more. It is the loop of Count and of WalkMarks.
func (e *encoding) countBlock(c *pieceCache, sp *splitter, i int, mk *marker, valid bool) int {
	s := sp.s
	if e.specials == nil {
		return e.countFast(c, s, i, mk, valid)
	}
	// o200k_harmony: each stretch between two special tokens on its own
	for i < len(s) {
		if stop := sp.stop(i); stop > i {
			if i = e.countFast(c, s[:stop], i, mk, valid); i < stop {
				return i // marks full
			}
			continue
		}
		if !mk.mark(i) {
			return i
		}
		_, n, _ := e.special(s, i)
		mk.pieces, mk.tokens, mk.left, i = mk.pieces+1, mk.tokens+1, mk.left-1, i+n
	}
	return i
}

// Pieces appends the pre-split pieces of s, with their token counts, to dst.
func (t *Tiktoken) Pieces(dst []core.Piece, s string) []core.Piece {
	dst = slices.Grow(dst, len(s)/4) // about one piece per four bytes
	valid := utf8.ValidString(s)
	c := t.enc.caches.get()
	t.walk(s, func(start, end, special int) {
		tokens := 1
		if special < 0 {
			tokens = c.count(t.enc, s[start:end], valid)
		}
		dst = append(dst, core.Piece{Start: start, End: end, Tokens: tokens})
	})
	t.enc.caches.put(c)
	return dst
}

// walk calls fn with the byte range of each pre-split piece of s, in order:
// contiguous ranges that cover s, and the id of the special token a piece
// is (-1 for an ordinary piece).
func (t *Tiktoken) walk(s string, fn func(start, end, special int)) {
	sp := newSplitter(t.enc, s)
	for i := 0; i < len(s); {
		j, special := sp.piece(i)
		fn(i, j, special)
		i = j
	}
}
