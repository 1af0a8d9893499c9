package tokens

import "sync/atomic"

// pieceCache remembers the token counts of recent pieces, by their bytes.
// Text repeats its pieces (a log's keys, levels and timestamps'
// punctuation, JSON's field names, code's keywords and identifiers), and a
// piece that is no single token costs a failed rank lookup and a merge of
// several more; a hit here costs one cache line read from the CPU's
// second-level cache. Four-way set-associative: a new piece takes the first
// way of its set and moves the others down, dropping the last. The count of a
// piece is a function of its bytes alone (invalid bytes included: count
// replaces them the same way every time), so a cache serves every text of
// its encoding; a counting loop takes one from its encoding's cachePool and
// hands it back, so no two goroutines share one.
//
// Real text has thousands of distinct pieces a MiB (Go's net/http: 6,100
// of three to seven bytes in cl100k_base, 5,000 of eight to fifteen, 1,600
// of 16 to 48), and every miss is a merge of tens to thousands of
// instructions, and tens of misses in the rank table, which the CPU's caches
// do not hold: with 8,192 direct-mapped slots a quarter of a warm count of
// that text went to merging what the cache had dropped, with 32,768 entries
// in two ways 8% (1,700 misses a count), in four ways 3% (550 misses, a
// tenth of the time). Pieces of up to seven bytes, most of any text's, have
// a table of their own with entries of eight bytes (small), the rest of up
// to fifteen one of sixteen (sets), those up to 48 bytes long slots (long):
// counting net/http between two counts of the Opticks text, as
// BenchmarkCountCodeOverProse does, that text's warm misses are 20, 1 and 24,
// and its working set nearer the CPU (1.05-1.08x over one table of 16-byte
// entries).
type pieceCache struct {
	small [smallSets]smallSet // first: its sets are then aligned to 32 bytes
	sets  [cacheSets]cacheSet
	long  [longSets]longSet
	// marks is PiecesFrom's scratch, here so that a walk of a few pieces
	// zeroes no array of its own.
	marks [markBatch]Mark
}

// cacheSet is four entries (64 bytes, one cache line) of pieces of at most shortMax bytes. An entry is
// the piece packed as in the rank table (lo, hi) with its length in the low
// four bits of hi's last byte, which a piece this short leaves zero, and
// its token count in the high four (tokShift): a piece of more tokens than
// that is not kept. A zero entry (length 0) matches no piece.
type cacheSet [4]struct{ lo, hi uint64 }

const (
	shortMax = packedMax - 1
	tokShift = 60
	// countBits is the count's width: an entry shifted left by it keeps
	// all but the count, so (entry^key)<<countBits is 0 when they match.
	countBits = 64 - tokShift
	// cacheBits sizes the short entries: 8,192 sets of 64 bytes, 512 KiB,
	// the size of the CPU's second-level cache on the machine measured.
	cacheBits = 13
	cacheSets = 1 << cacheBits
)

// smallSet is four entries (32 bytes, half a cache line) of pieces of at
// most smallMax bytes: the piece's bytes in the low seven bytes of a word,
// its length in bits 56-59 and its token count in the top four (tokShift).
// Most pieces of text are three to seven bytes, and their own table, of
// entries half the size of the short ones, keeps a text's working set
// nearer the CPU: Go's net/http has 6,100 distinct pieces
// of three to seven bytes, 123,000 of its 270,000 pieces, and 5,000
// distinct of eight to fifteen, 26,000 pieces. Pieces of one and two bytes
// (709 distinct, 116,000 of net/http's pieces) are kept too:
// countBlocks looks every piece up, since a branch on the length to count
// them without the cache mispredicts in source code. A zero entry matches
// no piece.
type smallSet [4]uint64

// smallMax is the longest piece the small entries hold; smallBits sizes
// them: 16,384 sets, 512 KiB (8,192 missed 118 pieces a count of net/http
// between counts of the Opticks text, 16,384 20).
const (
	smallMax  = 7
	smallBits = 14
	smallSets = 1 << smallBits
)

// smallKey is the entry of a piece of 1 to smallMax bytes whose bytes read
// as a little-endian word are lo, without its count, and the index of its set.
func smallKey(lo uint64, n int) (key, set uint64) {
	key = lo | uint64(n)<<56
	return key, key * 0x9E3779B97F4A7C15 >> (64 - smallBits)
}

// shortKey is the entry of a piece of n bytes (1 to shortMax) packed as lo,
// hi, without its count, and the index of its set.
func shortKey(lo, hi uint64, n int) (key uint64, set uint64) {
	key = hi | uint64(n)<<56
	return key, (lo*0x9E3779B97F4A7C15 ^ key*0xC2B2AE3D27D4EB4F) >> (64 - cacheBits)
}

// longSet is four pieces of shortMax+1 to longMax bytes, their bytes copied
// in (n = 0: an empty slot), and their token counts. cl100k_base keeps a
// CamelCase identifier whole (" newClientServerTest"), and code indents
// with runs of spaces: real source code has a few thousand such pieces a
// MiB, a few hundred to a thousand distinct, each a merge of some fifty
// rank lookups when counted again.
type longSet [4]longSlot

type longSlot struct {
	n      uint32
	tokens int32
	b      [longMax]byte
}

// longMax is the longest piece the long slots keep; longBits sizes them:
// 2,048 sets of four slots of 56 bytes, 448 KiB.
const (
	longMax  = 48
	longBits = 11
	longSets = 1 << longBits
)

// count is e.count through the cache, pieces of one and two bytes too:
// countBlocks looks every piece up.
func (c *pieceCache) count(e *encoding, piece string, valid bool) int {
	n := len(piece)
	if n > shortMax {
		return c.countLong(e, piece, valid)
	}
	lo, hi := pack(piece)
	if n <= smallMax {
		key, set := smallKey(lo, n)
		return c.countSmall(e, &c.small[set], piece, key, valid)
	}
	key, set := shortKey(lo, hi, n)
	return c.short(e, &c.sets[set], piece, lo, key, valid)
}

// countSmall is count for a piece of at most smallMax bytes, entry key
// (smallKey), whose set is set.
func (c *pieceCache) countSmall(e *encoding, set *smallSet, piece string, key uint64, valid bool) int {
	if hit := smallHit(set, key); hit != 0 {
		return int(hit >> tokShift)
	}
	k := e.count(piece, valid)
	if k < 1<<countBits {
		set[3], set[2], set[1], set[0] = set[2], set[1], set[0], key|uint64(k)<<tokShift
	}
	return k
}

// short is count for a piece of at most shortMax bytes packed as lo, key
// (shortKey), whose set is set.
func (c *pieceCache) short(e *encoding, set *cacheSet, piece string, lo, key uint64, valid bool) int {
	if hit := shortHit(set, lo, key); hit != 0 {
		return int(hit >> tokShift)
	}
	k := e.count(piece, valid)
	if k < 1<<countBits {
		set[3], set[2], set[1] = set[2], set[1], set[0]
		set[0].lo, set[0].hi = lo, key|uint64(k)<<tokShift
	}
	return k
}

// countLong is count for a piece over shortMax bytes: through the long
// slots up to longMax bytes, compared byte for byte.
func (c *pieceCache) countLong(e *encoding, piece string, valid bool) int {
	n := len(piece)
	if n > longMax {
		return e.count(piece, valid)
	}
	set := &c.long[longHash(piece)>>(64-longBits)]
	if k, ok := longHit(set, piece); ok {
		return k
	}
	k := e.count(piece, valid)
	copy(set[1:], set[:3])
	set[0].n, set[0].tokens = uint32(n), int32(k)
	copy(set[0].b[:], piece)
	return k
}

// longHit is the count of a piece of shortMax+1 to longMax bytes in set,
// its set of long slots (longHash), and whether the set holds it.
func longHit(set *longSet, piece string) (int, bool) {
	for w := range set {
		if s := &set[w]; s.n == uint32(len(piece)) && string(s.b[:len(piece)]) == piece {
			return int(s.tokens), true
		}
	}
	return 0, false
}

// longHash is the hash of a piece of shortMax+1 to longMax bytes whose
// top longBits bits pick its set: its first, middle and last eight bytes
// and its length.
func longHash(piece string) uint64 {
	n := len(piece)
	h := (le64(piece) ^ uint64(n)<<56) * 0x9E3779B97F4A7C15
	h = (h ^ le64(piece[n/2-4:])*0xC2B2AE3D27D4EB4F) * 0x94D049BB133111EB
	return (h ^ le64(piece[n-8:])) * 0x9E3779B97F4A7C15
}

// freeCaches is how many idle piece caches an encoding keeps.
const freeCaches = 8

// cachePool keeps up to freeCaches idle piece caches of one encoding. Not a
// sync.Pool: a collection empties that, and a counting loop would then
// allocate a fresh cache (1.4 MiB: small, sets and long) on its next call, whatever the size of
// its text (testing's benchmarks collect before every run, so 10 MiB
// counted in three runs showed three times the memory of 1 MiB in thirty).
// Taking and handing back are an atomic swap each; more concurrent loops
// than slots allocate caches that are then dropped.
type cachePool struct {
	free [freeCaches]atomic.Pointer[pieceCache]
}

// get returns an idle cache, or a new one.
func (p *cachePool) get() *pieceCache {
	for i := range p.free {
		if c := p.free[i].Swap(nil); c != nil {
			return c
		}
	}
	return new(pieceCache)
}

// put hands c back, or drops it when every slot holds one.
func (p *cachePool) put(c *pieceCache) {
	for i := range p.free {
		if p.free[i].CompareAndSwap(nil, c) {
			return
		}
	}
}

// smallHit is the entry of set that matches key (smallKey), 0 if none,
// found without a branch a way: which way holds a piece is a coin toss,
// and conditional moves pick the entry. The counting loop reads the cache
// with it.
func smallHit(set *smallSet, key uint64) (hit uint64) {
	if (set[0]^key)<<countBits == 0 {
		hit = set[0]
	}
	if (set[1]^key)<<countBits == 0 {
		hit = set[1]
	}
	if (set[2]^key)<<countBits == 0 {
		hit = set[2]
	}
	if (set[3]^key)<<countBits == 0 {
		hit = set[3]
	}
	return hit
}

// shortHit is smallHit for a piece of up to shortMax bytes packed as lo,
// key (shortKey): the hi of the matching entry.
func shortHit(set *cacheSet, lo, key uint64) (hit uint64) {
	if e := set[0]; (e.lo^lo)|(e.hi^key)<<countBits == 0 {
		hit = e.hi
	}
	if e := set[1]; (e.lo^lo)|(e.hi^key)<<countBits == 0 {
		hit = e.hi
	}
	if e := set[2]; (e.lo^lo)|(e.hi^key)<<countBits == 0 {
		hit = e.hi
	}
	if e := set[3]; (e.lo^lo)|(e.hi^key)<<countBits == 0 {
		hit = e.hi
	}
	return hit
}
