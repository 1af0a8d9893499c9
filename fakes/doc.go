// Package fakes holds deterministic stand-ins for core's seams: a scripted
// [LLM], oracle responders, sequential identifiers and nonces, and a stepping
// clock. It imports core only, never the harness or a test framework, so that
// tests, the harness, benchmarks and the CLI can all use it.
//
// # Scripted LLM
//
// An [LLM] replays a list of [Step]s. A step matches a request on facts read
// from the request, never on arrival order: the tag's site, the chunk "i/n",
// the turn, the round (the forward of the request by a gateway in front of
// the model, core.Tag.Round; a request without one is round 1, so that a
// step with round 1 also answers an agent that calls the model directly),
// and substrings of the system text, the last user message or any message.
// Map calls of the extractor run concurrently, so a script that relied
// on order would be flaky.
//
// The LLM is strict. Among the steps whose criteria hold, the first one with
// uses left answers. A request that no step matches is answered with an error
// and recorded as a violation that names the reason (nothing matched, or every
// matching step was used up) and shows a diff against the nearest step: each
// fact the step wants and what the request showed, a text the request lacked
// quoted from what it held ([Quote]: whole up to 400 bytes, else its first
// and last 200 bytes and its length, "… (16009 bytes)"), so that a request
// built by an agent shows why it did not match without a proxy to read it.
// A step used fewer times than its Times is a violation too. A step with Repeat
// answers any number of requests past its Times (the least it must answer):
// an oracle for every map call, however many chunks the input makes. [LLM.Check] returns all
// violations, so a component that swallows an LLM error (for example by falling
// back to truncation) cannot hide a broken script.
//
// A step responds with exactly one of: Text (with "{{nonce}}" replaced by the
// nonce named in the request), Final (the text wrapped in the request's
// final-report wrapper; to a request that names none, a violation, or with
// Options.PlainFinal the bare text), ToolCalls, Error (timeout, rate_limit, server_error),
// or Oracle (a named Go responder computing its answer from the text actually
// sent; see [Oracles]).
//
// A step may also say how its answer is streamed (Stream, respond.stream),
// for a caller that streams, which asks [LLM.CompleteStream]. The answer's
// content is a list of chunks: the text's pieces, then each tool call's
// argument pieces, in order. "chunks: N" cuts the text and each call's
// arguments into N pieces of near-equal rune counts (the first ones one
// rune longer; a part of fewer than N runes, one piece per rune); "split:
// [a, b, ...]" gives the text's pieces, which must join to the text
// (checked at load), each call's arguments then coming whole; with neither,
// every part is one chunk. "error_after: K" ends the stream after K chunks
// with an error event in the provider's format; "disconnect_after: K" cuts
// it there, with no final chunk and no end event. The two are exclusive,
// and a K beyond the stream's chunks is a violation. "mid_event: true",
// with disconnect_after, drops the connection halfway through the event
// that follows the K-th chunk (the first half of its bytes go out).
// "delay" holds chunks back: "every: D" before each chunk, and "after: K,
// for: D" once, before what follows the K-th chunk (after 0: before the
// first); both may be given and add up, each at most [MaxDelay]
// ([Stream.Delays]). A delay after the stream's last chunk, past its
// fault, or at a disconnect that sends nothing more (no mid_event) is a
// violation. "recorded: {first_byte: D, every: D}" is a real model's timing
// that a recording kept ([RecordedSpec]): never waited for in process, it
// is added to the delays by [Stream.Replayed], which toolout serve
// --replay-speed F asks for. A delay is the caller's to spend: the harness moves the
// scenario's [Clock] by it, a server waits for real. How chunks become
// events is the streaming caller's: package fakes/llmwire writes each
// chunk as one delta event of the request's wire, for the harness's
// gateway upstream and for toolout serve.
//
// A step may name steps it comes After. It then answers only once they have
// answered all their times, which lets a script make concurrent calls finish
// in a chosen order (say, chunk 3 before chunk 1) without sleeping. A wait
// that cannot end (the awaited request never arrives) becomes a violation
// after AfterTimeout. [LLM.Waiting] names the requests held back now, so a
// test can wait for that fact rather than for time; [LLM.Calls] lists the
// requests in the order they were answered, which for such a script is the
// chosen order (the order in which the callers' goroutines then run is the
// scheduler's).
//
// # Determinism
//
// [IDs] yields 00000000-0000-4000-8000-000000000001, ...; [Nonces] yields
// nonce0001, ...; [Clock] starts at 2026-01-01T00:00:00Z and steps one second
// per reading; [Clock.WithTimeout] arms a deadline on it (core.Sources'
// Timeout), which fires when Advance or a reading reaches it, so that a
// component's timeout is driven by the scenario's time, never the wall
// clock's. [NewSources] bundles fresh ones into a core.Sources. Nothing here
// is global: every scenario builds its own.
package fakes
