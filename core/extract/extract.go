package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/core/store"
)

// DefaultTruncateBytes is the head-plus-tail budget of the truncate strategy.
const DefaultTruncateBytes = 16 << 10

// Options configure an Extractor.
type Options struct {
	// Store is the session's store of oversized outputs.
	Store *store.Store
	// LLM answers the map and reduce calls of full-chunked.
	LLM core.LLM
	// Tokenizer counts prompt tokens and plans chunks; required.
	Tokenizer core.Tokenizer
	// Nonce is the session nonce of the final-report wrappers that map and
	// reduce answers must use; empty means Sources.NewNonce().
	Nonce string
	// Sources supplies the nonce when Nonce is empty.
	Sources core.Sources
	// Config holds routing and full-chunked knobs; New refuses one that
	// Config.Validate refuses, the zero Config among them: start from
	// DefaultConfig.
	Config Config
	// TruncateBytes is the budget of truncate, head-tail and json-aware
	// (bytes kept, markers and counts aside for truncate and head-tail;
	// the whole document for json-aware); zero means DefaultTruncateBytes.
	TruncateBytes int
	// Logf, when set, receives the extractor's warnings and decisions.
	Logf func(format string, args ...any)
}

// Extractor runs the tool_output tool for one session. It is safe for
// concurrent use.
type Extractor struct {
	opts  Options
	nonce string
}

// New returns an Extractor. It fails on a missing store or tokenizer, an
// invalid nonce or an invalid Config.
func New(opts Options) (*Extractor, error) {
	if opts.Store == nil || opts.Tokenizer == nil {
		return nil, errors.New("extract: new: Options.Store and Options.Tokenizer are required")
	}
	if err := opts.Config.Validate(); err != nil {
		return nil, fmt.Errorf("extract: new: %w", err)
	}
	if opts.TruncateBytes <= 0 {
		opts.TruncateBytes = DefaultTruncateBytes
	}
	nonce := opts.Nonce
	if nonce == "" {
		nonce = opts.Sources.NewNonce()
	}
	if err := finalreport.CheckNonce(nonce); err != nil {
		return nil, fmt.Errorf("extract: new: %w", err)
	}
	return &Extractor{opts: opts, nonce: nonce}, nil
}

// Tool returns the tool_output descriptor this extractor answers: the
// spec's exact schema unless Config.OfferModes offers more ([ToolFor]).
func (e *Extractor) Tool() core.Tool { return ToolFor(e.opts.Config) }

// Planner returns the extractor's router and chunk planner.
func (e *Extractor) Planner() Planner {
	return Planner{Config: e.opts.Config, Tokenizer: e.opts.Tokenizer}
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
	// Query is the jq expression of mode query.
	Query string `json:"query,omitempty"`
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
	}{{"handle", &p.Handle, true}, {"extract", &p.Extract, true}, {"mode", &p.Mode, false}, {"query", &p.Query, false}} {
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

// Outcome is everything one tool_output call decided and answered.
type Outcome struct {
	// Text is what the model sees, in the success or failure format.
	Text string `json:"text"`
	// IsError is true for the failure format.
	IsError bool `json:"is_error"`
	// Requested is the mode asked for, after normalization (unknown → auto).
	Requested string `json:"requested"`
	// Route is the routing decision; nil when the call never got that far
	// (bad parameters, unknown handle).
	Route *Route `json:"route,omitempty"`
	// Strategy is the mode in the answer's header: the one that produced
	// the body.
	Strategy string `json:"strategy"`
	// Fallback is the reason in the fallback warning, empty when none.
	Fallback string `json:"fallback,omitempty"`
	// Failure says why the routed strategy failed, empty when it did not.
	Failure string `json:"failure,omitempty"`
	// Cut says how truncate cut the body (bytes, head-tail or json-aware;
	// Config.TruncateWith), empty when truncate did not answer.
	Cut string `json:"cut,omitempty"`
}

// Run executes one tool_output call and returns the text the model sees, in
// the success or failure format of the spec. isError is true for the failure
// format.
func (e *Extractor) Run(ctx context.Context, args json.RawMessage) (text string, isError bool) {
	o := e.Extract(ctx, args)
	return o.Text, o.IsError
}

// Extract executes one tool_output call and reports how it was answered.
func (e *Extractor) Extract(ctx context.Context, args json.RawMessage) Outcome {
	p, err := parseParams(args)
	mode := p.Mode
	if !e.opts.Config.Offers(mode) {
		switch {
		case slices.Contains(ExtraModes, mode):
			e.logf("tool_output: mode %q is not offered (offer_modes), using auto", mode)
		case mode != "":
			e.logf("tool_output: unknown mode %q, using auto", mode)
		}
		mode = ModeAuto
	}
	o := Outcome{Requested: mode, Strategy: mode}
	if err != nil {
		tool, handle := "UNKNOWN", p.Handle
		if m, gerr := e.opts.Store.Get(p.Handle); gerr == nil {
			tool = m.Tool
		}
		if handle == "" {
			handle = "MISSING"
		}
		o.Text, o.IsError = Failure(tool, handle, mode, err.Error()), true
		return o
	}
	m, output, err := e.opts.Store.Read(p.Handle)
	switch {
	case errors.Is(err, store.ErrNotFound):
		o.Text = Success("UNKNOWN", p.Handle, mode, e.notFound(p.Handle))
		return o
	case err != nil:
		o.Text, o.IsError = Failure(m.Tool, m.Handle, mode, err.Error()), true
		return o
	}
	r := e.Planner().Route(m, output, p.Extract, e.nonce, mode)
	o.Route = &r
	o.Strategy = r.Mode
	e.logf("tool_output: handle %s: mode %s routed to %s (%s)", m.Handle, mode, r.Mode, r.Reason)
	var body string
	switch r.Mode {
	case ModeTruncate:
		body, o.Cut = e.cut(m.Handle, output)
	case ModeHeadTail:
		body = e.headTail(output)
	case ModeJSONAware:
		body, err = e.jsonAware(output)
	case ModeFullChunked:
		body, err = e.fullChunked(ctx, m, output, p.Extract, r)
	case ModeReadGrep:
		body, err = e.readGrep(ctx, m, p.Extract)
	case ModeQuery:
		if body, err = e.query(ctx, output, p.Query); err != nil {
			// the model's own expression failed: it gets why, to write another
			e.logf("tool_output: handle %s: query failed: %v", m.Handle, err)
			o.Failure = err.Error()
			o.Text, o.IsError = Failure(m.Tool, m.Handle, ModeQuery, err.Error()), true
			return o
		}
	}
	if err != nil {
		o.Failure = strings.ReplaceAll(err.Error(), "\n", "; ")
		o.Fallback = r.Mode + " failed"
		o.Strategy = ModeTruncate
		e.logf("tool_output: handle %s: %s failed: %s; falling back to truncate", m.Handle, r.Mode, o.Failure)
		var kept string
		kept, o.Cut = e.cut(m.Handle, output)
		body = FallbackWarning(o.Fallback) + "\n" + kept
	}
	o.Text = Success(m.Tool, m.Handle, o.Strategy, body)
	return o
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
