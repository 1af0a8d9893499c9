// Package leaked recovers tool calls that a model wrote as text, inside
// <tool_calls>, <tool_call>, <tools>, <function_call> or <function> wrappers,
// instead of calling the tool through the API (specs/leaked-tool-call-fallback.md).
//
// It is an isolated module: one entry point, Extract, which takes the
// assistant's text and returns the cleaned content, the calls, the wrappers
// seen, every dropped block and every repair. It knows nothing of sessions,
// providers or tool lists. The session calls it at its single hook point, when
// a turn has text but no native calls and no final report.
//
// # Contract
//
// Wrappers. The five names above, case-insensitive; the name must end at '>'
// or white space, so attributes (<tool_call id="1">) are allowed and ignored
// and <tool_call_result> is not a wrapper. Patterns are reported as "<tools>"
// etc., lowercase, in order of first appearance.
//
// Scanning is string-aware: inside a wrapper the JSON is scanned with its
// strings, so a closing tag inside a JSON string value is data
// ({"command":"echo '</tool_call>'"} stays whole). The reference system stopped
// at the first closing tag and corrupted such calls.
//
// Not scanned: inside <think>…</think> (an unclosed <think> hides the rest of
// the text), inside fenced code blocks (a line starting with ``` up to the
// closing fence, or the end of input; Options.ScanFences turns this off), and
// inside inline code (a run of backticks up to the next run of the same length
// on the same line). A model showing an example is not calling a tool, and an
// executed example can have side effects.
//
// Body. After the opening tag and white space, the body may be wrapped in a
// code fence (```json … ```; repaired and reported as code_fence). It holds
// one JSON object, an array of calls, or several values back to back (JSONL).
// Repairs are limited to lossless ones, each reported: trailing commas before
// a closing bracket, and raw control characters inside strings (escaped). No
// guessing: no single quotes, no Python True/None, no invented braces.
//
// Span. With the closing tag right after the JSON, the wrapper is removed up
// to and including it. When the closing tag is missing but the JSON is
// complete (servers often strip it as a special token), the call is still
// extracted (the reference ignored it): the span ends at the end of input
// when only white space or a cut-off closing tag follows, or after the JSON
// when other text follows (the text stays). When text follows the JSON and the
// closing tag comes before any other wrapper, the span runs to the closing tag
// and that text is reported as dropped.
//
// Invalid JSON. A wrapper without usable JSON (prose, truncated or malformed
// JSON, an empty wrapper) is removed from the content and yields no call, as
// the spec decides; the block (from its opening tag to its closing tag, or to
// the next wrapper, or to the end of input) is listed in Dropped with its byte
// offset, raw text and reason, so nothing is lost silently. If one value of a
// JSONL body is malformed, the whole block is dropped.
//
// Fields. The name comes from "name", "function" (a string) or "tool", in that
// order of precedence; it must be a non-empty string. The OpenAI shape
// {"type":"function","function":{"name":…,"arguments":"…"}} is unwrapped.
// Arguments come from "parameters", else "arguments" (parameters wins when
// both are present); a string holding a JSON object is decoded once (the
// reference turned it into {}); missing or null means {}; anything else drops
// the call with a reason. An object shaped like a tool definition (a
// description and a JSON-Schema "parameters", no "arguments") is not a call.
// Names are not validated against a tool list (spec decision 1), and nothing
// is truncated (decision 3). agent__batch is one call whose arguments are kept
// verbatim, not flattened. Arguments are returned as compact JSON.
//
// Content. When nothing is extracted and nothing removed, the input comes back
// byte-identical (not trimmed). Otherwise the spans are removed, the rest is
// trimmed, and empty becomes nil.
//
// IDs come from Options.Sources.NewID (a random UUIDv4 by default), one per
// call, in document order.
//
// Time is linear in the input on every input: the searches for '>' and for
// closing tags are cached, JSON scanning stops at the first byte that cannot
// be JSON, and each byte is scanned a bounded number of times, so 10 MB of
// unclosed opening tags is as cheap as 10 MB of prose.
package leaked
