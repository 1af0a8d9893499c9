package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/core/leaked"
)

// TurnFailedNoToolsNoReport is the user message sent when a turn has text but
// neither tool calls (native or leaked) nor a final report; it is the exact
// text of the production trace the leaked-call design quotes (docs/contracts.md,
// section 3).
const TurnFailedNoToolsNoReport = "TURN-FAILED: No tools called, no final report/answer provided, but unexpected content is present.\n" +
	"- If you believe you called tools, the system did not detect any tool calls. This usually means tool calls were not recognized (did you call them with the right prefix (check your instructions on how you are expected to call tools, usually: <tools>, <tool_calls>, etc - use the right prefix per your instructions)\n" +
	"- If you believe you provided a final report/answer, it was not detected either. Ensure the final report is correctly formatted as instructed.\n" +
	"Retry now: pay attention to the required syntax for tool calls and final report."

// TurnFailedEmpty is the user message sent when a turn has no text, no tool
// calls and no final report.
const TurnFailedEmpty = "TURN-FAILED: The response was empty: no tools called and no final report/answer provided.\n" +
	"Retry now: call a tool or provide the final report."

// Tool is a tool the loop can run.
type Tool interface {
	Descriptor() core.Tool
	// Run executes the tool. An error becomes a tool error result the model
	// sees; it never ends the loop.
	Run(ctx context.Context, args json.RawMessage) (string, error)
}

// Func adapts a descriptor and a function to Tool.
type Func struct {
	Desc core.Tool
	Fn   func(ctx context.Context, args json.RawMessage) (string, error)
}

// Descriptor returns f.Desc.
func (f Func) Descriptor() core.Tool { return f.Desc }

// Run calls f.Fn.
func (f Func) Run(ctx context.Context, args json.RawMessage) (string, error) { return f.Fn(ctx, args) }

// Defaults of Options.
const (
	DefaultMaxTurns            = 15
	DefaultMaxToolCallsPerTurn = 10
	DefaultMaxRetries          = 2
)

// Options configure a run of the loop.
type Options struct {
	LLM core.LLM
	// Site is the Tag.Site of every request (e.g. core.SiteSessionTurn).
	Site string
	// System is the system prompt.
	System string
	// Nonce is the final-report nonce; a report must use it.
	Nonce string
	// MaxTurns bounds the turns; zero means DefaultMaxTurns.
	MaxTurns int
	// MaxToolCallsPerTurn bounds the calls run per turn; zero means
	// DefaultMaxToolCallsPerTurn. Calls beyond it get an error result.
	MaxToolCallsPerTurn int
	// MaxRetries bounds the TURN-FAILED re-asks within one turn; zero means
	// DefaultMaxRetries, negative means none.
	MaxRetries int
	// MaxOutputTokens is passed on in every request.
	MaxOutputTokens int
	// Tools returns the tools offered on a turn; final is true on the last.
	Tools func(turn int, final bool) []Tool
	// AfterTool, when set, may replace a tool's result before the model sees
	// it (the session stores oversized outputs there). msgs is the
	// conversation so far, up to and including this turn's earlier results.
	AfterTool func(ctx context.Context, msgs []core.Message, call core.ToolCall, result string) string
	// Logf receives the loop's warnings.
	Logf func(format string, args ...any)
	// Sources supplies the ids of leaked calls.
	Sources core.Sources
}

// Result is how the loop ended.
type Result struct {
	// Report is the final report's content when Found.
	Report string
	Found  bool
	// Synthetic is true when the loop ran out of turns without a report.
	Synthetic bool
	// Turns is the number of turns taken.
	Turns    int
	Messages []core.Message
}

// Run runs the loop from the user message until a final report, the turn
// limit, or an LLM error (returned, wrapped with the turn).
func Run(ctx context.Context, opts Options, user string) (Result, error) {
	if opts.LLM == nil || opts.Site == "" {
		return Result{}, errors.New("agent: run: Options.LLM and Options.Site are required")
	}
	if err := finalreport.CheckNonce(opts.Nonce); err != nil {
		return Result{}, fmt.Errorf("agent: run: %w", err)
	}
	maxTurns := orDefault(opts.MaxTurns, DefaultMaxTurns)
	maxCalls := orDefault(opts.MaxToolCallsPerTurn, DefaultMaxToolCallsPerTurn)
	maxRetries := opts.MaxRetries
	if maxRetries == 0 {
		maxRetries = DefaultMaxRetries
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	msgs := []core.Message{{Role: core.RoleSystem, Content: opts.System}, {Role: core.RoleUser, Content: user}}
	res := Result{}
	for turn := 1; turn <= maxTurns; turn++ {
		res.Turns = turn
		final := turn == maxTurns
		byName, descs := toolsOf(opts, turn, final)
		for retry := 0; ; retry++ {
			req := core.Request{Tag: core.Tag{Site: opts.Site, Turn: turn}, Messages: clone(msgs), Tools: descs, MaxOutputTokens: opts.MaxOutputTokens}
			resp, err := opts.LLM.Complete(ctx, req)
			if err != nil {
				res.Messages = msgs
				return res, fmt.Errorf("agent: turn %d: %w", turn, err)
			}
			if rep, _ := finalreport.Parse(resp.Text, opts.Nonce); rep.Found {
				msgs = append(msgs, core.Message{Role: core.RoleAssistant, Content: resp.Text})
				res.Report, res.Found, res.Messages = rep.Content, true, msgs
				return res, nil
			}
			calls, content := resp.ToolCalls, resp.Text
			if len(calls) == 0 && strings.TrimSpace(content) != "" {
				calls, content = recoverLeaked(opts, turn, content, logf)
			}
			if len(calls) == 0 {
				msgs = append(msgs, core.Message{Role: core.RoleAssistant, Content: resp.Text})
				failed := TurnFailedNoToolsNoReport
				if strings.TrimSpace(content) == "" {
					failed = TurnFailedEmpty
				}
				logf("agent: turn %d: TURN-FAILED (retry %d of %d)", turn, retry+1, maxRetries)
				msgs = append(msgs, core.Message{Role: core.RoleUser, Content: failed})
				if retry+1 > maxRetries {
					break // the turn is spent
				}
				continue
			}
			msgs = append(msgs, core.Message{Role: core.RoleAssistant, Content: content, ToolCalls: calls})
			for i, c := range calls {
				out := runTool(ctx, byName, c, i >= maxCalls, maxCalls)
				if opts.AfterTool != nil {
					out = opts.AfterTool(ctx, msgs, c, out)
				}
				msgs = append(msgs, core.Message{Role: core.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: out})
			}
			break
		}
	}
	res.Synthetic, res.Messages = true, msgs
	logf("agent: no final report after %d turns", maxTurns)
	return res, nil
}

// toolsOf returns the tools offered on a turn, by name and as descriptors.
func toolsOf(opts Options, turn int, final bool) (map[string]Tool, []core.Tool) {
	var tools []Tool
	if opts.Tools != nil {
		tools = opts.Tools(turn, final)
	}
	byName := map[string]Tool{}
	var descs []core.Tool
	for _, t := range tools {
		d := t.Descriptor()
		byName[d.Name] = t
		descs = append(descs, d)
	}
	return byName, descs
}

// recoverLeaked is the single hook point of the leaked-call fallback: the
// calls leaked as text in content, and the content without them (content
// unchanged and no calls when nothing leaked).
func recoverLeaked(opts Options, turn int, content string, logf func(string, ...any)) ([]core.ToolCall, string) {
	lk := leaked.Extract(content, leaked.Options{Sources: opts.Sources})
	if len(lk.Patterns) == 0 {
		return nil, content
	}
	logf("agent: turn %d: leaked tool calls: %d extracted, patterns %v, repairs %d, dropped %d",
		turn, len(lk.Calls), lk.Patterns, len(lk.Repairs), len(lk.Dropped))
	for _, d := range lk.Dropped {
		logf("agent: turn %d: dropped %s block at byte %d: %s", turn, d.Pattern, d.Offset, d.Reason)
	}
	content = ""
	if lk.Content != nil {
		content = *lk.Content
	}
	var calls []core.ToolCall
	for _, c := range lk.Calls {
		calls = append(calls, core.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return calls, content
}

func runTool(ctx context.Context, byName map[string]Tool, c core.ToolCall, over bool, maxCalls int) string {
	if over {
		return fmt.Sprintf("Tool error: not run, more than %d tool calls in one turn.", maxCalls)
	}
	t, ok := byName[c.Name]
	if !ok {
		return fmt.Sprintf("Tool error: unknown tool %q.", c.Name)
	}
	args := c.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	out, err := t.Run(ctx, args)
	if err != nil {
		return "Tool error: " + err.Error()
	}
	return out
}

func clone(m []core.Message) []core.Message { return append([]core.Message(nil), m...) }

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}
