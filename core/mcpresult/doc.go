// Package mcpresult turns a tool result as an MCP server sends it (the
// CallToolResult of tools/call: content blocks, structuredContent, isError,
// _meta) into the one text an agent's session stores and its model reads,
// before any size policy sees it.
//
// # Contract
//
//   - [Parse] reads one CallToolResult object; bad JSON or a member of the
//     wrong type is an error naming the byte offset (and the member), never
//     a panic. The input is bounded by its caller; nothing in it is
//     decoded deeper than encoding/json's own limit.
//   - [Normalize] renders the content blocks in order, one after another on
//     their own lines: a text block as its text; an image or audio block as
//     a line naming its type, MIME type and decoded size ("[image:
//     image/png, 12345 bytes]"), never its base64; an embedded resource as
//     a line naming its URI and MIME type followed by its text, or, for a
//     blob, as such a line with its size; a resource_link as a pointer line
//     ("[resource_link uri=… name=… mimeType=… size=…]", the fields it has)
//     that a model can name to a tool that reads resources; a block of
//     another type as a line naming the type.
//   - structuredContent (any JSON value since the 2026-07-28 revision) is
//     counted once: a text block that parses to the same JSON value
//     (objects compared by members, integers by their digits, other
//     numbers by their float64 value) stands
//     for it, and it is left out; otherwise it follows the blocks as
//     compact JSON, or is the whole text when there are no blocks.
//   - _meta's "anthropic/maxResultSizeChars", a positive integer, is the
//     tool's own size limit in characters: [Normalized.MaxChars]. Other
//     _meta members are ignored.
//
// # Choices where the spec is silent
//
//   - The dedup rule keeps the text block, not structuredContent: it is
//     what an MCP client that reads only content shows (kimi-code's and
//     hermes-agent's rule, content wins), and it is the tool's own
//     rendering. A text block that is not JSON, or JSON of another value,
//     keeps both, as Microsoft's agent framework does.
//   - A text block of more than 16 MiB is not parsed for the comparison:
//     both are kept.
//   - Blocks are joined by a newline; a text block's own trailing newline
//     is kept.
package mcpresult
