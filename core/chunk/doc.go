// Package chunk plans balanced, overlapping chunks of a document on token
// boundaries, for the full-chunked extraction strategy
// (docs/contracts.md, section 1).
//
// Given a document of T tokens, a budget B (the most tokens a chunk may hold,
// overlap included) and an overlap fraction f (10% by default), the overlap is
// O = floor(f·B). The plan uses the fewest chunks for which no chunk exceeds
// B: N = ceil((T−O)/(B−O)). It then rebalances, as the spec asks and the
// reference does not: every chunk aims at the same size
// S = ceil((T+(N−1)·O)/N), consecutive chunks share about O tokens, and the
// last chunk is not a tiny remainder. Counting the overlap when choosing N
// means no chunk exceeds the budget and the number of map calls never exceeds
// what the budget allows.
//
// Cuts fall only between the tokenizer's pre-split pieces (core.Tokenizer
// Pieces), never inside one. Cutting a token-id array directly would split
// UTF-8 sequences and over-count at the seams. A chunk's Tokens is the sum of
// its pieces, so the counts add up exactly. An end cut is snapped down and a
// start cut up to the nearest piece boundary. Every cut is therefore a byte
// offset of the input where UTF-8 decoding resynchronizes, also in text with
// invalid bytes (tokens counts each as U+FFFD but keeps offsets in the
// original bytes). A chunk's text counted on its own can come out slightly
// below its Tokens: at its end, white space that the split in context gave
// to the next word (tiktoken's \s+(?!\S)) joins the run before it. With the
// Estimator, whose pieces carry ceil(b/4) − ceil(a/4) tokens, it can come
// out one above.
//
// Line breaks: when a line break lies within 2% of S tokens of a cut (at least
// one token), the cut moves to it: back for an end, and to the nearest line
// start either way for a start (back adds a little overlap, forward takes a
// little away). Each chunk then holds whole lines where it can, and the 2%
// keeps the balance (max/min chunk tokens stays near 1). A chunk never
// exceeds the budget: a placement that would is dropped for one without line
// preference.
//
// Defined results and errors: an empty document has no chunks; T <= B gives
// one chunk with no overlap; B <= 0 and f outside [0, 0.5) are errors
// (ErrBudget, ErrOverlap); a single piece of more than B tokens is ErrTooLarge
// with its byte range (a 10 MiB run of "=" is one piece, and so an error
// unless B holds it).
//
// Every chunk is non-empty: Start < End and at least one token (unless the
// whole document counts none), at most B. Chunks are in order, each starting
// after the previous one's start and no later than its end, and ending after
// it; the first starts at 0 and the last ends at the end of the document.
//
// Coarse pieces (much larger than O, or than the balance's slack): no plan
// can have fewer chunks than G, greedy packing of whole pieces without
// overlap, and G can exceed the N above (pieces of B tokens each). The plan
// therefore starts from max(N, G) chunks. Pieces can also be too coarse to
// overlap: when a chunk before the last already reaches the end of the
// document, the plan stops there, with fewer chunks than it aimed at, rather
// than emit empty ones (two pieces of exactly B tokens with O >= 1 give two
// chunks, not a third [end,end) of 0 tokens). When balancing fails, the plan
// tries up to seven more chunks and, failing that, packs pieces greedily
// without overlap (G chunks), still within budget. So a plan has between G
// and max(N, G) + 7 chunks, and exactly N on text of fine pieces (the specs
// check both, and FuzzPlan on any input).
//
// Cost: one tokenization pass, then O((N+G) log P) for the cuts, each a
// search over P piece boundaries. The pass records a mark (byte offset and
// tokens before it) every 32 piece boundaries. With a tokenizer that can
// count while marking and walk its pieces from any piece boundary on
// (tokens.Tiktoken's WalkMarks and PiecesFrom: its pre-split reads nothing
// before a piece's start), that is all it keeps: WalkMarks runs Count's
// loop, with a call per 32 pieces; reading a boundary between marks walks
// the pieces of its block again, from the mark or the last boundary walked,
// and the planner reads only blocks near its cuts (the last four read stay
// decoded): a search by tokens reads a block up to its answer, a search for
// a line break steps over blocks whose bytes hold none, and a search over
// the marks gallops from the last answer. That walks some 80 pieces again
// per chunk of 5,000, and planning 1, 10 or 100 MiB costs 1.04 to 1.07 times
// counting it (bench's ChunkPlanOverCount, timed in pairs on the 2-core VM);
// memory is a 24-byte mark per 32 pieces, about 0.22 bytes per byte of text
// whatever its size, in segments reused from one plan to the next; every
// spec and FuzzPlan check that the plan equals the one made from every
// boundary. Greedy packing (G) is made only when balancing N chunks fails.
// Any other tokenizer (pieces through WalkPieces or Pieces) has the
// boundaries between marks kept as varint differences, two bytes a piece
// under 64 bytes and 64 tokens, plus the marks: under 3 bytes per piece
// (rather than two []int's 16 and their growth), so at most about 3 bytes
// per byte of text (one-byte pieces), 1 or less for logs and prose.
package chunk
