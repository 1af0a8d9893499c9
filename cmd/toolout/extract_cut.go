package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// cutModes are the modes `toolout extract cut` runs: those that call no
// model.
var cutModes = []string{extract.ModeTruncate, extract.ModeHeadTail, extract.ModeJSONAware}

// cutHandle names the output in the answer's header.
const cutHandle = "00000000-0000-4000-8000-000000000000"

// extractCutLeaf prints tool_output's answer in a mode that calls no model
// (truncate, head-tail, json-aware) on FILE or stdin, byte for byte what the
// model would see.
func extractCutLeaf() leaf {
	return leaf{name: "extract cut", summary: "answer tool_output in a mode that calls no model (truncate, head-tail, json-aware)",
		synopsis: "[FILE] --mode truncate|head-tail|json-aware [--tool NAME] [--truncate-bytes N] " +
			"[--truncate-with bytes|head-tail|json-aware] [--head-percent P] [--max-input BYTES]", input: true,
		setup: extractCutFlags}
}

// extractCutFlags binds extract cut's flags: its own, and extract.Config's.
func extractCutFlags(fs *flag.FlagSet) leafFunc {
	mode := fs.String("mode", extract.ModeTruncate, "the mode: truncate, head-tail or json-aware")
	tool := fs.String("tool", "tool", "the source tool's name, as in the answer's header")
	budget := fs.Int("truncate-bytes", extract.DefaultTruncateBytes, "the budget of truncate, head-tail and json-aware, in bytes")
	cfg := extractConfigFlags(fs)
	return func(ctx context.Context, c *call) (any, error) {
		if !slices.Contains(cutModes, *mode) {
			return nil, fmt.Errorf("--mode %q: want truncate, head-tail or json-aware (the modes that call no model)", *mode)
		}
		if *budget <= 0 {
			return nil, fmt.Errorf("--truncate-bytes %d: must be positive", *budget)
		}
		if err := checkExtractConfig(cfg); err != nil {
			return nil, err
		}
		_, text, err := c.text()
		if err != nil {
			return nil, err
		}
		x := *cfg
		if *mode != extract.ModeTruncate && !x.Offers(*mode) {
			x.OfferModes = append(x.OfferModes, *mode)
		}
		return cutText(ctx, x, *tool, *budget, *mode, text)
	}
}

// cutText answers one tool_output call in mode on text, through a store in
// a scratch directory that it removes.
func cutText(ctx context.Context, cfg extract.Config, tool string, budget int, mode, text string) (any, error) {
	base, err := os.MkdirTemp("", "toolout-cut-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(base)
	src := core.Sources{NewID: func() string { return cutHandle }}
	st, err := store.New(store.Options{Base: base, SessionID: "cut", Sources: src})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	tk := tokens.Estimator{}
	m, err := st.Put(tool, "{}", text, store.Measure(text, tk))
	if err != nil {
		return nil, err
	}
	ex, err := extract.New(extract.Options{Store: st, Tokenizer: tk, Nonce: planNonce, Config: cfg, TruncateBytes: budget,
		LLM: noLLM{}})
	if err != nil {
		return nil, err
	}
	args, _ := json.Marshal(map[string]string{"handle": m.Handle, "extract": "(toolout extract cut)", "mode": mode})
	answer, _ := ex.Run(ctx, args)
	return plainText(answer), nil
}

// noLLM fails any call: the modes of extract cut never make one.
type noLLM struct{}

func (noLLM) Complete(context.Context, core.Request) (core.Response, error) {
	return core.Response{}, errors.New("toolout extract cut calls no model")
}
