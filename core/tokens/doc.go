// Package tokens counts tokens the way OpenAI's tiktoken does, offline, and
// exposes the pre-split pieces that chunk planning cuts between.
//
// New("cl100k_base") and New("o200k_base") return tokenizers whose BPE ranks
// are embedded in the binary (through tiktoken-go-loader's assets): nothing is
// downloaded at run time. Each encoding is built once, on first use, and
// shared; tokenizers are safe for concurrent use. Counts equal tiktoken-go's
// (the reference, checked by this package's specs) for valid UTF-8 text.
//
// Pre-splitting: for each encoding, a hand-written splitter equivalent to
// tiktoken's pattern (alternatives tried in order at each position, with the
// regex engine's backtracking where o200k_base's letter classes overlap;
// regexp2's \s, \p{L}, \p{N} and category classes), ten or more times faster
// than the regex. A spec checks each piece by piece against its pattern run
// through regexp2 on 20,000 random strings, and others check counts against
// tiktoken-go. The byte-pair merge is ours: tiktoken-go merges by rescanning every
// pair after each merge, which is quadratic in the length of a piece, and one
// long piece without white space (64 KB of "a", a base64 blob, minified JSON)
// then takes seconds. Pieces longer than a few dozen bytes are merged here with
// a priority queue over a linked list of parts (lowest rank first, leftmost on
// ties), O(n log n) and merge-for-merge identical to the quadratic loop; short
// pieces use the simple loop, which is faster for them.
//
// Choices where tiktoken is silent or differs:
//   - Special tokens such as <|endoftext|> are counted as ordinary text: tool
//     output is data, never control.
//   - Invalid UTF-8 bytes are kept as bytes. The pre-splitter sees U+FFFD in
//     their place, but the merge runs on the original bytes, so piece offsets
//     always index the caller's string. (tiktoken-go would count the
//     replacement character's three bytes instead.)
//
// The Estimator counts ceil(bytes/4), the cheap rule of thumb; its pieces are
// words with their trailing white space, and piece [a,b) carries
// ceil(b/4) − ceil(a/4) tokens so that pieces always add up to Count.
//
// Check verifies the core.Tokenizer contract for any implementation, like
// testing/fstest.TestFS.
package tokens
