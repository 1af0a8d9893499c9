package jqquery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/itchyny/gojq"
)

// Defaults of Options.
const (
	DefaultTimeout        = 2 * time.Second
	DefaultMaxOutputBytes = 16 << 10
	DefaultMaxHeapBytes   = 256 << 20
	DefaultMaxInputBytes  = 16 << 20
	// MaxExprBytes bounds an expression: a model's is a line or a few.
	MaxExprBytes = 64 << 10
)

// Options bound a query; zero fields take the defaults.
type Options struct {
	Timeout        time.Duration
	MaxOutputBytes int
	MaxHeapBytes   int64
	MaxInputBytes  int
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxOutputBytes <= 0 {
		o.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if o.MaxHeapBytes <= 0 {
		o.MaxHeapBytes = DefaultMaxHeapBytes
	}
	if o.MaxInputBytes <= 0 {
		o.MaxInputBytes = DefaultMaxInputBytes
	}
	return o
}

// Result is what a query printed.
type Result struct {
	Text   string // one compact JSON value per line
	Values int    // the values printed
	// Cut is true when the output stopped at MaxOutputBytes.
	Cut bool
}

// Kinds of Error.
const (
	Syntax   = "syntax"
	NotJSON  = "not-json"
	Runtime  = "runtime"
	Timeout  = "timeout"
	Memory   = "memory"
	TooLarge = "too-large"
)

// Error is a query that failed in a way the model can act on; Msg is the
// text to show it.
type Error struct {
	Kind string
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Run runs expr on doc within o's bounds.
func Run(ctx context.Context, doc, expr string, o Options) (Result, error) {
	o = o.withDefaults()
	code, err := compile(expr)
	if err != nil {
		return Result{}, err
	}
	if len(doc) > o.MaxInputBytes {
		return Result{}, &Error{TooLarge, fmt.Sprintf("the output is %d bytes, over the %d that query mode decodes: use another mode", len(doc), o.MaxInputBytes)}
	}
	values, err := decode(doc)
	if err != nil {
		return Result{}, err
	}
	ctx, stopCause := context.WithCancelCause(ctx)
	defer stopCause(nil)
	ctx, cancel := context.WithTimeoutCause(ctx, o.Timeout, &Error{Timeout, fmt.Sprintf(
		"jq: stopped after %s: the expression ran too long; narrow it (first, limit(n; ...), a select before a map)", o.Timeout)})
	defer cancel()
	stop := watchHeap(ctx, stopCause, o.MaxHeapBytes)
	defer stop()
	return run(ctx, code, values, o.MaxOutputBytes)
}

// compile parses and compiles expr: no module loader, no environment.
func compile(expr string) (*gojq.Code, error) {
	if len(expr) > MaxExprBytes {
		return nil, &Error{Syntax, fmt.Sprintf("jq: the expression is %d bytes, over %d: write a shorter one", len(expr), MaxExprBytes)}
	}
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, &Error{Syntax, "jq: syntax error: " + oneLine(err.Error()) + " (in " + clip(expr) + ")"}
	}
	code, err := gojq.Compile(q, gojq.WithEnvironLoader(func() []string { return nil }))
	if err != nil {
		return nil, &Error{Syntax, "jq: " + oneLine(err.Error()) + " (in " + clip(expr) + ")"}
	}
	return code, nil
}

// decode reads doc as a stream of JSON values, numbers as json.Number.
func decode(doc string) ([]any, error) {
	d := json.NewDecoder(strings.NewReader(doc))
	d.UseNumber()
	var values []any
	for {
		var v any
		err := d.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &Error{NotJSON, fmt.Sprintf("the output is not JSON (at byte %d: %s): query mode reads JSON; use mode auto, read-grep or full-chunked", d.InputOffset(), oneLine(err.Error()))}
		}
		values = append(values, v)
	}
	if len(values) == 0 {
		return nil, &Error{NotJSON, "the output is empty: query mode reads JSON; use mode auto"}
	}
	return values, nil
}

// run prints each result of code on each of values, compact, one a line,
// until maxOut bytes.
func run(ctx context.Context, code *gojq.Code, values []any, maxOut int) (Result, error) {
	var out bytes.Buffer
	r := Result{}
	for _, v := range values {
		iter := code.RunWithContext(ctx, v)
		for {
			x, ok := iter.Next()
			if !ok {
				break
			}
			if err, isErr := x.(error); isErr {
				return r, failure(ctx, err)
			}
			b, err := gojq.Marshal(x)
			if err != nil {
				return r, &Error{Runtime, "jq: " + oneLine(err.Error())}
			}
			if out.Len()+len(b)+1 > maxOut {
				r.Text, r.Cut = out.String()+fmt.Sprintf("[output cut at %d bytes: narrow the expression]", maxOut), true
				return r, nil
			}
			out.Write(b)
			out.WriteByte('\n')
			r.Values++
		}
	}
	r.Text = strings.TrimSuffix(out.String(), "\n")
	return r, nil
}

// failure is the Error of an iteration's err: the bound that stopped it,
// a halt, or the expression's own runtime error.
func failure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		var e *Error
		if errors.As(context.Cause(ctx), &e) {
			return e
		}
		return &Error{Timeout, "jq: stopped: " + context.Cause(ctx).Error()}
	}
	var h interface{ IsEmptyError() bool }
	if errors.As(err, &h) && h.IsEmptyError() {
		return nil
	}
	return &Error{Runtime, "jq: " + oneLine(err.Error())}
}

// watchHeap cancels ctx (cause: a Memory error) once the heap has grown
// by more than max since the call; stop ends the watch.
func watchHeap(ctx context.Context, cancel context.CancelCauseFunc, max int64) (stop func()) {
	base := heapBytes()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if heapBytes()-base > max {
					cancel(&Error{Memory, fmt.Sprintf("jq: stopped: the expression needed more than %d MiB; narrow it (first, limit(n; ...), no [...] of a whole large array)", max>>20)})
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

func heapBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip is the expression quoted on one line, at most 200 bytes of it.
func clip(s string) string {
	if len(s) > 200 {
		return strconv.Quote(s[:200]) + "…"
	}
	return strconv.Quote(s)
}
