// Package anthropic is the Anthropic Messages API wire format (POST
// /v1/messages) for the compression gateway: request and response bodies to
// and from core.Request and core.Response, and the streaming format (server-
// sent events) to and from the message the API returns without streaming.
// [Wire] is its gateway.Wire: it reads a request once into a
// gateway.Conversation (tool_result blocks, named by the tool_use they
// answer, is_error kept; the last user text; "stream") and finds, answers
// and strips expand_context tool_use blocks by splicing the body
// (core/gateway/jsonspan), so every other byte reaches the upstream as the
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
//   - "system", a string or text blocks (joined by "\n"), becomes a first
//     system message, left out when empty. "max_tokens" is MaxOutputTokens;
//     "stream" is returned. "messages" is required; model, temperature,
//     tool_choice, metadata, thinking (adaptive or budgeted),
//     context_management, output_config and other members are validated
//     as JSON and not mapped.
//   - A message's role is "user", "assistant" or "system" (anything else
//     is an error) and its content is required. A system message inside
//     "messages" (Claude Code sends its environment as one, after the
//     first user message) is read as "system" is (a string, or its text
//     blocks joined by "\n"; content null is an error) and becomes a
//     system message in its place, left out when empty: it is system text
//     (fakes.Texts joins every system message, in order, into the text a
//     step's match.system sees), not a turn. Members of a message other
//     than role and content (Claude Code's per-message output_config) are
//     validated and ignored. String content is one message.
//     In block content, text blocks (joined by "\n", as the gateway's
//     adapter joins them, so both see the same text) and tool_use blocks
//     (ToolCalls: id, name, Arguments the compact input, {} when absent)
//     make one message of the role; each tool_result block becomes a tool
//     message of its own at its place, ToolCallID its tool_use_id, Name the
//     name of the tool_use with that id in the last message with tool_use
//     blocks (the API requires the message just before), Content its
//     content (a string, or its text blocks' texts concatenated, as [Wire]
//     reads them; other blocks left out). So a user turn
//     [tool_result A, tool_result B, text] maps to tool A, tool B, user.
//   - is_error of a tool_result is validated but not kept: core.Message has
//     no field for it (the gateway's adapter reads it from the body).
//   - thinking and redacted_thinking blocks, which clients replay in
//     assistant messages (the API requires it with tools and extended
//     thinking), are accepted and left out of core.Request, which has no
//     field for them; their thinking, signature and data must be strings
//     when present. They are accepted in any message: the API, not this
//     package, says where they may stand.
//   - Other blocks (image, document, server tool blocks, ...) are left out
//     of the text view too; a message with nothing left stays as an empty
//     message of its role, so turns keep their order. cache_control is
//     ignored wherever it stands (system blocks, message blocks, tools).
//   - "tools": name, description and input_schema (compact); other
//     members (cache_control, defer_loading, ...) are ignored. A server
//     tool ({"type":"web_search_20250305","name":...}, no input_schema)
//     keeps its name only.
//
// # Responses
//
//   - [EncodeResponse]: {"id","type":"message","role":"assistant","model",
//     "content","stop_reason","stop_sequence":null,"usage":{"input_tokens",
//     "output_tokens"}}; content is a text block when the text is not
//     empty, then a tool_use block per call whose input is the call's
//     Arguments when they are a JSON object, else {}. stop_reason is
//     [StopReason]: max_tokens for finish "length" (or "max_tokens"), else
//     tool_use when there are calls, else stop_sequence, pause_turn,
//     refusal or model_context_window_exceeded kept as given, else
//     end_turn ("tool_calls" without calls, after phantom calls were
//     stripped, is end_turn).
//   - [DecodeResponse]: text blocks concatenated as they are (a text split
//     into blocks, e.g. around citations, reads as one), tool_use blocks as
//     ToolCalls, FinishReason by [FinishReason] (end_turn → stop, tool_use →
//     tool_calls, max_tokens → length, others as they are), Usage from
//     input_tokens and output_tokens (the API's input_tokens, which leaves
//     out cache reads and writes). The stop_sequence string is not kept.
//   - thinking and redacted_thinking blocks are skipped by DecodeResponse
//     (core.Response has no field for them; it is not an error) and kept
//     by the message functions ([AssembleStream], [StreamOf]), in order, as
//     {"type":"thinking","thinking","signature"} (a missing signature
//     renders as "") and {"type":"redacted_thinking","data"}. Their values
//     are opaque and the API checks the signature when a client replays the
//     block, so each is kept as the bytes of its JSON string, escapes as
//     the API sent them, never decoded and encoded again (only invalid
//     UTF-8, which the API does not send, becomes U+FFFD). [EncodeResponse]
//     never renders them: core.Response has none.
//   - Citations (a text block with non-empty citations, a citations_delta)
//     and server tools (server_tool_use, web_search_tool_result and other
//     block types) are not supported: [ErrUnsupported] rather than dropped
//     (dropping them would change the answer the client sees).
//
// # Streams
//
// [AssembleStream] reads server-sent events as the HTML standard defines
// them (lines ended by "\n", "\r\n" or "\r"; a leading BOM; comments; data
// lines joined by "\n"; an event is dispatched by a blank line, and one not
// ended by a blank line when the input ends is discarded, as a cut). An
// event's name is its "event:" field, or its data's "type" when it has none;
// both present and different is an error. ping and unknown events are
// skipped (the API documents that new event types may appear). message_start
// comes first and once, with empty content; each block is started, receives
// deltas and is stopped before message_stop; blocks start in index order 0,
// 1, 2, ... as the API sends them (a gap or a repeat is an error; deltas of
// started blocks may interleave). A text block is its start text plus its
// text_delta texts; a tool_use block's input is its input_json_delta pieces
// joined, which must be a JSON object, or its content_block_start input when
// no piece came. A thinking block is its start thinking (documented as "")
// plus its thinking_delta texts, and the signature of its last
// signature_delta, else of its start (the API sends "" there, or no
// signature, and one signature_delta just before content_block_stop; a later
// signature replaces an earlier one, as the official SDKs do). A
// redacted_thinking block arrives whole in its content_block_start and takes
// no delta. A delta of a known type for a block of another type (text_delta
// for a thinking block, thinking_delta for a text block, any delta for
// redacted_thinking) is an error, not [ErrUnsupported]: the stream is
// malformed. stop_reason and stop_sequence come from the last message_delta;
// usage is message_start's with each non-null member of each message_delta's
// usage over it (the API's counts there are cumulative; a usage object may
// hold 64 members). Members of the message other than id, type, role, model,
// content, stop_reason, stop_sequence and usage are not kept. Server-tool
// and other unknown blocks, and citations and other unknown deltas, are
// [ErrUnsupported].
//
// [StreamOf] and [WriteStream] write what the official SDKs parse: each
// event an "event:" line, one compact "data:" line and a blank line;
// message_start carries the message with empty content, null stop_reason
// and stop_sequence, and the whole usage; message_delta carries
// stop_reason, stop_sequence and usage {output_tokens}. StreamOf sends a
// thinking block as content_block_start {"type":"thinking","thinking":"",
// "signature":""} (the signature member present, so that an SDK that
// accumulates the events has it even when no signature_delta comes), one
// thinking_delta with the whole text, one signature_delta, and
// content_block_stop; a redacted_thinking block as its content_block_start
// and content_block_stop.
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
