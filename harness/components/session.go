package components

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/agent"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/session"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/harness"
)

// session component: the main session with fake tools and the scripted LLM.
//
//	component: session
//	config: {max_tool_response_bytes: 2048, context_window: 0, truncate_bytes: 256, max_turns: 4, encoding: cl100k_base,
//	         extract: {max_chunks: 4, overlap_percent: 10, read_grep_turns: 5},  # the extract component's knobs
//	         policy: {context_factor: 0.5, recovery_tools: [Read, Grep],        # session.Policy over DefaultPolicy
//	                  tools: {logs__query: {max_bytes: 4096}, screenshot: {never_store: true}}}}
//	input:
//	  user: "How many errors?"
//	  tools:
//	    - {name: logs__query, output: {generate: {lines: 500, template: "..."}}}
//	    - {name: flaky, error: "connection reset"}
//	expect: {found: true, report: "...", stored: 1, turn_failed: 0, results_contain: ["ABSTRACT FROM"]}
type sessionConfig struct {
	MaxToolResponseBytes int    `yaml:"max_tool_response_bytes"`
	ContextWindow        int    `yaml:"context_window"`
	TruncateBytes        int    `yaml:"truncate_bytes"`
	MaxTurns             int    `yaml:"max_turns"`
	MaxRetries           int    `yaml:"max_retries"`
	MaxToolCallsPerTurn  int    `yaml:"max_tool_calls_per_turn"`
	Encoding             string `yaml:"encoding"`
	// Extract configures tool_output's routing and strategies.
	Extract sessionExtract `yaml:"extract"`
	// Policy configures the oversize policy.
	Policy sessionPolicy `yaml:"policy"`
}

// sessionPolicy is the session component's policy: section, session.Policy's
// fields over session.DefaultPolicy(), each refused value at its own line.
// The byte cap is max_tool_response_bytes or policy.max_bytes, not both.
type sessionPolicy struct {
	cfg      session.Policy
	set      bool // the section is there
	hasBytes bool // and sets max_bytes
}

// DecodeYAML decodes the section over session.DefaultPolicy().
func (p *sessionPolicy) DecodeYAML(d harness.Decoder, n *yaml.Node) {
	p.cfg, p.set = session.DefaultPolicy(), true
	d.Decode(n, &p.cfg, "config.policy")
	p.hasBytes = d.Has(n, "max_bytes")
}

// policy returns session.Options.Policy: nil without the section.
func (p sessionPolicy) policy() *session.Policy {
	if !p.set {
		return nil
	}
	c := p.cfg
	return &c
}

// sessionExtract is the session component's extract: section, extract.Config's
// fields over extract.DefaultConfig(). Its context_window is the session's
// unless the section sets its own, as in session.Options.Extract.
type sessionExtract struct {
	cfg       extract.Config
	set       bool // the section is there
	hasWindow bool // and sets context_window
}

// DecodeYAML decodes the section over extract.DefaultConfig().
func (e *sessionExtract) DecodeYAML(d harness.Decoder, n *yaml.Node) {
	e.cfg, e.set = extract.DefaultConfig(), true
	d.Decode(n, &e.cfg, "config.extract")
	e.hasWindow = d.Has(n, "context_window")
}

// config returns session.Options.Extract for a session whose context window
// is window (0: the session's default).
func (e sessionExtract) config(window int) *extract.Config {
	if !e.set {
		return nil
	}
	c := e.cfg
	if !e.hasWindow {
		c.ContextWindow = session.Options{ContextWindow: window}.ExtractConfig().ContextWindow
	}
	return &c
}

func (c sessionConfig) Validate() error {
	if c.Policy.hasBytes && c.MaxToolResponseBytes != 0 {
		return errors.New("max_tool_response_bytes and policy.max_bytes are both set: set the byte cap once")
	}
	return checkEncoding(c.Encoding)
}

// checkEncoding accepts a tiktoken encoding name or "estimate" (bytes/4).
func checkEncoding(enc string) error {
	if enc == "estimate" {
		return nil
	}
	if _, err := tokens.New(enc); err != nil {
		return err
	}
	return nil
}

// tokenizerFor returns the tokenizer of a checked encoding name.
func tokenizerFor(enc string) core.Tokenizer {
	if enc == "estimate" {
		return tokens.Estimator{}
	}
	return tokens.MustNew(enc)
}

type sessionTool struct {
	Name string `yaml:"name"`
	// Schema is the tool's input schema (a JSON Schema object, written as
	// YAML); none: {"type": "object"}. Its paging arguments (limit,
	// offset, cursor, ...) end the message of a stored output with a hint.
	Schema map[string]any `yaml:"schema"`
	// Output and each of Outputs may be an MCP result ({mcp: ...}: a
	// harness.Text form), whose _meta size hint the tool reports as its
	// byte cap (session.SizeHinter).
	Output *harness.Text `yaml:"output"`
	// Outputs are answered in call order; the last one repeats.
	Outputs []harness.Text `yaml:"outputs"`
	Error   string         `yaml:"error"`
}

func (t sessionTool) Validate() error {
	n := 0
	for _, set := range []bool{t.Output != nil, len(t.Outputs) > 0, t.Error != ""} {
		if set {
			n++
		}
	}
	switch {
	case t.Name == "":
		return errors.New("name is required")
	case n != 1:
		return errors.New("want exactly one of output, outputs, error")
	}
	if _, err := json.Marshal(t.Schema); err != nil {
		return fmt.Errorf("schema: not a JSON value: %v", err)
	}
	return nil
}

// sessionInput is a session's input; the user's message and the system
// prompt are texts (inline, or {file: NAME} as an import writes a long one).
type sessionInput struct {
	User   harness.Text  `yaml:"user"`
	System harness.Text  `yaml:"system"`
	Tools  []sessionTool `yaml:"tools"`
}

type sessionExpect struct {
	Found          *bool    `yaml:"found"`
	Report         *string  `yaml:"report"`
	Synthetic      *bool    `yaml:"synthetic"`
	Turns          *int     `yaml:"turns"`
	Stored         *int     `yaml:"stored"`
	TurnFailed     *int     `yaml:"turn_failed"`
	ResultsContain []string `yaml:"results_contain"`
	// Error is a substring of the error the session must end with.
	Error *string `yaml:"error"`
}

type storedJSON struct {
	Handle       string `json:"handle"`
	Tool         string `json:"tool"`
	Args         string `json:"args"`
	Bytes        int    `json:"bytes"`
	Lines        int    `json:"lines"`
	Tokens       int    `json:"tokens"`
	AvgLineBytes int    `json:"avg_line_bytes"`
}

type sessionOutcome struct {
	Found       bool         `json:"found"`
	Report      string       `json:"report"`
	Synthetic   bool         `json:"synthetic"`
	Turns       int          `json:"turns"`
	TurnFailed  int          `json:"turn_failed"`
	Stored      []storedJSON `json:"stored"`
	ToolResults []string     `json:"tool_results"`
	Error       string       `json:"error,omitempty"`
}

func registerSession(reg *harness.Registry) {
	harness.Register(reg, harness.Spec[sessionConfig, sessionInput, sessionExpect, sessionOutcome]{
		Name:     "session",
		Doc:      "runs the main session (core/session) with fake tools and the scripted LLM",
		LLM:      true,
		Defaults: func(c *sessionConfig) { c.Encoding = tokens.CL100K },
		Run:      runSession,
		Check:    checkSession,
	})
}

func runSession(ctx context.Context, env *harness.Env, cfg *sessionConfig, in *sessionInput) (sessionOutcome, error) {
	tk := tokenizerFor(cfg.Encoding)
	var tools []agent.Tool
	for _, t := range in.Tools {
		schema := json.RawMessage(`{"type":"object"}`)
		if t.Schema != nil {
			if b, err := json.Marshal(t.Schema); err == nil {
				schema = b
			}
		}
		tools = append(tools, &scriptedTool{desc: core.Tool{Name: t.Name, InputSchema: schema}, spec: t})
	}
	res, err := session.Run(ctx, session.Options{
		LLM: env.Model(), Tokenizer: tk, Sources: env.Sources, Tools: tools, System: in.System.Value, StoreBase: env.TempDir,
		Policy: cfg.Policy.policy(), MaxToolResponseBytes: cfg.MaxToolResponseBytes, ContextWindow: cfg.ContextWindow, TruncateBytes: cfg.TruncateBytes, Extract: cfg.Extract.config(cfg.ContextWindow),
		MaxTurns: cfg.MaxTurns, MaxRetries: cfg.MaxRetries, MaxToolCallsPerTurn: cfg.MaxToolCallsPerTurn, Logf: env.Logf,
	}, in.User.Value)
	out := sessionOutcome{Found: res.Found, Report: res.Report, Synthetic: res.Synthetic, Turns: res.Turns,
		Stored: []storedJSON{}, ToolResults: []string{}}
	if err != nil {
		out.Error = err.Error()
	}
	for _, m := range res.Stored {
		out.Stored = append(out.Stored, storedJSON{m.Handle, m.Tool, m.Args, m.Bytes, m.Lines, m.Tokens, m.AvgLineBytes})
	}
	for _, m := range res.Messages {
		switch {
		case m.Role == core.RoleTool:
			out.ToolResults = append(out.ToolResults, m.Name+": "+m.Content)
		case m.Role == core.RoleUser && strings.HasPrefix(m.Content, "TURN-FAILED"):
			out.TurnFailed++
		}
	}
	return out, nil
}

func checkSession(exp *sessionExpect, got sessionOutcome) []harness.Mismatch {
	var out []harness.Mismatch
	out = append(out, want("found", exp.Found, got.Found)...)
	out = append(out, want("report", exp.Report, got.Report)...)
	out = append(out, want("synthetic", exp.Synthetic, got.Synthetic)...)
	out = append(out, want("turns", exp.Turns, got.Turns)...)
	if m := want("stored", exp.Stored, len(got.Stored)); m != nil {
		var stored []string
		for _, s := range got.Stored {
			stored = append(stored, fmt.Sprintf("%s: %s %s (%d bytes)", s.Handle, s.Tool, s.Args, s.Bytes))
		}
		m[0].Msg += "; " + harness.Found("stored outputs", stored)
		out = append(out, m...)
	}
	out = append(out, want("turn_failed", exp.TurnFailed, got.TurnFailed)...)
	switch {
	case exp.Error == nil && got.Error != "":
		out = append(out, harness.Mismatch{Field: "error", Msg: fmt.Sprintf("the session failed: %s", got.Error)})
	case exp.Error != nil && !strings.Contains(got.Error, *exp.Error):
		out = append(out, harness.Mismatch{Field: "error", Msg: fmt.Sprintf("got %s, want it to contain %q", harness.Show(got.Error), *exp.Error)})
	}
	for _, sub := range exp.ResultsContain {
		if !slices.ContainsFunc(got.ToolResults, func(r string) bool { return strings.Contains(r, sub) }) {
			out = append(out, harness.Mismatch{Field: "results_contain", Msg: fmt.Sprintf("no tool result contains %q; %s", sub, harness.Found("tool results", got.ToolResults))})
		}
	}
	return out
}

// scriptedTool is a session scenario's tool: its error, its output, or its
// outputs in call order (the last repeating). An MCP output ({mcp: ...})
// fails with its text when it has isError, and its _meta size hint is the
// tool's SizeHint after it answered.
type scriptedTool struct {
	desc  core.Tool
	spec  sessionTool
	calls int
	hint  int
}

func (t *scriptedTool) Descriptor() core.Tool { return t.desc }

func (t *scriptedTool) Run(context.Context, json.RawMessage) (string, error) {
	if t.spec.Error != "" {
		return "", errors.New(t.spec.Error)
	}
	out := t.spec.Output
	if out == nil {
		out = &t.spec.Outputs[min(t.calls, len(t.spec.Outputs)-1)]
		t.calls++
	}
	t.hint = out.MaxChars
	if out.IsError {
		return "", errors.New(out.Value)
	}
	return out.Value, nil
}

// SizeHint is the size hint of the tool's last MCP output (session.SizeHinter).
func (t *scriptedTool) SizeHint() int { return t.hint }
