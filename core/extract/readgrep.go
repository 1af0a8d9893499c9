package extract

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/agent"
	"github.com/toolout/toolout/core/fstools"
	"github.com/toolout/toolout/core/store"
)

// readGrep runs the read-grep sub-agent on the stored output m: the agent
// loop with only Read and Grep, rooted at the session's store directory, told
// that the handle is the filename. It returns the sub-agent's final report,
// or why the strategy failed: an LLM error, or no report within the turns
// (a synthetic result).
func (e *Extractor) readGrep(ctx context.Context, m store.Meta, extract string) (string, error) {
	c := e.opts.Config
	if e.opts.LLM == nil {
		return "", errors.New("no LLM is configured for extraction")
	}
	dir := e.opts.Store.Dir()
	fsys, err := fstools.Open(dir)
	if err != nil {
		return "", err
	}
	defer fsys.Close()
	tools := []agent.Tool{
		agent.Func{Desc: fstools.ReadTool(), Fn: fsys.RunRead},
		agent.Func{Desc: fstools.GrepTool(), Fn: fsys.RunGrep},
	}
	system := ReadGrepPrompt{ToolName: m.Tool, ToolArgs: m.Args, Handle: m.Handle, RootDir: dir,
		Bytes: m.Bytes, Lines: m.Lines, Tokens: m.Tokens, Extract: extract, Nonce: e.nonce}.Render()
	res, err := agent.Run(ctx, agent.Options{
		LLM: e.opts.LLM, Site: core.SiteExtractReadGrep, System: system, Nonce: e.nonce, Sources: e.opts.Sources,
		MaxTurns: c.ReadGrepTurns, MaxToolCallsPerTurn: c.ReadGrepCallsPerTurn, MaxOutputTokens: c.MaxOutputTokens,
		Logf:  func(format string, args ...any) { e.logf("read-grep: "+format, args...) },
		Tools: func(int, bool) []agent.Tool { return tools },
	}, fmt.Sprintf(ReadGrepUser, m.Handle))
	if err != nil {
		return "", fmt.Errorf("sub-agent: %w", err)
	}
	if res.Synthetic || !res.Found {
		return "", fmt.Errorf("the sub-agent gave no final report in %d turns", res.Turns)
	}
	return res.Report, nil
}
