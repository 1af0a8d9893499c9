package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/agent"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/paging"
	"github.com/toolout/toolout/core/store"
)

// Defaults of Options.
const (
	DefaultMaxToolResponseBytes = 12 << 10
	DefaultContextWindow        = 128_000
)

// Options configure a session.
type Options struct {
	LLM       core.LLM
	Tokenizer core.Tokenizer
	Sources   core.Sources
	// Tools are the session's own tools; tool_output is added by the session.
	Tools []agent.Tool
	// System is the task's system prompt; the session appends the
	// final-report instruction with its nonce.
	System string
	// StoreBase is the folder of the session's store directory; empty means
	// the system temp dir.
	StoreBase string
	// Policy is the oversize policy; nil means DefaultPolicy(). Run
	// refuses one that does not Validate.
	Policy *Policy
	// MaxToolResponseBytes, when not zero, is the policy's byte cap: a
	// larger result is stored. Negative disables the byte rule. Zero leaves
	// the policy's (DefaultMaxToolResponseBytes by default).
	MaxToolResponseBytes int
	// ContextWindow is the model's context in tokens; the context left is
	// the window less the conversation so far, and a result of more tokens
	// than the policy's k times that is stored. Zero means
	// DefaultContextWindow; negative disables the context rule.
	ContextWindow int
	// TruncateBytes is the truncate strategy's budget (extract.Options).
	TruncateBytes int
	// Extract configures routing and full-chunked extraction. Nil means
	// extract.DefaultConfig() with the session's ContextWindow when that is
	// positive: the extraction model is the session's model unless said
	// otherwise.
	Extract *extract.Config
	// MaxTurns, MaxRetries, MaxToolCallsPerTurn and MaxOutputTokens go to
	// the agent loop.
	MaxTurns, MaxRetries, MaxToolCallsPerTurn, MaxOutputTokens int
	// Logf receives the session's log lines.
	Logf func(format string, args ...any)
}

// ExtractConfig returns the extraction knobs the session uses: Extract, or
// extract.DefaultConfig() with the session's context window.
func (o Options) ExtractConfig() extract.Config {
	if o.Extract != nil {
		return *o.Extract
	}
	c := extract.DefaultConfig()
	if w := orDefault(o.ContextWindow, DefaultContextWindow); w > 0 {
		c.ContextWindow = w
	}
	return c
}

// OversizePolicy returns the policy the session applies: Policy, or
// DefaultPolicy(), with MaxToolResponseBytes as its byte cap when that is not
// zero (negative: no byte rule).
func (o Options) OversizePolicy() Policy {
	p := DefaultPolicy()
	if o.Policy != nil {
		p = *o.Policy
	}
	switch {
	case o.MaxToolResponseBytes > 0:
		p.MaxBytes = o.MaxToolResponseBytes
	case o.MaxToolResponseBytes < 0:
		p.MaxBytes = 0
	}
	return p
}

// Result is how the session ended.
type Result struct {
	agent.Result
	// Stored lists the outputs that were stored, in order.
	Stored []store.Meta
	// Dir is the store directory, removed by the time Run returns.
	Dir string
}

// Instruction is appended to the system prompt; %s is the nonce.
const Instruction = "When you have the answer, write it inside exactly one final-report wrapper:\n" +
	"<ai-agent-%s-FINAL format=\"text\"> ... </ai-agent-%s-FINAL>"

// Run runs one session from the user's message. The store directory is
// removed before Run returns, whatever the outcome, including a panic in a
// tool (which is re-raised after the cleanup).
func Run(ctx context.Context, opts Options, user string) (res Result, err error) {
	if opts.Tokenizer == nil || opts.LLM == nil {
		return Result{}, errors.New("session: run: Options.LLM and Options.Tokenizer are required")
	}
	policy := opts.OversizePolicy()
	if err := policy.Validate(); err != nil {
		return Result{}, fmt.Errorf("session: run: policy: %s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	st, err := store.New(store.Options{Base: opts.StoreBase, Sources: opts.Sources, Logf: logf})
	if err != nil {
		return Result{}, fmt.Errorf("session: run: %w", err)
	}
	res.Dir = st.Dir()
	defer func() {
		res.Stored = st.List()
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("session: %w", cerr)
		}
	}()

	window := orDefault(opts.ContextWindow, DefaultContextWindow)
	used := usage{tk: opts.Tokenizer}
	nonce := opts.Sources.NewNonce()
	xcfg := opts.ExtractConfig()
	ex, err := extract.New(extract.Options{Store: st, LLM: opts.LLM, Tokenizer: opts.Tokenizer, Nonce: nonce,
		Config: xcfg, TruncateBytes: opts.TruncateBytes, Logf: logf})
	if err != nil {
		return res, fmt.Errorf("session: run: %w", err)
	}
	toolOutput := agent.Func{Desc: ex.Tool(), Fn: func(ctx context.Context, args json.RawMessage) (string, error) {
		text, _ := ex.Run(ctx, args) // the failure format is the result the model sees
		return text, nil
	}}
	hints := pagingHints(opts.Tools)
	system := opts.System
	if system != "" {
		system += "\n\n"
	}
	system += fmt.Sprintf(Instruction, nonce, nonce)

	ares, err := agent.Run(ctx, agent.Options{
		LLM: opts.LLM, Site: core.SiteSessionTurn, System: system, Nonce: nonce, Sources: opts.Sources,
		MaxTurns: opts.MaxTurns, MaxRetries: opts.MaxRetries, MaxToolCallsPerTurn: opts.MaxToolCallsPerTurn,
		MaxOutputTokens: opts.MaxOutputTokens, Logf: logf,
		Tools: func(turn int, final bool) []agent.Tool {
			tools := append([]agent.Tool(nil), opts.Tools...)
			if st.Len() > 0 && !final { // decisions 14 and 15
				tools = append(tools, toolOutput)
			}
			return tools
		},
		AfterTool: func(_ context.Context, msgs []core.Message, call core.ToolCall, result string) string {
			remaining := -1
			if window > 0 {
				remaining = max(window-used.of(msgs), 0)
			}
			stats := store.Measure(result, opts.Tokenizer)
			p := policy.withHint(call.Name, sizeHint(opts.Tools, call.Name))
			return apply(p.Decide(call.Name, stats, remaining), st, call, result, stats, hints[call.Name], logf)
		},
	}, user)
	res.Result = ares
	if err != nil {
		return res, fmt.Errorf("session: %w", err)
	}
	return res, nil
}

// apply carries out the decision d on the result of call: the result as it
// is, cut in place, or stored and replaced by the handle message. An exempt
// result over a limit is logged with the rule that did not store it.
func apply(d Decision, st *store.Store, call core.ToolCall, result string, stats store.Stats, hint string, logf func(string, ...any)) string {
	switch {
	case d.Cut:
		cut, n := extract.Truncate(result, d.Keep)
		logf("session: cut %d of %d bytes of the output of %s (%s)", n, stats.Bytes, call.Name, d.Reason)
		return cut
	case d.Exempt && d.Rule != "":
		logf("session: kept the output of %s (%s)", call.Name, d.Reason)
		return result
	case !d.Store:
		return result
	}
	m, err := st.Put(call.Name, string(call.Arguments), result, stats)
	if err != nil {
		logf("session: %v", err)
		return "Tool error: the output was too large and could not be stored: " + err.Error()
	}
	logf("session: stored the output of %s as handle %s (%s; %d bytes, %d lines, %d tokens)", call.Name, m.Handle, d.Reason, m.Bytes, m.Lines, m.Tokens)
	if hint != "" {
		return store.HandleMessage(m) + "\n" + hint
	}
	return store.HandleMessage(m)
}

// SizeHinter is a tool whose results may declare their own size limit
// (an MCP tool's _meta "anthropic/maxResultSizeChars": mcpresult.Tool).
type SizeHinter interface{ SizeHint() int }

// sizeHint is the limit the tool named name declared with its last
// result, or 0.
func sizeHint(tools []agent.Tool, name string) int {
	for _, t := range tools {
		if h, ok := t.(SizeHinter); ok && t.Descriptor().Name == name {
			return h.SizeHint()
		}
	}
	return 0
}

// pagingHints is the paging hint of each tool whose input schema declares
// paging arguments (core/paging), by name: the line the handle message of
// its stored outputs ends with. A tool without them has none, and its
// message is the spec's, byte for byte.
func pagingHints(tools []agent.Tool) map[string]string {
	hints := map[string]string{}
	for _, t := range tools {
		d := t.Descriptor()
		if h := paging.Hint(d.Name, paging.Params(d.InputSchema)); h != "" {
			hints[d.Name] = h
		}
	}
	return hints
}

func orDefault(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}
