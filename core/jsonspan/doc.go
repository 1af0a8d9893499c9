// Package jsonspan parses a JSON text into a tree of values that remember
// the byte range they occupy, and edits the text by splicing those ranges:
// every byte outside an edited value stays exactly as it was (unknown
// fields, key order, spacing, number spelling). The compression gateway
// rewrites client bodies with it, so a provider sees what the client sent
// except for the values the gateway meant to change.
//
// Contract: [Parse] accepts one JSON value with surrounding white space and
// fails with "invalid JSON at byte N: …" otherwise; nesting deeper than 512
// levels is an error, not a stack overflow. Duplicate keys are kept in
// order, and [Node.Get] returns the last, as encoding/json and Python's
// json (what most upstreams run) read them, so the gateway edits the value
// the upstream will use. [Splice] applies non-overlapping edits in one pass.
//
// [ParseWith] may take the strings a [Known] recognizes as read, without
// scanning them: a caller's memo of long strings it parsed before. A
// long string's [Node.Held] says how much memory its text has to itself,
// so a store may keep it without a copy.
//
// For a reader of large texts (the trace importer), [Options] report
// offsets in a larger text (Pos: a part cut from it, or the JSON a string
// literal of it holds, through the literal's escapes), leave the lists a
// key names unbuilt (Lazy: checked in the parse, their items built one at
// a time by [Node.Each]), and share keys and short strings (Intern). A
// number's Str is its text as written. [Check] gives Parse's verdict
// without a tree. A syntax error is a *jsonlex.SyntaxError; at the end of
// the body it says "unexpected end of input".
//
// [TypeError] turns encoding/json's type mismatch, which names a Go type
// (an anonymous struct spelled out with its tags), into the line the
// hand-written wire readers give: "LINE:COL (byte N): PATH: want a string,
// got a number", the path with indices found in the span tree by the
// error's field path and offset (a map key, which encoding/json leaves
// out, by the offset alone).
//
// Why hand-written: encoding/json does not report where a value starts and
// ends, and json.Decoder's token offsets do not survive unescaping keys;
// the span tree is what makes byte-exact splicing possible. The fuzz
// target checks the properties (valid output, bytes equal outside the
// edited value).
package jsonspan
