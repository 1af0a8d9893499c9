// Package store keeps a session's oversized tool outputs on disk and hands out
// handles to them (specs/tool-output-extraction.md, sections 1, 2a and
// decisions 1, 2, 9–13).
//
// A Store owns one directory, <base>/ai-agent-<session-id>/, with base
// configurable (the system temp dir by default). Each stored output is one
// file named by its handle, a UUID from Options.Sources. Metadata stays in
// memory: tool name, the verbatim arguments JSON, bytes, lines, tokens and
// average line bytes. Files are written byte for byte as the tool returned them
// (no pretty-printing), so the stats describe exactly the file that the
// read-grep sub-agent will Read and Grep.
//
// Stats: bytes is len(output); lines is the count of "\n" plus one, and 0 for
// empty output; tokens come from the session's tokenizer; average line bytes
// is ceil(bytes/lines), 0 for empty output.
//
// Policy decides what is stored: an output is oversized when its bytes exceed
// the byte cap (strictly) or when its tokens would overflow the remaining
// context budget (decision 11: both). There is no minimum size. The
// tool_output tool's own results are never stored. The model then sees
// HandleMessage: exactly the three lines of section 2a.
//
// Lifetime: there are no caps and no TTL (decision 2); everything lives until
// Close, which removes the directory and is safe to call more than once. The
// session calls it on every way out (success, error, cancellation, panic).
// Sweep removes directories left behind by processes that were killed before
// they could close their store.
//
// A Store is safe for concurrent use. Handles are opaque: one that this Store
// did not hand out is ErrNotFound, whatever it looks like (a path, "../x"), so
// sessions never see each other's outputs.
package store
