package gateway

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/toolout/toolout/core/jsonspan"
)

// The JSON bounds' defaults (proxy.Limits and the wires' readers of
// answers use them).
const (
	DefaultMaxJSONValues  = 200_000
	DefaultMaxJSONNesting = 256
)

// orDefault sets *v to def when it is zero or negative: every numeric knob
// of the gateway's configuration reads that way.
func orDefault[T int | int64 | float64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// LimitError is a request refused by a bound.
type LimitError struct {
	Limit  string // one of the Limit* constants
	Offset int    // byte offset where the bound was crossed, -1 if none
	Msg    string
}

func (e *LimitError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("%s at byte %d", e.Msg, e.Offset)
	}
	return e.Msg
}

// CheckJSONShape scans body once, without allocating, and refuses it when
// it holds more than maxTokens structural tokens ({ [ , : outside strings)
// or nests deeper than maxNesting. It does not validate the JSON; the
// parsers that run after it do.
func CheckJSONShape(body []byte, maxTokens, maxNesting int) error {
	tokens, depth := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '"':
			for i++; i < len(body) && body[i] != '"'; i++ {
				if body[i] == '\\' {
					i++
				}
			}
			continue
		case '{', '[':
			if depth++; depth > maxNesting {
				return nestingError(i, maxNesting)
			}
		case '}', ']':
			depth--
			continue
		case ',', ':':
		default:
			continue
		}
		if tokens++; tokens > maxTokens {
			return valuesError(i, maxTokens)
		}
	}
	return nil
}

// bound is max, or no bound when it is zero or less.
func bound(max int) int {
	if max <= 0 {
		return math.MaxInt
	}
	return max
}

func nestingError(at, maxNesting int) *LimitError {
	return &LimitError{LimitJSONNesting, at, fmt.Sprintf("JSON nested deeper than %d levels", maxNesting)}
}

func valuesError(at, maxTokens int) *LimitError {
	return &LimitError{LimitJSONValues, at, fmt.Sprintf("more than %d JSON values", maxTokens)}
}

// Bounds are the JSON bounds a request body is parsed within
// (Limits.MaxJSONValues, Limits.MaxJSONNesting, as CheckJSONShape counts
// them); a field of zero or less bounds nothing. Known, when set, is the
// memo of long strings the parse may take as read (jsonspan.Known); the
// proxy sets it.
type Bounds struct {
	MaxValues, MaxNesting int
	Known                 jsonspan.Known
}

// ParseObjectBounded is ParseObject within b, in the same one pass: a body
// past a bound fails with the *LimitError that CheckJSONShape gives it, as
// if the body had been scanned before the parse. A body that does not
// parse is scanned then, since its bound may lie past the syntax error.
func ParseObjectBounded(body []byte, what string, b Bounds) (*jsonspan.Node, error) {
	root, err := jsonspan.ParseWith(body, jsonspan.Options{MaxTokens: b.MaxValues, MaxNesting: b.MaxNesting, Known: b.Known})
	var be *jsonspan.BoundError
	switch {
	case errors.As(err, &be) && be.Nesting:
		return nil, nestingError(be.Offset, b.MaxNesting)
	case be != nil:
		return nil, valuesError(be.Offset, b.MaxValues)
	case err != nil && (b.MaxValues > 0 || b.MaxNesting > 0):
		if lerr := CheckJSONShape(body, bound(b.MaxValues), bound(b.MaxNesting)); lerr != nil {
			return nil, lerr
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if root.Kind != '{' {
		return nil, fmt.Errorf("%s: the body must be a JSON object", what)
	}
	return root, nil
}
