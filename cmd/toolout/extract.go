package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// planNonce stands for the session nonce when counting the map prompt: a
// production nonce has 16 hex digits.
const planNonce = "0123456789abcdef"

// runExtract dispatches `toolout extract SUBCOMMAND`.
func runExtract(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "plan" {
		return runExtractPlan(ctx, args[1:], stdin, stdout, stderr)
	}
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintln(stderr, "Usage: toolout extract plan [FILE] --extract TEXT [flags]   (run 'toolout extract plan -h' for the flags)")
		return exitOK
	}
	fmt.Fprintln(stderr, "toolout extract: want a subcommand: plan")
	return exitUsage
}

// extractPlan is the output of `toolout extract plan`.
type extractPlan struct {
	Stats          store.Stats   `json:"stats"`
	Mode           string        `json:"mode"`
	Reason         string        `json:"reason"`
	ChunkBudget    int           `json:"chunk_budget"`
	PromptTokens   int           `json:"prompt_tokens"`
	MaxChunks      int           `json:"max_chunks"`
	MaxChunksLong  int           `json:"max_chunks_long"`
	OverlapPercent int           `json:"overlap_percent"`
	Chunks         []chunk.Chunk `json:"chunks"`
	// Fails says why full-chunked would fail and fall back to truncate.
	Fails string `json:"fails,omitempty"`
}

// shortKnobFlags are the shorter names the CLI took for three knobs before
// every knob had a flag; each still works beside the full one.
var shortKnobFlags = map[string]string{"max_output_tokens": "max-output", "buffer_tokens": "buffer", "overlap_percent": "overlap"}

// knobFlag is the flag of an extract.Config knob: its yaml name with dashes.
func knobFlag(k extract.Knob) string { return strings.ReplaceAll(k.Name, "_", "-") }

// extractConfigFlags binds every extract.Config knob (extract.Knobs, the one
// table) to a flag over extract.DefaultConfig().
func extractConfigFlags(fs *flag.FlagSet) *extract.Config {
	cfg := extract.DefaultConfig()
	for _, k := range extract.Knobs() {
		p := k.Field(&cfg)
		fs.IntVar(p, knobFlag(k), *p, k.Doc+" ("+k.Range()+")")
		if short, ok := shortKnobFlags[k.Name]; ok {
			fs.IntVar(p, short, *p, "same as --"+knobFlag(k))
		}
	}
	return &cfg
}

// checkExtractConfig is extract.Config.Validate naming the flag.
func checkExtractConfig(cfg *extract.Config) error {
	var ke *extract.KnobError
	if err := cfg.Validate(); errors.As(err, &ke) {
		return fmt.Errorf("--%s %d: %s", knobFlag(ke.Knob), ke.Value, ke.Knob.Range())
	} else if err != nil {
		return err
	}
	return nil
}

// runExtractPlan prints how tool_output would route an extraction from FILE
// or stdin, and its chunk plan, without calling any LLM.
func runExtractPlan(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("extract plan", "[FILE] --extract TEXT [--tool NAME --args JSON --mode auto|full-chunked|read-grep|truncate] "+
		"[--context-window N --max-output N --buffer N --max-chunks N --max-chunks-long N --line-threshold N --overlap P] [--encoding cl100k_base|o200k_base] [--max-input BYTES]", stderr)
	what := fs.String("extract", "", "the extract instructions (required): they are part of the map prompt, so of the budget")
	tool := fs.String("tool", "tool", "the source tool's name, as in the map prompt")
	toolArgs := fs.String("args", "{}", "the source tool's arguments, verbatim JSON")
	mode := fs.String("mode", extract.ModeAuto, "the requested mode")
	cfg := extractConfigFlags(fs.FlagSet)
	enc := fs.String("encoding", tokens.Default, "tiktoken encoding")
	maxInput := maxInputFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "toolout extract plan: "+format+"\n", a...)
		return exitUsage
	}
	if *what == "" {
		return fail("--extract is required (the extract instructions)")
	}
	if !slices.Contains([]string{extract.ModeAuto, extract.ModeFullChunked, extract.ModeReadGrep, extract.ModeTruncate}, *mode) {
		return fail("--mode %q: want auto, full-chunked, read-grep or truncate", *mode)
	}
	if !json.Valid([]byte(*toolArgs)) {
		return fail("--args: not valid JSON: %s", *toolArgs)
	}
	if err := checkExtractConfig(cfg); err != nil {
		return fail("%v", err)
	}
	tk, err := tokens.New(*enc)
	if err != nil {
		return fail("--encoding: %v", err)
	}
	name, text, err := readText(pos, stdin, *maxInput)
	if err != nil {
		return fail("%v", err)
	}
	m := store.Meta{Handle: name, Tool: *tool, Args: *toolArgs, Stats: store.Measure(text, tk)}
	p := extract.Planner{Config: *cfg, Tokenizer: tk}
	r := p.Route(m, text, *what, planNonce, *mode)
	out := extractPlan{Stats: m.Stats, Mode: r.Mode, Reason: r.Reason, ChunkBudget: r.Budget, PromptTokens: r.PromptTokens,
		MaxChunks: cfg.MaxChunks, MaxChunksLong: cfg.MaxChunksLong, OverlapPercent: cfg.OverlapPercent, Chunks: []chunk.Chunk{}}
	if r.Plan == nil && r.PlanErr == nil && r.Budget > 0 {
		// Routing did not need the plan; show it anyway.
		if pl, err := p.Plan(text, r.Budget); err == nil {
			r.Plan = &pl
		}
	}
	if r.Plan != nil {
		out.Chunks = append(out.Chunks, r.Plan.Chunks...)
	}
	if r.Mode == extract.ModeFullChunked {
		if err := p.Check(r); err != nil {
			out.Fails = fmt.Sprintf("full-chunked would fail and fall back to truncate: %v", err)
		}
	}
	return writeJSON(stdout, stderr, out)
}
