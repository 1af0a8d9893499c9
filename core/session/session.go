package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/agent"
	"github.com/toolout/toolout/core/extract"
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
	// MaxToolResponseBytes is the byte cap: a larger result is stored.
	// Zero means DefaultMaxToolResponseBytes; negative disables the rule.
	MaxToolResponseBytes int
	// ContextWindow is the model's context in tokens; a result whose tokens
	// would overflow what is left of it is stored. Zero means
	// DefaultContextWindow; negative disables the rule.
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

	maxBytes := orDefault(opts.MaxToolResponseBytes, DefaultMaxToolResponseBytes)
	window := orDefault(opts.ContextWindow, DefaultContextWindow)
	policy := Policy{MaxBytes: maxBytes}
	used := usage{tk: opts.Tokenizer}
	nonce := opts.Sources.NewNonce()
	xcfg := opts.ExtractConfig()
	ex, err := extract.New(extract.Options{Store: st, LLM: opts.LLM, Tokenizer: opts.Tokenizer, Nonce: nonce,
		Config: xcfg, TruncateBytes: opts.TruncateBytes, Logf: logf})
	if err != nil {
		return res, fmt.Errorf("session: run: %w", err)
	}
	toolOutput := agent.Func{Desc: extract.Tool(), Fn: func(ctx context.Context, args json.RawMessage) (string, error) {
		text, _ := ex.Run(ctx, args) // the failure format is the result the model sees
		return text, nil
	}}
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
			if call.Name == extract.ToolName {
				return result // never stored
			}
			remaining := -1
			if window > 0 {
				remaining = max(window-used.of(msgs), 0)
			}
			stats := store.Measure(result, opts.Tokenizer)
			d := policy.Decide(call.Name, stats, remaining)
			if !d.Store {
				return result
			}
			m, err := st.Put(call.Name, string(call.Arguments), result, stats)
			if err != nil {
				logf("session: %v", err)
				return "Tool error: the output was too large and could not be stored: " + err.Error()
			}
			logf("session: stored the output of %s as handle %s (%s; %d bytes, %d lines, %d tokens)", call.Name, m.Handle, d.Reason, m.Bytes, m.Lines, m.Tokens)
			return store.HandleMessage(m)
		},
	}, user)
	res.Result = ares
	if err != nil {
		return res, fmt.Errorf("session: %w", err)
	}
	return res, nil
}

func orDefault(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}
