package anthropic

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolout/toolout/core/jsonspan"
)

// Sentinels wrapped by an [*Error], for callers that branch.
var (
	// ErrIncomplete: the stream ended before message_stop (a cut stream).
	ErrIncomplete = errors.New("anthropic: stream ended before message_stop")
	// ErrUnsupported: the input holds content this package does not map
	// (a server-tool or other unknown block in a response, a citation, a
	// delta type it does not know). A proxy can relay such an answer
	// untouched. Thinking blocks are supported.
	ErrUnsupported = errors.New("anthropic: unsupported content")
)

// Error is a malformed or unsupported input: which input, where, and why.
type Error struct {
	// Input is "request", "response", "message" or "stream".
	Input string
	// Offset is the byte offset in the input; Line and Col (1-based, Col in
	// bytes) are the same place. In a stream, the offset of a problem in an
	// event's data points into the data line that holds it.
	Offset    int
	Line, Col int
	// Event is the stream event whose data has the problem, or "".
	Event string
	// Path is the JSON path of the value, e.g. messages[2].content[0].type,
	// or "" for the whole value.
	Path string
	Msg  string
	// Err is ErrIncomplete, ErrUnsupported, an *APIError, or nil.
	Err error
}

// Error renders the error on one line: input, line:col, byte offset, event,
// path, problem.
func (e *Error) Error() string {
	s := "anthropic: " + e.Input + ": " + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) +
		" (byte " + strconv.Itoa(e.Offset) + "): "
	if e.Event != "" {
		s += "event " + e.Event + ": "
	}
	if e.Path != "" {
		s += e.Path + ": "
	}
	return s + e.Msg
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// APIError is an error the API reported: an `event: error` in a stream, or
// an error body ({"type":"error","error":{"type","message"}}).
type APIError struct {
	Type    string // e.g. overloaded_error, rate_limit_error
	Message string
}

// Error renders the type and message on one line.
func (e *APIError) Error() string { return "anthropic: " + oneLine(e.Type) + ": " + oneLine(e.Message) }

// Status is the HTTP status the API documents for the error type (529 for
// overloaded_error, 429 for rate_limit_error, ...); 500 for a type it does
// not list.
func (e *APIError) Status() int {
	switch e.Type {
	case "invalid_request_error":
		return http.StatusBadRequest
	case "authentication_error":
		return http.StatusUnauthorized
	case "billing_error":
		return http.StatusPaymentRequired
	case "permission_error":
		return http.StatusForbidden
	case "not_found_error":
		return http.StatusNotFound
	case "request_too_large":
		return http.StatusRequestEntityTooLarge
	case "rate_limit_error":
		return http.StatusTooManyRequests
	case "timeout_error":
		return http.StatusGatewayTimeout
	case "overloaded_error":
		return 529
	}
	return http.StatusInternalServerError
}

// within prefixes the path of err with seg (a key, or "[i]").
func within(err error, seg string) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	switch {
	case e.Path == "":
		e.Path = seg
	case e.Path[0] == '[':
		e.Path = seg + e.Path
	default:
		e.Path = seg + "." + e.Path
	}
	return e
}

// unsupported is an ErrUnsupported error at byte off.
func unsupported(off int, msg string) *Error {
	return &Error{Offset: off, Msg: msg, Err: ErrUnsupported}
}

// locate names the input of err and fills in its line and column in src.
func locate(err error, input string, src []byte) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	e.Input = input
	e.Offset = min(max(e.Offset, 0), len(src))
	e.Line, e.Col = jsonspan.LineCol(src, e.Offset)
	return e
}

// quote renders a value read from the input for an error message: quoted,
// and cut after 64 bytes.
func quote(s string) string {
	if len(s) <= 64 {
		return strconv.Quote(s)
	}
	cut := 64
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	q := strconv.Quote(s[:cut])
	return q[:len(q)-1] + `..."`
}

// keySeg renders a key as a path segment: as it is when it is a plain
// name, else quoted in brackets, so that the path stays unambiguous and on
// one line.
func keySeg(key string) string {
	if key == "" || len(key) > 64 {
		return "[" + quote(key) + "]"
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '$') {
			return "[" + quote(key) + "]"
		}
	}
	return key
}

// oneLine renders a text from the input (an API error message) on one
// line: control characters become spaces, and it is cut after 300 bytes.
func oneLine(s string) string {
	if len(s) > 300 {
		cut := 300
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
