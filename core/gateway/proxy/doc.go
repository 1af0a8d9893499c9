// Package proxy is the HTTP layer of the tool-output compression gateway
// (core/gateway): a handler in front of model servers that runs each
// request of a route through its gateway.Gateway (the wire's Read,
// Gateway.Prepare, Gateway.Forward with an upstream call over HTTP),
// relays streams, forwards every other path unchanged, bounds every
// request ([Limits]) and reports what happened to an [Observer]. It also
// holds what the gateway's HTTP clients share: [Transport] (the upstream
// connection pool), [NoRedirects], and [Poster], the api compressor's POST.
//
// Choices the spec left open, and why: a request body is read into a
// buffer lent from a pool and sized from Content-Length, given back only
// when nothing can read it after the request; the long strings of recent
// bodies are remembered per caller ([KnownBytes] in all) so that a repeated
// 200 KB tool result is compared rather than decoded again; every answer
// carries [OverheadHeader], the time spent in the gateway, upstream
// excluded.
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
// kept by the memory store without a copy (gateway.OriginalTaker). Measured in
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
// gateway.ParseObjectBounded); a body that is not a JSON object (400); requests in flight,
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
// gateway.Conversation.HiddenHistory) is compressed as far as the items it
// carries go: the proxy says so in one log line ("previous_response_id:
// the provider holds history the gateway cannot see; only the N tool
// output(s) the request carries can be compressed") and tells an Observer
// that is a [HistoryObserver] (the Prometheus one counts
// hidden_history_total{member}).
//
// # Capture
//
// With a [Capturer] set (Proxy.Capture: the gateway config's capture,
// harness/record.Capture), each route request whose outcome is ok and
// whose answer was written whole hands over an [Exchange]: the client's
// body and the first forward (copies: the body's buffer goes back to its
// pool), the bytes the client got (kept by the client writer up to
// [MaxCaptureBytes]; a longer answer is not captured), and the rounds and
// expansions of a request not streamed. Capture is called on the
// request's goroutine and must not block.
package proxy
