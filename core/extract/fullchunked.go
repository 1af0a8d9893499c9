package extract

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/core/store"
)

// EmptyAnswer is the full-chunked answer for an empty output: there is
// nothing to send to a model.
const EmptyAnswer = "NO RELEVANT DATA FOUND\nThe tool output is empty."

// fullChunked runs the map calls over the planned chunks, concurrently and
// bounded, then one reduce when there are several. It returns the final
// report's content, or why the strategy failed.
func (e *Extractor) fullChunked(ctx context.Context, m store.Meta, text, extract string, r Route) (string, error) {
	c := e.opts.Config
	if err := e.Planner().Check(r); err != nil {
		return "", err
	}
	chunks := r.Plan.Chunks
	n := len(chunks)
	switch {
	case n == 0:
		return EmptyAnswer, nil
	case e.opts.LLM == nil:
		return "", errors.New("no LLM is configured for extraction")
	}
	overlap := c.OverlapPercent
	if n == 1 {
		overlap = 0 // a lone chunk shares nothing
	}
	answers, err := e.mapAll(ctx, m, text, extract, chunks, overlap)
	if err != nil {
		return "", err
	}
	if n == 1 {
		return answers[0], nil
	}
	system := ReducePrompt{ToolName: m.Tool, ToolArgs: m.Args, Total: n, OverlapPercent: c.OverlapPercent,
		Extract: extract, Outputs: answers, Nonce: e.nonce}.Render()
	in := e.opts.Tokenizer.Count(system) + e.opts.Tokenizer.Count(ReduceUser)
	if room := c.ContextWindow - c.BufferTokens - c.MaxOutputTokens; in > room {
		return "", fmt.Errorf("reduce: the prompt with %d chunk outputs has %d tokens, over the %d the context window leaves", n, in, room)
	}
	return e.complete(ctx, core.Request{
		Tag:             core.Tag{Site: core.SiteExtractReduce},
		Messages:        []core.Message{{Role: core.RoleSystem, Content: system}, {Role: core.RoleUser, Content: ReduceUser}},
		MaxOutputTokens: c.MaxOutputTokens,
	})
}

// mapAll runs one map call per chunk, at most Concurrency at once, and
// returns their answers in chunk order. Every map call runs even when one
// fails: the outcome and the log then do not depend on which call finished
// first. Once ctx ends, no more start: the strategy has failed whatever they
// would answer.
func (e *Extractor) mapAll(ctx context.Context, m store.Meta, text, extract string, chunks []chunk.Chunk, overlap int) ([]string, error) {
	c := e.opts.Config
	n := len(chunks)
	answers := make([]string, n)
	errs := make([]error, n, n+1)
	sem := make(chan struct{}, c.Concurrency)
	acquire := func() bool {
		if ctx.Err() != nil {
			return false // checked first: a free slot must not win over an ended context
		}
		select {
		case sem <- struct{}{}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	var wg sync.WaitGroup
	started := 0
	for i, ch := range chunks {
		if !acquire() {
			break
		}
		started++
		tag := core.Tag{Site: core.SiteExtractMap, Chunk: i + 1, Chunks: n}
		wg.Go(func() {
			defer func() { <-sem }()
			defer e.recoverAs(&errs[i], tag)
			prompt := MapPrompt{ToolName: m.Tool, ToolArgs: m.Args, Bytes: m.Bytes, Lines: m.Lines, Tokens: m.Tokens,
				Index: i + 1, Total: n, OverlapPercent: overlap, Extract: extract, Nonce: e.nonce}
			req := core.Request{
				Tag:             tag,
				Messages:        []core.Message{{Role: core.RoleSystem, Content: prompt.Render()}, {Role: core.RoleUser, Content: text[ch.Start:ch.End]}},
				MaxOutputTokens: c.MaxOutputTokens,
			}
			answers[i], errs[i] = e.complete(ctx, req)
		})
	}
	wg.Wait()
	if started < n {
		errs = append(errs, fmt.Errorf("%s: %d of %d map calls not started: %w", core.SiteExtractMap, n-started, n, ctx.Err()))
	}
	return answers, errors.Join(errs...)
}

// recoverAs turns a panic in the goroutine of the call tagged tag (the LLM
// client, or anything it calls, failing) into *err, so that the extraction
// ends as a failed strategy and the session's normal cleanup runs: a panic
// left in a goroutine of its own would end the process, store directory and
// all. The stack goes to the log.
func (e *Extractor) recoverAs(err *error, tag core.Tag) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: panic: %v", tag, p)
		e.logf("tool_output: %s: panic: %v\n%s", tag, p, debug.Stack())
	}
}

// complete sends one map or reduce request and returns the content of the
// answer's final report. The closing tag is optional (spec decision 6); a
// missing wrapper is a failure.
func (e *Extractor) complete(ctx context.Context, req core.Request) (string, error) {
	what := req.Tag.String()
	resp, err := e.opts.LLM.Complete(ctx, req)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	rep, err := finalreport.Parse(resp.Text, e.nonce)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if !rep.Found {
		return "", fmt.Errorf("%s: the answer has no final-report wrapper for nonce %s", what, e.nonce)
	}
	return rep.Content, nil
}
