// Package extract is the tool_output tool (specs/tool-output-extraction.md,
// sections 2, 2b, 3 and decisions 4–6): its schema, parameter validation,
// routing, strategies and exact output formats.
//
// What is built so far: the descriptor (Tool, with the exact schema of section
// 2b), the success and failure formats (Success, Failure), parameter
// validation, the unknown-handle answer, and the truncate strategy. The
// full-chunked and read-grep strategies come next; until they exist, auto and
// the explicit full-chunked and read-grep modes are strategies that cannot
// run, so they fall back to truncate with the spec's warning as the first body
// line: "WARNING: tool_output fallback to truncate (<reason>)."
//
// Choices where the spec is silent:
//   - Missing or empty handle or extract is the failure format with
//     "invalid parameters: …" naming every problem. The tool name is the
//     stored tool's when the handle is known, else UNKNOWN; a missing handle
//     shows as MISSING.
//   - An unknown handle is a successful answer (the spec: not found is not a
//     failure) that lists the handles stored in this session.
//   - An unknown mode is auto, and is logged.
//   - Truncate keeps the first half of the byte budget from the head and the
//     rest from the tail, cutting on UTF-8 boundaries, around the marker
//     "\n[... N bytes truncated ...]\n". The budget is Options.TruncateBytes
//     (16 KiB by default); the marker comes on top.
package extract
