// Package chunk plans balanced, overlapping chunks of a document on token
// boundaries, for the full-chunked extraction strategy
// (specs/tool-output-extraction.md, section 3; REFERENCE.md, "Extractor").
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
// start cut up to the nearest piece boundary.
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
// with its byte range. Pieces much larger than O can defeat balancing. Then
// the plan tries up to eight more chunks and, failing that, packs pieces
// greedily without overlap, which is still within budget.
//
// Cost: one tokenization pass, which fills two integers per piece (its byte
// offset and the tokens before it) directly when the tokenizer can walk its
// pieces (tokens.Tiktoken.WalkPieces; others go through Pieces), then
// O(N log P) for the cuts, each a binary search over P piece boundaries.
package chunk
