// Package openai is the OpenAI chat-completions wire format (POST
// /v1/chat/completions) for the compression gateway, and a core.LLM over
// any OpenAI-compatible endpoint.
//
// [Wire] is its gateway.Wire: it reads a request once into a
// gateway.Conversation (role "tool" messages, named by the assistant tool
// call they answer, else by their "name"; the last user message's text;
// "stream"), and finds, answers and strips expand_context calls in
// choices[0].message.tool_calls by splicing the body
// (core/jsonspan), so every other byte reaches the upstream as the
// client sent it. A phantom call is answered with an assistant message
// replaying the calls and one "tool" message per call. When stripping
// leaves no tool call, tool_calls goes and finish_reason "tool_calls"
// becomes "stop".
//
// # Tool content
//
// A tool message's content is read as the text the client sent, which is
// what the gateway keeps as the original, hashes into the shadow id, and
// gives back to expand_context byte for byte: a string is its value; a
// list of text parts ({"type":"text","text":...}, or "input_text") is
// the parts' texts concatenated with nothing added, so N bytes of text in
// any number of parts expand to exactly N bytes (a client that wants a
// newline between parts sends it); null reads as "". A list holding any
// other part (an image, a part whose text is not a string) is not read as
// a tool output: compressing it would replace the whole value, the image
// with it, so it is neither compressed nor reported and reaches the
// upstream as sent. A compressed content, whatever its shape, is replaced
// by one string, "<<<SHADOW:id>>>\n" and the compressed text, which the
// API accepts for a tool message (members of the parts other than their
// text go with the list). [DecodeRequest] reads a tool message's text
// parts the same way (and leaves other parts out); in other messages it
// joins text parts with "\n".
//
// Streams: [Wire.Assemble] rebuilds the completion from "data:" chunks
// (content deltas concatenated, tool-call deltas joined by index, the
// last finish_reason); a stream that ends before a finish_reason or
// [DONE] was cut and is an error. [Wire.Restream] renders a completion as
// one chunk and [DONE]: the proxy uses it only when the model's own stream
// cannot be relayed (phantom calls stripped).
//
// [DecodeRequest], [EncodeRequest], [EncodeResponse] and [DecodeResponse]
// map bodies to and from core.Request and core.Response (for scripted
// upstreams in tests, and for [Client], the external_provider strategy's
// model). They use encoding/json and are not bounded: the proxy never
// calls them on client bodies. A value of the wrong JSON type is reported
// as the other wires report it (jsonspan.TypeError): "openai: chat
// request: 1:22 (byte 21): messages[0].role: want a string, got a
// number", never a Go type.
//
// [Client] is a core.LLM over any OpenAI-compatible endpoint (the
// external_provider strategy's model, `toolout bench strategies --llm`). It
// reads at most [MaxResponseBytes] of an answer and refuses one of more than
// [MaxResponseValues] JSON values or [MaxResponseNesting] levels before
// decoding it, so that a small hostile answer cannot cost the memory of a
// large decoded one; its http.Client's Timeout bounds each attempt,
// [DefaultTimeout] (2 min) when it has none or there is no http.Client, so a
// server that never answers cannot hold a call for ever. It never follows a
// redirect, whatever http.Client it is given: a 3xx is an error naming the
// Location and the BaseURL, because a 307 or 308 re-sends the request, the
// tool output in it, to a host nobody configured, and net/http keeps the key
// on a redirect to another port of the same host. With Retries it tries a
// 429 or 5xx answer again, waiting as long as the answer asks
// (retry-after-ms, as OpenAI sends it, or Retry-After in seconds or as a
// date) when that is at most [MaxRetryAfter] (a minute, the rule of OpenAI's
// own SDKs), and otherwise Backoff, then twice that, and so on up to eight
// times it (a 429 with "Retry-After: 999999" waits as one that names no
// wait); other failures (a transport error, a timeout, a 4xx, a body that is
// not a completion) are returned at once, with the status and the start of
// the body on one line. With SendTag it sends the request's tag as
// X-Toolout-Tag ([TagHeader], core.Tag.String's form), which a scripted
// server reads to match the request by tag, chunk and turn.
package openai
