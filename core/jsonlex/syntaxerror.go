package jsonlex

import "fmt"

// SyntaxError is JSON that one of core's readers refused (jsonspan, the
// schema reader, jsonaware): the one shape of a JSON syntax error in
// toolout. Offset is the byte where the reader stopped; Line and Col,
// when the reader computed them (jsonaware does, with [LineCol]), are
// 1-based, Col in characters, and 0 otherwise; Msg says what was expected
// or found there ("want ',' or '}'", "unexpected end of input").
type SyntaxError struct {
	Offset    int
	Line, Col int
	Msg       string
}

// Error is "invalid JSON at byte N: msg", or "invalid JSON at L:C (byte
// N): msg" when the line and column are known. A reader that names itself
// wraps it ("jsonaware: %w"); errors.As finds it under any wrapping.
func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("invalid JSON at %d:%d (byte %d): %s", e.Line, e.Col, e.Offset, e.Msg)
	}
	return fmt.Sprintf("invalid JSON at byte %d: %s", e.Offset, e.Msg)
}
