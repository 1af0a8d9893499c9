// Package core holds the seams that every toolout component is built on.
//
// The seams are deliberately small, in the manner of net/http's Handler:
//
//   - [LLM] has one method, Complete, and [LLMFunc] adapts a plain function to it.
//     Implementations must be safe for concurrent use, because map calls of the
//     full-chunked extractor run concurrently.
//   - [Request] carries the messages, the offered tools, the output-token cap and a
//     [Tag] that names the call site (extract.map, extract.reduce, extract.readgrep,
//     gateway.compress, session.turn, ...) and its facets (chunk i of n, turn).
//     Fakes route on the tag and its facets, never on arrival order. [Tag.String]
//     writes a tag as "site chunk=i/n turn=t" and [ParseTag] reads that form back
//     (bounded, with the byte of any problem), for a tag that travels as text, such
//     as the X-Toolout-Tag header that `toolout serve` matches on.
//   - [Tokenizer] counts tokens and exposes the pre-split pieces that chunk
//     planning cuts between. The real implementation lives in core/tokens.
//   - [Sources] supplies time, identifiers and nonces. A nil field means the
//     production default: time.Now, a random UUIDv4, a random nonce. sources.go is
//     the only file in core that calls time.Now or crypto/rand; every component
//     takes a Sources in its Options so that tests can make runs byte-identical.
//     [Sleep] is the one wall-clock wait (timer or context, whichever ends
//     first) that the gateway's pipe, the OpenAI client's retries and the
//     fakes' HTTP server share; a component whose waits a test clock must
//     drive takes its sleep as an option.
//
// Package core and its subpackages import the standard library and their own few
// dependencies only (tiktoken in core/tokens). They never import the harness, the
// fakes, the command or a test framework; `make deps` enforces this.
package core
