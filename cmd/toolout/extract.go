package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/store"
)

// planNonce stands for the session nonce when counting the map prompt: a
// production nonce has 16 hex digits.
const planNonce = "0123456789abcdef"

// extractGroup is `toolout extract plan` and `toolout extract cut`.
func extractGroup() group {
	return group{name: "extract", subs: []command{extractPlanLeaf().sub(), extractCutLeaf().sub()}}
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
// table) to a flag over extract.DefaultConfig(), and its two choices:
// --offer-modes (a comma-separated list) and --truncate-with.
func extractConfigFlags(fs *flag.FlagSet) *extract.Config {
	cfg := extract.DefaultConfig()
	for _, k := range extract.Knobs() {
		p := k.Field(&cfg)
		fs.IntVar(p, knobFlag(k), *p, k.Doc+" ("+k.Range()+")")
		if short, ok := shortKnobFlags[k.Name]; ok {
			fs.IntVar(p, short, *p, "same as --"+knobFlag(k))
		}
	}
	fs.Func("offer-modes", "extra modes offered beyond the spec's schema, comma-separated: json-aware, head-tail (none by default)",
		func(v string) error {
			cfg.OfferModes = nil
			for m := range strings.SplitSeq(v, ",") {
				if m = strings.TrimSpace(m); m != "" {
					cfg.OfferModes = append(cfg.OfferModes, m)
				}
			}
			return nil
		})
	fs.StringVar(&cfg.TruncateWith, "truncate-with", cfg.TruncateWith, "how truncate cuts: bytes, head-tail or json-aware")
	return &cfg
}

// checkExtractConfig is extract.Config.Validate naming the flag.
func checkExtractConfig(cfg *extract.Config) error {
	var ke *extract.KnobError
	var ce *extract.ChoiceError
	err := cfg.Validate()
	switch {
	case errors.As(err, &ke):
		return fmt.Errorf("--%s %d: %s", knobFlag(ke.Knob), ke.Value, ke.Knob.Range())
	case errors.As(err, &ce):
		return fmt.Errorf("--%s %q: %s", strings.ReplaceAll(ce.Name, "_", "-"), ce.Value, ce.Problem())
	}
	return err
}

// checkMode refuses a mode the schema offered under cfg does not list: the
// CLI says so where tool_output would quietly use auto.
func checkMode(cfg *extract.Config, mode string) error {
	switch {
	case cfg.Offers(mode):
		return nil
	case slices.Contains(extract.ExtraModes, mode):
		return fmt.Errorf("--mode %s: not offered; add --offer-modes %s", mode, mode)
	}
	return fmt.Errorf("--mode %q: want auto, full-chunked, read-grep or truncate (json-aware, head-tail or query with --offer-modes)", mode)
}

// extractPlanLeaf prints how tool_output would route an extraction from
// FILE or stdin, and its chunk plan, without calling any LLM.
func extractPlanLeaf() leaf {
	return leaf{name: "extract plan", summary: "route an extraction and plan its chunks without calling a model",
		synopsis: "[FILE] --extract TEXT [--tool NAME --args JSON --mode auto|full-chunked|read-grep|truncate|json-aware|head-tail] " +
			"[--context-window N --max-output N --buffer N --max-chunks N --max-chunks-long N --line-threshold N --overlap P] " +
			"[--offer-modes json-aware,head-tail --truncate-with bytes|head-tail|json-aware --head-percent P] " +
			"[--encoding cl100k_base|o200k_base|o200k_harmony] [--max-input BYTES]", input: true,
		setup: extractPlanFlags}
}

// extractPlanFlags binds extract plan's flags: its own, and one per
// extract.Config knob.
func extractPlanFlags(fs *flag.FlagSet) leafFunc {
	what := fs.String("extract", "", "the extract instructions (required): they are part of the map prompt, so of the budget")
	tool := fs.String("tool", "tool", "the source tool's name, as in the map prompt")
	toolArgs := fs.String("args", "{}", "the source tool's arguments, verbatim JSON")
	mode := fs.String("mode", extract.ModeAuto, "the requested mode")
	cfg := extractConfigFlags(fs)
	enc := encodingFlag(fs)
	return func(_ context.Context, c *call) (any, error) {
		switch {
		case *what == "":
			return nil, errors.New("--extract is required (the extract instructions)")
		case !json.Valid([]byte(*toolArgs)):
			return nil, fmt.Errorf("--args: not valid JSON: %s", *toolArgs)
		}
		if err := checkExtractConfig(cfg); err != nil {
			return nil, err
		}
		if err := checkMode(cfg, *mode); err != nil {
			return nil, err
		}
		tk, name, text, err := c.tokenizedText(enc)
		if err != nil {
			return nil, err
		}
		m := store.Meta{Handle: name, Tool: *tool, Args: *toolArgs, Stats: store.Measure(text, tk)}
		return planOf(extract.Planner{Config: *cfg, Tokenizer: tk}, m, text, *what, *mode), nil
	}
}

// planOf routes the extraction and shows its plan, even where routing did
// not need one.
func planOf(p extract.Planner, m store.Meta, text, what, mode string) extractPlan {
	r := p.Route(m, text, what, planNonce, mode)
	out := extractPlan{Stats: m.Stats, Mode: r.Mode, Reason: r.Reason, ChunkBudget: r.Budget, PromptTokens: r.PromptTokens,
		MaxChunks: p.Config.MaxChunks, MaxChunksLong: p.Config.MaxChunksLong, OverlapPercent: p.Config.OverlapPercent, Chunks: []chunk.Chunk{}}
	if r.Plan == nil && r.PlanErr == nil && r.Budget > 0 {
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
	return out
}
