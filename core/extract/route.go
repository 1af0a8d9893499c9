package extract

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/store"
)

// Route is the routing decision for one extraction.
type Route struct {
	// Mode is the strategy to run: full-chunked, read-grep, truncate, or an
	// offered json-aware or head-tail.
	Mode string `json:"mode"`
	// Reason says why, with the numbers compared.
	Reason string `json:"reason"`
	// Budget is the chunk budget in tokens: context window − buffer − max
	// output tokens − PromptTokens. It can be zero or negative when the
	// prompt leaves no room.
	Budget int `json:"chunk_budget"`
	// PromptTokens counts the rendered map prompt of this extraction.
	PromptTokens int `json:"prompt_tokens"`
	// MinChunks is the fewest chunks the budget allows (0 without budget).
	MinChunks int `json:"min_chunks"`
	// LongLines reports an average line of at least LineThreshold bytes.
	LongLines bool `json:"long_lines"`
	// Plan is the chunk plan, when routing made one (always for
	// full-chunked).
	Plan *chunk.Plan `json:"-"`
	// PlanErr is why no plan could be made, if so.
	PlanErr error `json:"-"`
}

// Planner routes extractions and plans their chunks. It is the one place
// that decides between strategies (spec decision 3).
type Planner struct {
	// Config must be valid (Config.Validate): start from DefaultConfig.
	Config    Config
	Tokenizer core.Tokenizer
}

// budgetIndex fills the chunk index and total when the map prompt is counted
// for the budget: no real plan has a longer number, so the budget holds for
// every chunk.
const budgetIndex = 999_999

// Budget returns the chunk budget for extracting from m with these
// instructions and nonce, and the tokens of the map prompt it subtracts.
func (p Planner) Budget(m store.Meta, extract, nonce string) (budget, promptTokens int) {
	c := p.Config
	prompt := MapPrompt{ToolName: m.Tool, ToolArgs: m.Args, Bytes: m.Bytes, Lines: m.Lines, Tokens: m.Tokens,
		Index: budgetIndex, Total: budgetIndex, OverlapPercent: c.OverlapPercent, Extract: extract, Nonce: nonce}.Render()
	promptTokens = p.Tokenizer.Count(prompt)
	return c.ContextWindow - c.BufferTokens - c.MaxOutputTokens - promptTokens, promptTokens
}

// Plan chunks text for the budget and the configured overlap.
func (p Planner) Plan(text string, budget int) (chunk.Plan, error) {
	c := p.Config
	return chunk.Make(text, p.Tokenizer, budget, float64(c.OverlapPercent)/100)
}

// Route decides the strategy for extracting from the stored output m (text
// is its content). An explicit mode (full-chunked, read-grep, truncate,
// json-aware, head-tail) always wins; the caller has turned a mode its
// schema does not offer into auto ([Config.Offers]). Auto never picks
// json-aware or head-tail: decision 3 chooses between full-chunked and
// read-grep, and they are cuts like truncate, which only the model or a
// failure asks for. Auto, as in spec decision 3:
//
//  1. average line bytes >= LineThreshold (bytes >= threshold × lines,
//     exactly) → full-chunked, whatever the chunk count (up to
//     MaxChunksLong): grep cannot narrow down long lines;
//  2. else the planned chunk count <= MaxChunks → full-chunked;
//  3. else read-grep.
//
// A full-chunked route always carries the plan (or PlanErr). Rule 2 plans
// only when the minimum chunk count, computed from the token count alone,
// does not already exceed MaxChunks.
func (p Planner) Route(m store.Meta, text, extract, nonce, mode string) Route {
	c := p.Config
	r := Route{}
	r.Budget, r.PromptTokens = p.Budget(m, extract, nonce)
	overlap := float64(c.OverlapPercent) / 100
	if r.Budget > 0 {
		r.MinChunks = chunk.MinChunks(m.Tokens, r.Budget, overlap)
	}
	plan := func() {
		if r.Budget <= 0 {
			r.PlanErr = fmt.Errorf("the map prompt (%d tokens) leaves no room for a chunk: budget %d = context window %d − buffer %d − max output %d − prompt %d",
				r.PromptTokens, r.Budget, c.ContextWindow, c.BufferTokens, c.MaxOutputTokens, r.PromptTokens)
			return
		}
		pl, err := p.Plan(text, r.Budget)
		if err != nil {
			r.PlanErr = err
			return
		}
		r.Plan = &pl
	}
	r.LongLines = m.Lines > 0 && m.Bytes >= c.LineThreshold*m.Lines
	switch mode {
	case ModeFullChunked, ModeReadGrep, ModeTruncate, ModeJSONAware, ModeHeadTail, ModeQuery:
		r.Mode, r.Reason = mode, "requested"
		if mode == ModeFullChunked {
			plan()
		}
		return r
	}
	if r.LongLines {
		r.Mode = ModeFullChunked
		r.Reason = fmt.Sprintf("long lines: average line %s bytes (%d bytes / %s) >= threshold %d",
			average(m.Bytes, m.Lines), m.Bytes, plural(m.Lines, "line"), c.LineThreshold)
		plan()
		return r
	}
	r.Mode = ModeReadGrep
	switch {
	case r.Budget <= 0:
		plan()
		r.Reason = "no chunk fits: " + r.PlanErr.Error()
		return r
	case r.MinChunks > c.MaxChunks:
		r.Reason = fmt.Sprintf("too large for full-chunked: %d tokens need at least %d chunks of at most %d tokens, over max chunks %d",
			m.Tokens, r.MinChunks, r.Budget, c.MaxChunks)
		return r
	}
	plan()
	switch {
	case r.PlanErr != nil:
		r.Reason = "no chunk plan: " + r.PlanErr.Error()
	case len(r.Plan.Chunks) > c.MaxChunks:
		r.Reason = fmt.Sprintf("too large for full-chunked: %d tokens need %d chunks of at most %d tokens, over max chunks %d",
			m.Tokens, len(r.Plan.Chunks), r.Budget, c.MaxChunks)
	default:
		r.Mode = ModeFullChunked
		r.Reason = fmt.Sprintf("fits: %d tokens in %s of at most %d tokens, within max chunks %d",
			m.Tokens, plural(len(r.Plan.Chunks), "chunk"), r.Budget, c.MaxChunks)
	}
	return r
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// average formats bytes/lines with one decimal, rounded down so that it
// never shows a value at the threshold that is below it.
func average(bytes, lines int) string {
	tenths := bytes * 10 / lines
	return strconv.Itoa(tenths/10) + "." + strconv.Itoa(tenths%10)
}

// Check reports why full-chunked cannot run on route r: no plan (the map
// prompt leaves no budget, or a piece is over it), or more chunks than
// allowed: MaxChunks for short-line output, MaxChunksLong for long-line
// output. It is nil when full-chunked can run.
func (p Planner) Check(r Route) error {
	c := p.Config
	limit, what := c.MaxChunks, "max chunks"
	if r.LongLines {
		limit, what = c.MaxChunksLong, "max chunks for long lines"
	}
	switch {
	case r.PlanErr != nil:
		return r.PlanErr
	case r.Plan == nil:
		return errors.New("no chunk plan was made")
	case len(r.Plan.Chunks) > limit:
		return fmt.Errorf("the output needs %d chunks of at most %d tokens, over %s %d", len(r.Plan.Chunks), r.Budget, what, limit)
	}
	return nil
}
