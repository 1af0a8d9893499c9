// Package jsonlex is the lexical grammar of JSON (RFC 8259) that core's
// hand-written JSON readers share: white space, literals, numbers and
// string literals, the decoding of a string's escapes, and the writing of a
// string literal (Append, as encoding/json writes it without HTML escaping:
// the leaked scanner's XML parameters and the Anthropic wire). It holds no
// reader of its own; each reader keeps its position and words its own
// errors from what these functions return (an end, or where the grammar
// failed and why).
//
// The readers are hand-written where encoding/json costs what a benchmark
// shows they cannot pay, or cannot say what they need: the schema decoder
// keeps key order and decodes without recursion (core/schema), the leaked
// scanner validates a call and reads its members in one pass (core/leaked),
// the gateway edits requests by byte span (core/jsonspan) and reads
// the Anthropic wire format in place (core/gateway/anthropic). They share
// the grammar below, so they cannot disagree on what JSON is.
//
// The functions accept exactly what encoding/json accepts: FuzzLex holds
// String, Number and Unescape to json.Valid and json.Unmarshal on any
// input, and FuzzAppend holds Append to encoding/json's encoder. A byte
// from 0x80 on is taken as it is inside a string (as encoding/json's
// validator does); Unescape replaces invalid UTF-8 with
// U+FFFD only when asked, as encoding/json's decoder does, and a lone
// surrogate escape always (there is no character to keep).
//
// Every function is generic over string and []byte ([Text]), so each
// reader keeps its own representation without copying, and none allocates
// but the appends of Unescape (and UnescapeSome, which decodes a long
// string in pieces) and Append.
package jsonlex
