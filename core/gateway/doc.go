// Package gateway is the tool-output compression gateway
// (docs/contracts.md, section 6): a pipe that compresses large tool results
// in model requests, marks them with a deterministic shadow id, keeps the
// originals in a dual-TTL store, and answers the model's calls to a hidden
// expand_context tool with them; and an HTTP proxy that does this in front
// of model servers, one route per wire format.
//
// Layout: this package is the domain (pipe, shadow ids, the expand loop,
// the [Store] and [Wire] seams, bounds, the proxy); each wire format is a
// package of its own (core/gateway/openai, core/gateway/anthropic,
// core/gateway/responses; named by core/gateway/wires), as is each store
// backend (core/gateway/memstore, core/gateway/redisstore), the span editor
// (core/gateway/jsonspan) and the Prometheus metrics (core/gateway/prom).
// Configuration loading and server wiring live in cmd/toolout; the knobs
// themselves are defined here once, under the config file's yaml names
// ([Settings] is pipes.tool_output as core reads it, [Limits] the limits
// section), and the file and the harness embed these types rather than
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
// # Proxy
//
// [Proxy] serves one route per wire (POST /v1/chat/completions, POST
// /v1/messages, POST /v1/responses, whose upstream is the OpenAI one),
// GET /healthz, GET /metrics when given a handler, and forwards other
// paths unchanged but for the Host header (POST
// /v1/messages/count_tokens to the Anthropic route's upstream; POST
// /v1/responses/compact and every other path under /v1/responses to the
// Responses route's; a protocol upgrade, a WebSocket, is relayed both ways
// in a request slot and closed at UpstreamTimeout). A route is matched on
// the path, and each of its rounds goes upstream with the client's query
// string after the upstream URL's own (Claude Code posts to
// /v1/messages?beta=true). The upstream URL is normalized
// ([NormalizeUpstream]): a trailing "/" and "/v1" are dropped, so the SDKs'
// base URL (http://host/v1) and the server's root both forward to
// http://host/v1/…, never /v1/v1/…. An upstream's redirect (3xx) is relayed
// to the client, never followed: following one would send the
// conversation and the client's credentials to a host the operator did not
// configure.
//
// A conversation sends its earlier tool results again with every request,
// byte for byte. The proxy keeps a memo of the long strings (4 KiB or
// more) of recent request bodies, per caller ([KnownBytes] in all; a
// string is kept the second time its caller sends it, and the oldest not
// sent again since goes first): a body that holds one exactly is neither
// scanned nor decoded there again (jsonspan.Known). Request bodies of
// 32 KiB to 1 MiB are read into buffers lent from a pool and given back
// once nothing can read them (not when the body itself was forwarded,
// nor when the memo keeps it), and a tool result the parse decoded is
// kept by the memory store without a copy ([OriginalTaker]). Measured in
// docs/benchmarks.md.
//
// [Transport] is the upstream transport `toolout gateway serve` gives the
// proxy: http.DefaultTransport's timeouts, with an idle pool of
// MaxConcurrent connections per host (at least [MinIdleConns]), since a
// request slot holds at most one upstream connection; the default pool of
// 2 made every request past the second open a connection of its own.
//
// Each request is bounded ([Limits]), every refusal in the API's error
// shape: body bytes (413; a declared Content-Length over the bound is
// refused before the body is asked for, so Expect: 100-continue gets no
// 100 Continue); its coding (a Content-Encoding is 415: the body is read
// as sent); its time (408 past the server's read timeout); JSON tokens and
// nesting, counted by the one parse of the body, which stops at the first
// token past a bound (413, 400: the error a scan before the parse gives,
// [ParseObjectBounded]); a body that is not a JSON object (400); requests in flight,
// passthrough ones included (503 with Retry-After); each upstream call's
// time, a stream to its end (504; no idle timeout: a stream whose chunks
// each come in time still ends at it; for a passthrough request, 504
// before its answer started, its connection dropped after); response size
// (502); and each write to the client: one that accepts no byte of an
// answer for ClientWriteTimeout (60 s, nginx's send_timeout) is dropped
// and counted canceled, so a client that stops reading frees its slot,
// goroutine and upstream connection (large writes are armed in 64 KiB
// pieces, so a slow client that keeps reading is never cut). The upstream
// timeout is armed through the proxy's Sources (core.Sources.WithTimeout:
// the wall clock in production, a scripted clock in scenarios).
//
// # Streaming
//
// Every streaming request follows one set of rules, whether it carries a
// marker or not. Its first round is relayed event by event from the first
// one that carries text (an OpenAI content delta, an Anthropic text or
// thinking delta, a Responses API text, refusal or reasoning delta),
// together with the events before it, until an event starts a tool call,
// real or phantom (a Responses API output item of a "*_call" type), or
// names expand_context; the rest of that round is held, since a call
// cannot be run before it is whole and a real call sent live would reach
// the client twice when the model repeats it after an expansion (with
// expansion off nothing is held). A plain text stream is never held: each
// event goes out as it comes, events that came in one read in one write,
// flushed before the next read waits.
//
// The first round must then be whole by its wire's rules: a round that held
// a call is assembled (Wire.Assemble); one that held nothing is checked as
// it comes for its terminal event (an OpenAI "[DONE]" or non-null
// finish_reason, an Anthropic message_stop, a Responses API
// response.completed, incomplete or failed) and for data that is not
// JSON, and assembled only when that check fails, for the verdict's reason
// (so the end of a text stream waits for no assembly, and an event that is
// valid JSON but out of its wire's order is not looked for there).
// Content the wire does not assemble (an Anthropic server tool's block,
// citations) is relayed as it came when the round is whole, never when it
// was cut. A round that is not whole (cut, no terminal event, a malformed
// or error event, or a JSON or HTML 200 to a streaming request) is a 502
// (504 at the upstream timeout) when nothing was relayed yet, and
// otherwise aborts the connection without ending the response (as
// httputil.ReverseProxy does), unless what was relayed holds the
// upstream's error event, which ends it: an SDK takes a stream that simply
// ends for the whole answer, and reports the abort ("terminated" in the
// OpenAI Node SDK).
//
// A round without phantom calls then gets what was held, as it came.
// Otherwise the loop runs its next rounds buffered, and the final answer
// (its usage summed over the rounds) continues the client's stream:
// Anthropic without a second message_start and with its content blocks
// numbered after those sent (its usage: the first round's input tokens,
// every round's output tokens), OpenAI as further chunks of the same
// choice, the Responses API without a second response.created or
// in_progress, its sequence numbers and output indexes after those sent,
// and its final response listing the items sent before its own (the SDKs'
// accumulator takes the response.completed response as the whole answer).
// A response that starts with a call relays nothing: the loop runs
// buffered and the final message is re-streamed whole. No trace of the
// phantom tool reaches the client: a final answer that names it goes
// through the wire's StripPhantom, and so does the response object of each
// Responses API event relayed (the API echoes the request's tools in
// response.created, in_progress and completed).
//
// Every answer of a route that was forwarded carries [RoundsHeader], the
// number of forwards: as a header, or, for a stream already relayed when
// it is known, as a trailer (on every stream, since a model may call
// expand_context in any of them; a connection the proxy aborts never
// delivers it).
//
// Every answer the proxy writes (a route's, held or streamed, a
// passthrough path's, its own errors and refusals, /healthz) carries
// [OverheadHeader]: the time from the request's arrival until its
// response headers are written, less the upstream time meanwhile (each
// upstream call until its headers, and each read of an upstream body),
// in milliseconds with three decimals; a streamed answer's covers the
// work before its first byte. It is timed on Proxy.OverheadClock, not on
// Sources (a scripted clock there must not move because a request was
// timed), and an Observer that is an [OverheadObserver] gets it per route
// (the Prometheus one: overhead_seconds{route}).
//
// # Upstream errors and observation
//
// Upstream error statuses are relayed with their headers (Retry-After),
// logged in one line with the path, the upstream URL, the status and the
// first 200 bytes of the body, for routes and passthrough paths alike, and
// counted as outcome upstream_error. So is a stream relayed whole that
// holds an error event (an `event: error` or `event: response.failed`
// line, or a data line whose JSON has an "error" member that is not null,
// found by a scan that reads each byte once); the stream itself reaches
// the client unchanged. Every outcome, upstream call, expansion and bound
// (a tool result over max_bytes included) reaches the [Observer]. A
// request that continues a conversation the provider holds (the Responses
// API's previous_response_id or conversation:
// [Conversation.HiddenHistory]) is compressed as far as the items it
// carries go: the proxy says so in one log line ("previous_response_id:
// the provider holds history the gateway cannot see; only the N tool
// output(s) the request carries can be compressed") and tells an Observer
// that is a [HistoryObserver] (the Prometheus one counts
// hidden_history_total{member}).
package gateway
