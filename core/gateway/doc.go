// Package gateway is the tool-output compression gateway
// (specs/tool-output-compression-gateway.md; REFERENCE.md, "Compression
// gateway"): a pipe that compresses large tool results in model requests,
// marks them with a deterministic shadow id, keeps the originals in a
// dual-TTL store, and answers the model's calls to a hidden expand_context
// tool with them; and an HTTP proxy that does this in front of an
// OpenAI-compatible server.
//
// # Pipe
//
// [Pipe.Process] decides per tool output, in the spec's order: content that
// already starts with "<<<SHADOW:" is skipped (and counts as issued by this
// gateway only when the store holds exactly the compressed text after the
// marker); content holding the marker anywhere else is skipped too, so a
// marker can never be laundered into a compressed text; skip_tools (categories read,
// edit, write, bash, glob, grep mapped to the provider's tool names, every
// known name for other providers; other entries are exact names) is
// skipped; len <= min_bytes (2048) or len > max_bytes (65536), in bytes,
// passes through; the shadow id is "shadow_" + hex of the first 16 bytes of
// SHA-256 of the content ([ShadowID]); a compressed-cache hit is used (the
// original is stored again, so it stays expandable while in use, where the
// reference leaves it to expire); on a miss the original is stored, the
// compressor runs (at most MaxConcurrent (10) at once, RateLimit (20) per
// second through a token bucket on the injected clock), its result is kept
// only when strictly smaller, cached, and shown as
// "<<<SHADOW:{id}>>>\n{compressed}". A compressor failure falls back to
// passthrough (or, with fallback "none", fails the request). Metrics count
// cache hits and misses, compressions ok and failed, and bytes saved.
//
// Strategies: [Passthrough], [Simple] (first N words, for tests), [API] (an
// HTTP service: POST {model, tool_name, content, query} → {"compressed"}),
// and [External] (a model through core.LLM, tagged gateway.compress;
// [OpenAIClient] is a core.LLM over any OpenAI-compatible endpoint).
//
// # Store
//
// [Store] keeps originals for OriginalTTL (5 minutes) and compressed texts
// for CompressedTTL (24 hours), on the injected clock, each map bounded
// (oldest out first), safe for concurrent use.
//
// # Adapters
//
// [OpenAI] (chat completions) and [Anthropic] (messages) find tool results
// and the user's last question in request bodies, and edit bodies by
// splicing byte ranges: every byte outside an edited value stays exactly as
// the client sent it (unknown fields, order, spacing). A compressed result's
// content, string or text parts, becomes one string.
//
// # expand_context
//
// [Gateway.Handle] injects the phantom expand_context tool when the request
// carries at least one marker the gateway issued (compressed now, or a
// marker sent back whose compressed text the store holds), forwards, and
// when the model calls it answers: an id the gateway did not issue into
// this request gets [ExpandNotAvailable] without a store lookup, so no
// conversation can read another's originals (shadow ids are content hashes
// that appear in every compressed text, and a prompt injection can name
// any of them); otherwise the original verbatim, [ExpandMissing] for an
// expired original, [ExpandRepeated] for an id already expanded in this
// request. Calls to expand_context are intercepted whenever expansion is
// enabled, offered or not: the gateway owns that tool name. It appends the
// calls and answers to the request and forwards again, for at most
// MaxExpandRounds (5) rounds; calls left after that are stripped. Phantom
// calls never reach the client, and expansion answers are never compressed
// (they are added after the pipe ran and never go back to the client).
//
// # Proxy
//
// [Proxy] serves POST /v1/chat/completions. A streaming request is buffered:
// the stream is read whole, reassembled to detect phantom calls, retried
// with the expansions, and the final stream is relayed as the model sent it
// (or, when phantom calls had to be stripped, as one chunk). Other paths are
// forwarded unchanged. Upstream errors are relayed with their status.
package gateway
