package extract

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/store"
)

// DefaultTruncateBytes is the head-plus-tail budget of the truncate strategy.
const DefaultTruncateBytes = 16 << 10

// Options configure an Extractor.
type Options struct {
	// Store is the session's store of oversized outputs.
	Store *store.Store
	// TruncateBytes is the head-plus-tail budget of truncate; zero means
	// DefaultTruncateBytes.
	TruncateBytes int
	// Logf, when set, receives the extractor's warnings and decisions.
	Logf func(format string, args ...any)
}

// Extractor runs the tool_output tool for one session.
type Extractor struct{ opts Options }

// New returns an Extractor.
func New(opts Options) *Extractor {
	if opts.TruncateBytes <= 0 {
		opts.TruncateBytes = DefaultTruncateBytes
	}
	return &Extractor{opts: opts}
}

func (e *Extractor) logf(format string, args ...any) {
	if e.opts.Logf != nil {
		e.opts.Logf(format, args...)
	}
}

// Params are the tool_output arguments.
type Params struct {
	Handle  string `json:"handle"`
	Extract string `json:"extract"`
	Mode    string `json:"mode"`
}

// parseParams validates the arguments; the error text is the failure body.
func parseParams(args json.RawMessage) (Params, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(args, &raw); err != nil || raw == nil {
		return Params{}, fmt.Errorf("invalid parameters: want a JSON object with handle and extract")
	}
	var p Params
	var problems []string
	for _, f := range []struct {
		name string
		dst  *string
		req  bool
	}{{"handle", &p.Handle, true}, {"extract", &p.Extract, true}, {"mode", &p.Mode, false}} {
		v, ok := raw[f.name]
		if !ok {
			if f.req {
				problems = append(problems, fmt.Sprintf("`%s` is required (a non-empty string)", f.name))
			}
			continue
		}
		if json.Unmarshal(v, f.dst) != nil || (f.req && strings.TrimSpace(*f.dst) == "") {
			problems = append(problems, fmt.Sprintf("`%s` must be a non-empty string", f.name))
		}
	}
	if len(problems) > 0 {
		return p, fmt.Errorf("invalid parameters: %s", strings.Join(problems, "; "))
	}
	return p, nil
}

// Run executes one tool_output call and returns the text the model sees, in
// the success or failure format of the spec. isError is true for the failure
// format.
func (e *Extractor) Run(ctx context.Context, args json.RawMessage) (text string, isError bool) {
	p, err := parseParams(args)
	mode := p.Mode
	if !slices.Contains([]string{ModeAuto, ModeFullChunked, ModeReadGrep, ModeTruncate}, mode) {
		if mode != "" {
			e.logf("tool_output: unknown mode %q, using auto", mode)
		}
		mode = ModeAuto
	}
	if err != nil {
		tool, handle := "UNKNOWN", p.Handle
		if m, gerr := e.opts.Store.Get(p.Handle); gerr == nil {
			tool = m.Tool
		}
		if handle == "" {
			handle = "MISSING"
		}
		return Failure(tool, handle, mode, err.Error()), true
	}
	m, err := e.opts.Store.Get(p.Handle)
	if err != nil {
		return Success("UNKNOWN", p.Handle, mode, e.notFound(p.Handle)), false
	}
	output, err := e.opts.Store.Read(p.Handle)
	if err != nil {
		return Failure(m.Tool, m.Handle, mode, err.Error()), true
	}
	kept, _ := Truncate(output, e.opts.TruncateBytes)
	if mode == ModeTruncate {
		return Success(m.Tool, m.Handle, ModeTruncate, kept), false
	}
	// The full-chunked and read-grep strategies are not built yet: every
	// other mode is a strategy that cannot run, which falls back to truncate
	// with the spec's warning.
	reason := "no extraction strategy is available"
	if mode != ModeAuto {
		reason = mode + " failed"
	}
	e.logf("tool_output: %s for handle %s: falling back to truncate", reason, m.Handle)
	body := FallbackWarning(reason) + "\n" + kept
	return Success(m.Tool, m.Handle, ModeTruncate, body), false
}

// notFound explains, as a successful answer, that no output has this handle.
func (e *Extractor) notFound(handle string) string {
	var handles []string
	for _, m := range e.opts.Store.List() {
		handles = append(handles, fmt.Sprintf("%s (%s)", m.Handle, m.Tool))
	}
	msg := fmt.Sprintf("No stored tool output was found for handle %q.", handle)
	if len(handles) == 0 {
		return msg + " Nothing is stored in this session."
	}
	return msg + " Stored handles in this session: " + strings.Join(handles, ", ") + "."
}
