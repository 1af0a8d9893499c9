package fakes

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Step is one scripted answer of the LLM. The yaml tags are the scenario
// format; the harness decodes steps straight into this type.
type Step struct {
	// ID names the step in messages and transcripts.
	ID string `yaml:"id"`
	// Match says which requests the step answers.
	Match Match `yaml:"match"`
	// Respond says what it answers.
	Respond Respond `yaml:"respond"`
	// Times is how many requests the step must answer; zero means once.
	Times int `yaml:"times"`
	// Repeat lets the step answer any number of requests past its Times,
	// which stays the least it must answer: for a script that answers
	// every request of a kind the same way (an oracle for every map call),
	// however many the input makes.
	Repeat bool `yaml:"repeat"`
	// After names steps that must have answered all their times before this
	// step answers. A request matched by this step waits for them, so a
	// script can make concurrent calls finish in a chosen order. A wait
	// longer than AfterTimeout is a violation (the awaited step never came).
	After []string `yaml:"after"`
	// Pos is where the step was written (file:line:col), used in messages.
	Pos string `yaml:"-"`
}

// Match holds the facts a request must show for a step to answer it. Empty
// fields match anything.
type Match struct {
	// Tag is the call site, e.g. "extract.map".
	Tag string `yaml:"tag"`
	// Chunk is "i/n": chunk i of n.
	Chunk string `yaml:"chunk"`
	// Turn is the 1-based agent turn.
	Turn int `yaml:"turn"`
	// Round is the 1-based forward of the agent's request by a gateway
	// in front of the model (core.Tag.Round): 1, then 2... after each
	// expand_context round, all within the same Turn. A request whose tag
	// has no round (none went through a gateway) is round 1.
	Round int `yaml:"round"`
	// System lists substrings that must all occur in the system messages.
	System []string `yaml:"system"`
	// User lists substrings that must all occur in the last user message.
	User []string `yaml:"user"`
	// Contains lists substrings that must all occur in some message.
	Contains []string `yaml:"contains"`
}

// Respond is the answer of a step. Text or Final may come with ToolCalls;
// Error and Oracle stand alone.
type Respond struct {
	// Text is sent as is, with every "{{nonce}}" replaced by the request's nonce.
	Text *string `yaml:"text"`
	// Final is wrapped in the request's final-report wrapper.
	Final *string `yaml:"final"`
	// ToolCalls are native tool calls.
	ToolCalls []CallSpec `yaml:"tool_calls"`
	// Error injects a failure.
	Error *ErrorSpec `yaml:"error"`
	// Oracle computes the answer from the request.
	Oracle *OracleSpec `yaml:"oracle"`
	// Stream says how the answer is streamed to a request that asks for a
	// stream (see [LLM.CompleteStream]); it goes with any answer but Error.
	Stream *StreamSpec `yaml:"stream"`
}

// CallSpec is a scripted native tool call.
type CallSpec struct {
	// ID of the call; when empty the LLM numbers calls call-1, call-2, ...
	ID string `yaml:"id"`
	// Name of the tool.
	Name string `yaml:"name"`
	// Args is marshalled to the JSON arguments object.
	Args map[string]any `yaml:"args"`
	// Raw, when set, is sent verbatim as the arguments (to script malformed
	// arguments). Raw and Args are exclusive.
	Raw *string `yaml:"raw"`
	// Custom makes the call a custom tool call (the Responses API's
	// custom_tool_call: free text, not JSON arguments, e.g. Codex's
	// apply_patch); Input is its text. Custom takes Input and neither Args
	// nor Raw.
	Custom bool    `yaml:"custom"`
	Input  *string `yaml:"input"`
}

// Error kinds a step can inject.
const (
	ErrorTimeout     = "timeout"
	ErrorRateLimit   = "rate_limit"
	ErrorServerError = "server_error"
)

// ErrorSpec injects an LLM failure.
type ErrorSpec struct {
	// Kind is timeout, rate_limit or server_error.
	Kind string `yaml:"kind"`
	// Message is added to the error text.
	Message string `yaml:"message"`
}

// OracleSpec names an oracle responder and its parameters.
type OracleSpec struct {
	Name   string         `yaml:"name"`
	Params map[string]any `yaml:"params"`
	// Wrap is "auto" (the default: wrap in the final-report wrapper when the
	// request names a nonce), "final" or "none".
	Wrap string `yaml:"wrap"`
}

var chunkRE = regexp.MustCompile(`^([1-9][0-9]*)/([1-9][0-9]*)$`)

// parseChunk parses "i/n".
func parseChunk(s string) (i, n int, err error) {
	m := chunkRE.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, fmt.Errorf("chunk %q: want i/n with 1 <= i <= n", s)
	}
	i, _ = strconv.Atoi(m[1])
	n, _ = strconv.Atoi(m[2])
	if i > n {
		return 0, 0, fmt.Errorf("chunk %q: want i/n with 1 <= i <= n", s)
	}
	return i, n, nil
}

// Validate checks the match criteria.
func (m Match) Validate() error {
	if m.Chunk != "" {
		if _, _, err := parseChunk(m.Chunk); err != nil {
			return err
		}
	}
	if m.Turn < 0 {
		return fmt.Errorf("turn %d: must not be negative", m.Turn)
	}
	if m.Round < 0 {
		return fmt.Errorf("round %d: must not be negative", m.Round)
	}
	return nil
}

// Validate checks that the response is well formed.
func (r Respond) Validate() error {
	var kinds []string
	if r.Text != nil {
		kinds = append(kinds, "text")
	}
	if r.Final != nil {
		kinds = append(kinds, "final")
	}
	if len(r.ToolCalls) > 0 {
		kinds = append(kinds, "tool_calls")
	}
	if r.Error != nil {
		kinds = append(kinds, "error")
	}
	if r.Oracle != nil {
		kinds = append(kinds, "oracle")
	}
	switch {
	case len(kinds) == 0:
		return errors.New("want one of text, final, tool_calls, error, oracle")
	case r.Text != nil && r.Final != nil:
		return errors.New("text and final are exclusive")
	case (r.Error != nil || r.Oracle != nil) && len(kinds) > 1:
		return fmt.Errorf("%s stands alone (got %s)", kinds[len(kinds)-1], strings.Join(kinds, ", "))
	case r.Stream != nil:
		return prefix("stream", r.Stream.against(r))
	}
	return nil
}

// Validate checks a scripted call.
func (c CallSpec) Validate() error {
	var errs []error
	if c.Name == "" {
		errs = append(errs, errors.New("name is required"))
	}
	switch {
	case c.Custom && (c.Args != nil || c.Raw != nil):
		errs = append(errs, errors.New("custom: true takes input, not args or raw"))
	case c.Custom && c.Input == nil:
		errs = append(errs, errors.New("custom: true wants input (the call's free text)"))
	case !c.Custom && c.Input != nil:
		errs = append(errs, errors.New("input is a custom tool call's text: add custom: true (a function call takes args or raw)"))
	case c.Raw != nil && c.Args != nil:
		errs = append(errs, errors.New("args and raw are exclusive"))
	}
	return errors.Join(errs...)
}

// Validate checks the error kind.
func (e ErrorSpec) Validate() error {
	switch e.Kind {
	case ErrorTimeout, ErrorRateLimit, ErrorServerError:
		return nil
	}
	return fmt.Errorf("error kind %q: want %s, %s or %s", e.Kind, ErrorTimeout, ErrorRateLimit, ErrorServerError)
}

// Validate checks that the oracle exists and accepts the parameters.
func (o OracleSpec) Validate() error {
	or, ok := oracles[o.Name]
	if !ok {
		return fmt.Errorf("oracle %q: unknown (known: %s)", o.Name, strings.Join(OracleNames(), ", "))
	}
	switch o.Wrap {
	case "", "auto", "final", "none":
	default:
		return fmt.Errorf("oracle wrap %q: want auto, final or none", o.Wrap)
	}
	if err := or.Check(o.Params); err != nil {
		return fmt.Errorf("oracle %q: %w", o.Name, err)
	}
	return nil
}

// Validate checks the step's own fields; its parts validate themselves.
func (s Step) Validate() error {
	if s.Times < 0 {
		return fmt.Errorf("times %d: must not be negative", s.Times)
	}
	return nil
}

// check validates the step and every part of it.
func (s Step) check() error {
	errs := []error{s.Validate(), prefix("match", s.Match.Validate()), prefix("respond", s.Respond.Validate())}
	for i, c := range s.Respond.ToolCalls {
		errs = append(errs, prefix(fmt.Sprintf("respond.tool_calls[%d]", i), c.Validate()))
	}
	if s.Respond.Error != nil {
		errs = append(errs, prefix("respond.error", s.Respond.Error.Validate()))
	}
	if s.Respond.Oracle != nil {
		errs = append(errs, prefix("respond.oracle", s.Respond.Oracle.Validate()))
	}
	if s.Respond.Stream != nil {
		errs = append(errs, prefix("respond.stream", s.Respond.Stream.Validate()))
	}
	return errors.Join(errs...)
}

func prefix(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}
