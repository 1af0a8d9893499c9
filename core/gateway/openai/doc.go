// Package openai is the OpenAI chat-completions wire format (POST
// /v1/chat/completions) for the compression gateway, and a core.LLM over
// any OpenAI-compatible endpoint.
//
// [Wire] is its gateway.Wire: it reads a request once into a
// gateway.Conversation (role "tool" messages, named by the assistant tool
// call they answer, else by their "name"; a content that is a string or
// text parts; the last user message's text; "stream"), and finds, answers
// and strips expand_context calls in choices[0].message.tool_calls by
// splicing the body (core/gateway/jsonspan), so every other byte reaches
// the upstream as the client sent it. A phantom call is answered with an
// assistant message replaying the calls and one "tool" message per call.
// When stripping leaves no tool call, tool_calls goes and finish_reason
// "tool_calls" becomes "stop".
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
// calls them on client bodies.
package openai
