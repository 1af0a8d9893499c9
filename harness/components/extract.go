package components

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/harness"
)

// extract component: stores one output and answers one tool_output call on
// it (core/extract) with the scripted LLM.
//
//	component: extract
//	config: {context_window: 6000, max_output_tokens: 512, max_chunks: 4, max_chunks_long: 64, overlap_percent: 10,
//	         buffer_tokens: 256, line_threshold: 1000, concurrency: 4, read_grep_turns: 15,
//	         read_grep_calls_per_turn: 10, truncate_bytes: 512, encoding: cl100k_base,
//	         head_percent: 20, offer_modes: [json-aware, head-tail], truncate_with: bytes|head-tail|json-aware}
//	input:
//	  tool: {name: logs__query, args: {since: 1h}}
//	  extract: Count ERROR lines per host
//	  mode: full-chunked            # optional; auto by default
//	  output: <Text>
//	  handle: other                  # optional: call with this handle instead
//	  symlinks: {escape: ../../etc}  # optional: links made in the session directory ($TMP: the scratch dir)
//	expect: {route: full-chunked, reason: "…", strategy: truncate, fallback: "full-chunked failed", strategy_error: "…", chunks: 3,
//	         truncated_with: head-tail, mode_enum: [auto, full-chunked, read-grep, truncate, head-tail],
//	         result: {contains: ["…"], equals: "…"}}
//
// extractConfig is the extract component's config: extract.Config's fields,
// flat and named by its yaml tags, over extract.DefaultConfig().
type extractConfig struct {
	extract.Config `yaml:",inline"`
	TruncateBytes  int    `yaml:"truncate_bytes"`
	Encoding       string `yaml:"encoding"`
}

func (c extractConfig) Validate() error {
	if err := checkEncoding(c.Encoding); err != nil {
		return err
	}
	return c.Config.Validate()
}

type extractTool struct {
	Name string         `yaml:"name"`
	Args map[string]any `yaml:"args"`
}

type extractInput struct {
	Tool    extractTool `yaml:"tool"`
	Extract string      `yaml:"extract"`
	Mode    string      `yaml:"mode"`
	// Query is the jq expression of mode query.
	Query  string       `yaml:"query"`
	Output harness.Text `yaml:"output"`
	Handle string       `yaml:"handle"`
	// Symlinks are created in the session directory before the call
	// (name: target), to show that Read and Grep never follow one out.
	Symlinks map[string]string `yaml:"symlinks"`
}

func (in extractInput) Validate() error {
	if in.Tool.Name == "" {
		return errors.New("tool.name is required")
	}
	return nil
}

type extractResultExpect struct {
	Contains    []string `yaml:"contains"`
	NotContains []string `yaml:"not_contains"`
	Equals      *string  `yaml:"equals"`
}

type extractExpect struct {
	Route         *string             `yaml:"route"`
	Reason        *string             `yaml:"reason"` // substring of the routing reason
	Strategy      *string             `yaml:"strategy"`
	Fallback      *string             `yaml:"fallback"`
	StrategyError *string             `yaml:"strategy_error"` // substring of why the routed strategy failed
	Chunks        *int                `yaml:"chunks"`
	IsError       *bool               `yaml:"is_error"`
	TruncatedWith *string             `yaml:"truncated_with"` // how truncate cut (bytes, head-tail, json-aware)
	ModeEnum      []string            `yaml:"mode_enum"`      // the mode enum of the offered schema
	Result        extractResultExpect `yaml:"result"`
}

type extractRoute struct {
	Mode         string        `json:"mode"`
	Reason       string        `json:"reason"`
	ChunkBudget  int           `json:"chunk_budget"`
	PromptTokens int           `json:"prompt_tokens"`
	MinChunks    int           `json:"min_chunks"`
	LongLines    bool          `json:"long_lines"`
	Chunks       []chunk.Chunk `json:"chunks"`
	PlanError    string        `json:"plan_error,omitempty"`
}

type extractOutcome struct {
	Stats     store.Stats   `json:"stats"`
	Requested string        `json:"requested"`
	Route     *extractRoute `json:"route"`
	Strategy  string        `json:"strategy"`
	Fallback  string        `json:"fallback,omitempty"`
	Failure   string        `json:"failure,omitempty"`
	IsError   bool          `json:"is_error"`
	// Cut is how truncate cut, shown when config.truncate_with is not
	// bytes (so the goldens of the default stay as they were).
	Cut    string `json:"truncated_with,omitempty"`
	Result string `json:"-"`
	// Tool is the tool_output descriptor offered, shown when
	// config.offer_modes offers more than the spec's schema.
	Tool *core.Tool `json:"-"`
}

func registerExtract(reg *harness.Registry) {
	harness.Register(reg, harness.Spec[extractConfig, extractInput, extractExpect, extractOutcome]{
		Name:     "extract",
		Doc:      "stores input.output and answers one tool_output call on it (core/extract) with the scripted LLM",
		LLM:      true,
		Defaults: func(c *extractConfig) { c.Config, c.Encoding = extract.DefaultConfig(), tokens.CL100K },
		Run:      runExtract,
		Render:   renderExtract,
		Check:    checkExtract,
	})
}

func runExtract(ctx context.Context, env *harness.Env, cfg *extractConfig, in *extractInput) (extractOutcome, error) {
	tk := tokenizerFor(cfg.Encoding)
	st, err := store.New(store.Options{Base: env.TempDir, Sources: env.Sources})
	if err != nil {
		return extractOutcome{}, err
	}
	defer st.Close()
	args := []byte("{}")
	if in.Tool.Args != nil {
		if args, err = json.Marshal(in.Tool.Args); err != nil {
			return extractOutcome{}, fmt.Errorf("input.tool.args: %w", err)
		}
	}
	m, err := st.Put(in.Tool.Name, string(args), in.Output.Value, store.Measure(in.Output.Value, tk))
	if err != nil {
		return extractOutcome{}, err
	}
	for _, name := range slices.Sorted(maps.Keys(in.Symlinks)) {
		target := strings.ReplaceAll(in.Symlinks[name], "$TMP", env.TempDir)
		if err := os.Symlink(target, filepath.Join(st.Dir(), name)); err != nil {
			return extractOutcome{}, fmt.Errorf("input.symlinks: %w", err)
		}
	}
	ex, err := extract.New(extract.Options{Store: st, LLM: env.Model(), Tokenizer: tk, Sources: env.Sources,
		Config: cfg.Config, TruncateBytes: cfg.TruncateBytes, Logf: env.Logf})
	if err != nil {
		return extractOutcome{}, err
	}
	handle := m.Handle
	if in.Handle != "" {
		handle = in.Handle
	}
	call := map[string]string{"handle": handle, "extract": in.Extract}
	if in.Mode != "" {
		call["mode"] = in.Mode
	}
	if in.Query != "" {
		call["query"] = in.Query
	}
	callJSON, _ := json.Marshal(call)
	o := ex.Extract(ctx, callJSON)
	out := extractOutcome{Stats: m.Stats, Requested: o.Requested, Strategy: o.Strategy, Fallback: o.Fallback,
		Failure: o.Failure, IsError: o.IsError, Result: o.Text}
	if cfg.TruncateWith != extract.CutBytes {
		out.Cut = o.Cut
	}
	if len(cfg.OfferModes) > 0 {
		t := ex.Tool()
		out.Tool = &t
	}
	if r := o.Route; r != nil {
		out.Route = &extractRoute{Mode: r.Mode, Reason: r.Reason, ChunkBudget: r.Budget, PromptTokens: r.PromptTokens,
			MinChunks: r.MinChunks, LongLines: r.LongLines, Chunks: []chunk.Chunk{}}
		if r.Plan != nil {
			out.Route.Chunks = append(out.Route.Chunks, r.Plan.Chunks...)
		}
		if r.PlanErr != nil {
			out.Route.PlanError = r.PlanErr.Error()
		}
	}
	return out, nil
}

// renderExtract shows the outcome and the result, and the offered tool
// first when it is not the spec's.
func renderExtract(o extractOutcome) ([]harness.Section, error) {
	var out []harness.Section
	if o.Tool != nil {
		ts, err := harness.JSONSection("tool.json", o.Tool)
		if err != nil {
			return nil, err
		}
		out = append(out, ts)
	}
	js, err := harness.JSONSection("outcome.json", o)
	return append(out, js, harness.Section{Name: "result", Body: o.Result}), err
}

func checkExtract(exp *extractExpect, got extractOutcome) []harness.Mismatch {
	var out []harness.Mismatch
	route, reason, chunks := "", "", 0
	if got.Route != nil {
		route, reason, chunks = got.Route.Mode, got.Route.Reason, len(got.Route.Chunks)
	}
	out = append(out, want("route", exp.Route, route)...)
	if exp.Reason != nil && !strings.Contains(reason, *exp.Reason) {
		out = append(out, harness.Mismatch{Field: "reason", Msg: fmt.Sprintf("got %s, want it to contain %q", harness.Show(reason), *exp.Reason)})
	}
	out = append(out, want("strategy", exp.Strategy, got.Strategy)...)
	out = append(out, want("fallback", exp.Fallback, got.Fallback)...)
	if exp.StrategyError != nil && !strings.Contains(got.Failure, *exp.StrategyError) {
		out = append(out, harness.Mismatch{Field: "strategy_error", Msg: fmt.Sprintf("got %s, want it to contain %q", harness.Show(got.Failure), *exp.StrategyError)})
	}
	out = append(out, want("chunks", exp.Chunks, chunks)...)
	out = append(out, want("is_error", exp.IsError, got.IsError)...)
	out = append(out, want("truncated_with", exp.TruncatedWith, got.Cut)...)
	if exp.ModeEnum != nil {
		if enum := modeEnum(got); !slices.Equal(enum, exp.ModeEnum) {
			out = append(out, harness.Mismatch{Field: "mode_enum", Msg: fmt.Sprintf("got %q, want %q", enum, exp.ModeEnum)})
		}
	}
	out = append(out, want("result.equals", exp.Result.Equals, got.Result)...)
	for _, sub := range exp.Result.Contains {
		if !strings.Contains(got.Result, sub) {
			out = append(out, harness.Mismatch{Field: "result.contains", Msg: fmt.Sprintf("the result does not contain %q; it is %s", sub, harness.Show(got.Result))})
		}
	}
	for _, sub := range exp.Result.NotContains {
		if strings.Contains(got.Result, sub) {
			out = append(out, harness.Mismatch{Field: "result.not_contains", Msg: fmt.Sprintf("the result contains %q %s", sub, harness.ShowIndex(got.Result, sub))})
		}
	}
	return out
}

// modeEnum is the mode enum of the offered schema: the spec's when the
// outcome shows no tool of its own.
func modeEnum(o extractOutcome) []string {
	t := extract.Tool()
	if o.Tool != nil {
		t = *o.Tool
	}
	var schema struct {
		Properties struct {
			Mode struct {
				Enum []string `json:"enum"`
			} `json:"mode"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
		return nil
	}
	return schema.Properties.Mode.Enum
}
