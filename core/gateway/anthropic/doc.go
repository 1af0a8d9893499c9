// Package anthropic is the Anthropic Messages API wire format (POST
// /v1/messages) for the compression gateway: request and response bodies to
// and from core.Request and core.Response, and the streaming format (server-
// sent events) to and from the message the API returns without streaming.
// [Wire] is its gateway.Wire: it reads a request once into a
// gateway.Conversation (tool_result blocks, named by the tool_use they
// answer, is_error kept; the last user text; "stream") and finds, answers
// and strips expand_context tool_use blocks by splicing the body
// (core/jsonspan), so every other byte reaches the upstream as the
// client sent it.
//
// A tool_result's content is read as the text the client sent, which is
// what the gateway keeps as the original, hashes into the shadow id, and
// gives back to expand_context byte for byte: a string is its value; a
// list of text blocks is their texts concatenated with nothing added, so
// N bytes of text in any number of blocks expand to exactly N bytes;
// null reads as "". A list holding any other element (an image, a
// document, a text block whose text is not a string) is not read as a
// tool output: compressing it would replace the whole value, the image
// with it, so it is neither compressed nor reported and reaches the
// upstream as sent. A compressed content, whatever its shape, is replaced
// by one string, "<<<SHADOW:id>>>\n" and the compressed text, which the
// API accepts as tool_result content (members of the blocks other than
// their text, cache_control for one, go with the list).
//
// # Contract
//
//   - [DecodeRequest] maps a request body to a core.Request and its "stream"
//     flag; [EncodeResponse] renders a core.Response as a response body and
//     [DecodeResponse] reads one back.
//   - [AssembleStream] turns a whole event stream into the message JSON the
//     API would have returned without streaming; [StreamOf] is its inverse,
//     a complete stream for a message; AssembleStream(StreamOf(m)) is m as
//     EncodeResponse renders it, byte for byte (the canonical form: keys in
//     the API's order, compact tool inputs, the values of thinking blocks
//     as they came). A stream that ends before
//     message_stop, an `event: error`, and content the package cannot map
//     are errors: a cut or partial answer is never taken for a whole one.
//   - [WriteStream] writes a core.Response in the streaming format cut into
//     many events, for scripted upstreams in tests.
//   - Every error is an [*Error]: one line naming the input ("request",
//     "response", "message", "stream"), the line:col and byte offset, the
//     stream event, the JSON path of the value and the problem, e.g.
//     `anthropic: request: 1:22 (byte 21): messages[0].role: want role
//     "user", "assistant" or "system", got "tool"`. It wraps [ErrIncomplete] for a
//     cut stream, [ErrUnsupported] for content not mapped, and an
//     [*APIError] (Type, Message, the documented HTTP Status) for an error
//     event or error body, so that a proxy can branch.
//   - Work is linear in the input and nothing is built for what is not kept:
//     a value the package does not read is only validated, never built; a
//     wrongly shaped value stops the read at its offset ({"messages":
//     [0,0,...]} fails at byte 13), SSE lines have no length limit but the
//     input's, text, tool input and thinking pieces are appended, never
//     rebuilt.
//
// # JSON
//
// Bodies and event data are read by a strict RFC 8259 reader, not by
// encoding/json: keys match exactly (encoding/json also accepts "Messages"
// or "ROLE"); a key the package reads may appear only once in its object
// (a duplicate is an error, since another reader of the same bytes, the
// upstream for one, could take the other value); members it does not read
// are validated and ignored; nesting is limited to 512 levels. Values kept
// as JSON (tool inputs, input_schema, usage members) keep their bytes and
// escapes, without insignificant white space and with invalid UTF-8
// (possible only inside strings) replaced by U+FFFD; duplicate keys inside
// them are left for their reader to judge. Strings are decoded as
// encoding/json does (invalid UTF-8 and lone surrogates become U+FFFD).
// Rendered JSON leaves <, > and & unescaped, so that "<<<SHADOW:...>>>"
// markers stay readable in bodies and streams.
//
// # Requests
//
// [DecodeRequest] states how a request maps to core.Request. In short:
// system text (top-level "system", and the system messages Claude Code
// sends inside "messages") becomes system messages in place; text and
// tool_use blocks make one message of their role; each tool_result block
// becomes a tool message of its own, at its place; thinking, image,
// document and server-tool blocks, cache_control and members the gateway
// does not need are validated and left out of core.Request, which has no
// field for them.
//
// # Responses and streams
//
// [EncodeResponse], [DecodeResponse], [StopReason], [FinishReason],
// [AssembleStream] and [StreamOf] state their mappings; the choices behind
// them:
//
//   - Thinking blocks are opaque: the API checks a block's signature when a
//     client replays it, so the message functions keep thinking and
//     redacted_thinking values as the bytes of their JSON strings, escapes
//     as the API sent them, never decoded and encoded again (only invalid
//     UTF-8, which the API does not send, becomes U+FFFD). core.Response
//     has no field for them: DecodeResponse skips them, EncodeResponse never
//     renders them. A missing signature renders as "", and StreamOf sends
//     the member "signature":"" in content_block_start, so that an SDK that
//     accumulates the events has it even when no signature_delta comes; of
//     several signature_delta events the last wins, as the official SDKs
//     do.
//   - Citations (a text block with non-empty citations, a citations_delta)
//     and server tools (server_tool_use, web_search_tool_result and other
//     block types) are [ErrUnsupported] rather than dropped: dropping them
//     would change the answer the client sees.
//   - Streams are read as the HTML standard defines server-sent events
//     (core/gateway/sse); an event's name is its "event:" field, or its
//     data's "type" when it has none, and both present and different is an
//     error. ping and unknown events are skipped (the API documents that new
//     event types may appear). Blocks start in index order 0, 1, 2, ... (a
//     gap or a repeat is an error; deltas of started blocks may
//     interleave); a delta of a known type for a block of another type is
//     an error, not [ErrUnsupported], since the stream is malformed. Usage
//     members of message_delta are cumulative and laid over message_start's;
//     a usage object may hold at most 64 members.
//   - StreamOf and [WriteStream] write what the official SDKs parse: each
//     event an "event:" line, one compact "data:" line and a blank line.
//
// # Test fixtures
//
// The streams and bodies in testdata are written by hand to the format the
// API documents (docs.anthropic.com, "Messages" and "Streaming Messages"),
// in the shape it emits: compact data lines, `{"type": "ping"}` pings after
// the first block starts, usage with the cache and service_tier members, a
// first input_json_delta with an empty partial_json, tool inputs cut at
// arbitrary points, thinking blocks started with an empty thinking (with and
// without "signature":"") and signed by one signature_delta before their
// stop (thinking_tool_use: the phantom-call shape, thinking then text then
// an expand_context call), a redacted_thinking block whole in its start
// (redacted_thinking). The signatures and redacted data are made up, not
// captured from the live API. The requests in testdata/claude-code are
// captured: Claude Code 2.1.332 sent them to a loopback capture server (its
// README names the source, the headers and what was trimmed).
package anthropic
