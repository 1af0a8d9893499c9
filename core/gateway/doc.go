// Package gateway is the tool-output compression gateway
// (docs/contracts.md, section 6): a pipe that compresses large tool results
// in model requests, marks them with a deterministic shadow id, keeps the
// originals in a dual-TTL store, and answers the model's calls to a hidden
// expand_context tool with them; core/gateway/proxy does this in front of
// model servers over HTTP, one route per wire format.
//
// Layout: this package is the domain (pipe, shadow ids, the expand loop,
// the [Store] and [Wire] seams, the JSON bounds); the HTTP layer is
// core/gateway/proxy; each wire format is a package of its own
// (core/gateway/openai, core/gateway/anthropic, core/gateway/responses;
// named by core/gateway/wires), reading bodies with the helpers of
// core/gateway/internal/wireparse, as is each store backend
// (core/gateway/memstore, core/gateway/redisstore) and the Prometheus
// metrics (core/gateway/prom); the span editor that reads and edits bodies
// is core/jsonspan, next to the JSON lexer it is built on.
// Configuration loading and server wiring live in cmd/toolout; the knobs
// themselves are defined here once, under the config file's yaml names
// ([Settings] is pipes.tool_output as core reads it; proxy.Limits is the
// limits section), and the file and the harness embed these types rather than
// restate them.
//
// # Pipe
//
// [Pipe.Process] decides per tool output, in the spec's order:
//
//   - content that already starts with "<<<SHADOW:" is skipped (and counts
//     as issued by this gateway only when the store holds exactly the
//     compressed text after the marker); content holding the marker
//     anywhere else is skipped too, so a marker can never be laundered into
//     a compressed text;
//   - a result the client marked as an error (Anthropic is_error) is
//     skipped, and so is a tool in skip_tools (categories read, edit,
//     write, bash, glob, grep mapped to the provider's tool names, every
//     known name for other providers; other entries are exact names);
//   - len <= min_bytes (2048) or len > max_bytes (65536), in bytes, passes
//     through (over max_bytes with [Result].Limit [LimitMaxBytes], logged
//     with its size and the limit and counted as a bound);
//   - the shadow id is "shadow_" + hex of the first 16 bytes of SHA-256 of
//     the content ([ShadowID]); with a store in the process (a
//     [Locality] that is not Remote: memstore) a repeated content's id is
//     taken from a fixed table of recent ids (4096, guessed by a maphash)
//     only when the caller's own stored original under it has exactly its
//     bytes, else it is hashed; a compressed-cache hit is used, and its
//     original stored again, so it stays expandable while in use (the
//     spec's reference leaves it to expire);
//   - on a miss the original is stored and the compressor runs (at most
//     MaxConcurrent (10) at once, RateLimit per second through
//     golang.org/x/time/rate's token bucket on the injected clock: when
//     rate_limit is unset, 20 for a remote compressor ([IsRemote]: api,
//     external_provider) and none for a local one (simple, passthrough),
//     the default being there to spare a remote API; when set, it applies
//     to every compressor); its
//     result is kept only when strictly smaller, cached, and shown as
//     "<<<SHADOW:{id}>>>\n{compressed}".
//
// A compressor failure falls back to passthrough (or, with fallback
// "none", fails the request). After BreakerFailures (5) failures in a row
// a circuit breaker stops calling the compressor for BreakerCooloff (30 s,
// injected clock), failing fast with [ErrBreakerOpen] (then the fallback
// applies), and lets one probe through after it. One request sends at most
// MaxResults (64) results and MaxWorkBytes (4 MiB) to the compressor;
// later results pass through with the reason, so one request cannot hold
// the compressor, or the rate limit all clients share. Metrics count cache
// hits and misses, compressions ok and failed, bytes saved and results cut
// by those bounds. Bytes saved are net: [Pipe.Unsave] takes off what an
// answered expansion gave back.
//
// Strategies: [Passthrough], [Simple] (first N words, for tests), [API] (an
// HTTP service: POST {model, tool_name, content, query} → {"compressed"}),
// and [External] (a model through core.LLM, tagged gateway.compress;
// core/gateway/openai's Client is a core.LLM over any OpenAI-compatible
// endpoint).
//
// # Store
//
// A [Store] keeps originals, per caller, for OriginalTTL (5 minutes) and
// compressed texts for CompressedTTL (24 hours) on the injected clock,
// bounded by entries per kind (10,000) and bytes (256 MiB), oldest out
// first, and drops expired entries without waiting for their lookup. A
// store failure never shows a marker: the result passes through. memstore
// is the default; redisstore shares one store between replicas.
//
// # Callers
//
// Originals are scoped to their caller, as the Compresr guardrail for
// LiteLLM scopes them: the provider and its logs hold every marker and
// compressed text the gateway sent, so without a scope anyone holding both
// could send them back from any client and have the model expand the
// original. [Identity] makes a request's caller, once, where the proxy
// takes the request ([WithCaller] on its context; the pipe and the expand
// loop read it with [CallerOf]): the value of the header Identity.Header
// names (caller.header in the config, --caller-header, e.g. X-User-Id set
// by an authenticating proxy in front) when the request has it; else its
// API key ([APIKey]: x-api-key, else Authorization without "Bearer ", else
// api-key, so one key sent either way is one caller); else
// [AnonymousCaller]. A caller is the first 16 bytes of HMAC-SHA256, keyed
// by Identity.Salt (caller.salt; empty by default), of a fixed domain
// string, the kind (header or key) and the value, in hex: no key or header
// value is stored, logged, counted in a metric or sent to Redis in clear,
// and the hash is not the plain SHA-256 of the key that other systems log.
// The salt is not random per process: callers must match across restarts
// and across replicas sharing a Redis store; an operator who wants the
// hashes unlinkable to a leaked key list sets one (the same on every
// replica).
//
// The pipe puts each original under the request's caller, on a cache hit
// too, and the loop looks it up under that caller, so an expand_context
// call of another caller on an issued id gets [ExpandMissing], word for
// word the answer for an expired original: it tells nothing of whether the
// original exists. Compressed texts stay shared by all callers: one is only
// found by the shadow id of the content it compresses, that is by a caller
// who sent that content, and it shows nothing that caller did not send.
// Requests with no key and no header (a loopback gateway without auth, the
// scenarios) share one anonymous scope. The Identity of an OAuth client
// changes with its token, and an original stored under the old token then
// answers as expired.
//
// # Wires
//
// A [Wire] reads a request body once into a [Conversation] (tool results,
// the user's last question, the stream flag), and [Conversation.Rewrite]
// makes every edit of the first forward (compressed contents, the
// expand_context tool) in one splice over that parse: every byte outside an
// edited value stays exactly as the client sent it. A tool result's
// content is its text as the client sent it: a string, or a list of text
// parts concatenated with nothing added, so the original kept, its shadow
// id and the expansion are exactly those bytes; a list holding another
// part (an image) is not read, so it is never compressed and reaches the
// upstream as sent. A compressed content of any shape becomes one string
// (the marker and the compressed text), which both APIs accept. The wire
// also finds, answers and strips phantom calls in responses, and
// assembles and re-streams its server-sent events.
//
// # expand_context
//
// [Gateway.Handle] injects the phantom expand_context tool when the request
// carries at least one marker the gateway issued (compressed now, or a
// marker sent back whose compressed text the store holds), forwards, and
// when the model calls it answers:
//
//   - an id the gateway did not issue into this request: [ExpandNotAvailable],
//     without a store lookup, so no conversation can read another's
//     originals (shadow ids are content hashes that appear in every
//     compressed text, and a prompt injection can name any of them); so
//     is a call in a request that holds no marker, streamed or not, since
//     an id from an earlier turn cannot be told from one an injection
//     names;
//   - an original the request compressed (or found in the compressed
//     cache): from the request itself ([Result].Original, no copy), never
//     from the store, which may have dropped it meanwhile (an evicting
//     Redis, a TTL passed while the model thought); that memory is the
//     request's body, already bounded;
//   - a marker sent back from an earlier request: the original from the
//     store when this request's caller stored it, else [ExpandMissing]
//     (expired, or another caller's);
//   - an id already expanded in this request: [ExpandRepeated].
//
// Calls to expand_context are intercepted whenever expansion is enabled,
// offered or not: the gateway owns that tool name. It appends the calls
// and answers to the request and forwards again, for at most
// MaxExpandRounds (5) rounds; calls left after that are stripped, and when
// nothing else is left (no text, no real call) the request fails with
// [ErrCapped], which the proxy answers as a 502 in the API's error shape,
// never an empty answer (outcome "capped"). Phantom calls never reach the
// client, and expansion answers are never compressed. After several
// rounds, every integer of the final response's usage object is the sum
// over the rounds, and bytes saved are counted net ([Pipe.Unsave]).
//
// # HTTP
//
// This package does not speak HTTP (it imports no net/http): the proxy that
// runs the pipe and the expand loop in front of model servers is
// core/gateway/proxy, which reads a request body once into a
// [Conversation] through the route's [Wire], calls [Gateway.Prepare] and
// [Gateway.Forward] with an [Upstream] that makes the HTTP call, and
// answers in the API's shape. The api strategy's POST is wired in the same
// way ([API.Post]: proxy.Poster), and a caller's [Identity] reads any
// [Header] (an http.Header is one).
package gateway
