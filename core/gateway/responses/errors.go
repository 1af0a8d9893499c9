package responses

import (
	"errors"
	"strconv"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/jsonspan"
)

// Sentinels wrapped by an [*Error], for callers that branch.
var (
	// ErrIncomplete: the stream ended before its terminal event
	// (response.completed, response.incomplete or response.failed): a cut
	// stream.
	ErrIncomplete = errors.New("responses: stream ended before response.completed")
	// ErrStreamError: the stream reported an error event; Msg holds its
	// code and message.
	ErrStreamError = errors.New("responses: stream error event")
)

// Error is a malformed input: which input, where, and why.
type Error struct {
	// Input is "request", "response" or "stream".
	Input string
	// Offset is the byte offset in the input; Line and Col (1-based, Col
	// in characters) are the same place. In a stream, the offset of a
	// problem in an event's data points into the data line that holds it.
	Offset    int
	Line, Col int
	// Event is the type of the stream event whose data has the problem,
	// or "".
	Event string
	// Path is the JSON path of the value, e.g. input[2].call_id, or ""
	// for the whole value.
	Path string
	Msg  string
	// Err is ErrIncomplete, ErrStreamError, or nil.
	Err error
}

// Error renders the error on one line: input, line:col, byte offset,
// event, path, problem.
func (e *Error) Error() string {
	s := "responses: " + e.Input + ": " + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) +
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

// locate fills in the input name and the line and column of err's offset
// in b, when err is an *Error.
func locate(err error, input string, b []byte) error {
	var e *Error
	if errors.As(err, &e) {
		e.Input = input
		e.Offset = min(max(e.Offset, 0), len(b))
		e.Line, e.Col = jsonlex.LineCol(b, e.Offset)
	}
	return err
}

// parse parses b as one JSON object; errors are *Error values of input.
func parse(b []byte, input string) (*jsonspan.Node, error) {
	root, err := jsonspan.Parse(b)
	if err != nil {
		var se *jsonlex.SyntaxError
		e := &Error{Msg: err.Error()}
		if errors.As(err, &se) {
			e.Offset, e.Msg = se.Offset, "invalid JSON: "+se.Msg
		}
		return nil, locate(e, input, b)
	}
	if root.Kind != '{' {
		return nil, locate(&Error{Offset: root.Start, Msg: "want an object, got " + kind(root)}, input, b)
	}
	return root, nil
}

// kind names a value's JSON type as the errors do.
func kind(n *jsonspan.Node) string { return jsonspan.KindName(n) }
