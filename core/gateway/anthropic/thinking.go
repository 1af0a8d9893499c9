package anthropic

import (
	"bytes"
	"unicode/utf8"
)

// Extended thinking blocks, {"type":"thinking","thinking","signature"} and
// {"type":"redacted_thinking","data"}, are kept in a message but mapped to
// nothing in core: their values are opaque to the gateway and must reach
// the API again as it sent them (it checks the signature against the
// thinking text), so each is kept as the bytes of its JSON string, escapes
// as they came (invalid UTF-8, which only a broken upstream sends, becomes
// U+FFFD). Joining the pieces of a streamed thinking text as JSON string
// bytes also keeps a surrogate pair split over two thinking_delta events
// whole, where decoding each piece apart would not.

// isThinking reports whether a block type is one of the thinking blocks.
func isThinking(typ string) bool { return typ == "thinking" || typ == "redacted_thinking" }

// readThinking reads the values of a thinking (thinking, signature) or
// redacted_thinking (data) block recorded in f, each a string when present
// (absent reads as ""); f.keys[k] is "thinking", then come "signature" and
// "data". With b nil they are only validated (a request's replayed
// blocks); else they are kept in b.
func readThinking(f fields, k int, typ string, b *block) error {
	keys := []int{k, k + 1}
	if typ == "redacted_thinking" {
		keys = []int{k + 2}
	}
	for _, key := range keys {
		err := f.read(key, func(r *reader) error {
			raw, err := r.rawStr()
			if err != nil || b == nil {
				return err
			}
			switch key - k {
			case 0:
				b.thinking = appendValid(nil, raw)
			case 1:
				b.signature = appendValid(nil, raw)
			default:
				b.data = appendValid(nil, raw)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// rawStr reads a string and returns its bytes between the quotes, escapes
// as they are: a view of the input, valid as JSON string content but for
// invalid UTF-8.
func (r *reader) rawStr() ([]byte, error) {
	if r.peek() != '"' {
		return nil, r.want("a string")
	}
	raw, _, err := r.scanString()
	return raw, err
}

// appendValid appends the JSON string bytes raw to dst, with invalid UTF-8
// replaced by U+FFFD.
func appendValid(dst, raw []byte) []byte {
	if utf8.Valid(raw) {
		return append(dst, raw...)
	}
	return append(dst, bytes.ToValidUTF8(raw, []byte("\ufffd"))...)
}

// appendThinking renders a thinking or redacted_thinking block; empty
// renders a thinking block as its content_block_start does (thinking and
// signature ""). A redacted_thinking block is always whole: the API sends
// it whole in its content_block_start.
func (c block) appendThinking(b []byte, empty bool) []byte {
	if c.typ == "redacted_thinking" {
		b = append(b, `{"type":"redacted_thinking","data":"`...)
		b = append(b, c.data...)
		return append(b, `"}`...)
	}
	b = append(b, `{"type":"thinking","thinking":"`...)
	if !empty {
		b = append(b, c.thinking...)
	}
	b = append(b, `","signature":"`...)
	if !empty {
		b = append(b, c.signature...)
	}
	return append(b, `"}`...)
}

// thinkingDeltas returns the deltas StreamOf sends for a thinking block:
// its whole text as one thinking_delta and its signature as one
// signature_delta, each left out when empty; none for redacted_thinking.
func (c block) thinkingDeltas() [][]byte {
	var out [][]byte
	if c.typ != "thinking" {
		return nil
	}
	if len(c.thinking) > 0 {
		d := append([]byte(`{"type":"thinking_delta","thinking":"`), c.thinking...)
		out = append(out, append(d, `"}`...))
	}
	if len(c.signature) > 0 {
		d := append([]byte(`{"type":"signature_delta","signature":"`), c.signature...)
		out = append(out, append(d, `"}`...))
	}
	return out
}

// thinkingDelta applies a thinking_delta (the text appended) or a
// signature_delta (the signature replaced, as the official SDKs do: the API
// sends one, just before content_block_stop) to a thinking block; d holds
// the delta's fields (deltaKeys).
func (p *pending) thinkingDelta(d fields, typ string) error {
	key := 3 // "thinking"
	if typ == "signature_delta" {
		key = 4 // "signature"
	}
	return d.read(key, func(r *reader) error {
		raw, err := r.rawStr()
		if typ == "signature_delta" {
			p.block.signature = appendValid(p.block.signature[:0], raw)
		} else {
			p.block.thinking = appendValid(p.block.thinking, raw)
		}
		return err
	})
}
