package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/core/fstools"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// Strategy names, in report order: the three cutters whose cut lands in
// the main context (truncate, head-tail, json-aware), the four other
// strategies, then "auto", the tool_output routing between full-chunked
// and read-grep (which is what max_chunks and line_threshold change).
var Strategies = []string{"truncate", "head-tail", "json-aware", "query", "in-tool-pagination", "full-chunked", "read-grep", "compress-expand", "auto"}

// Knobs are the settings a comparison runs with; --set sweeps them by name.
type Knobs struct {
	// ByteCap is what truncate keeps (head and tail) and what the store
	// treats as oversized.
	ByteCap int `json:"byte_cap"`
	// SimpleWords is what compress keeps.
	SimpleWords int `json:"simple_words"`
	// Extract are tool_output's knobs, swept by their extract.Config names
	// (overlap_percent, max_chunks, ...). The auto strategy runs with them as
	// they are; full-chunked and read-grep, run explicitly, are not capped in
	// chunks (max_chunks and max_chunks_long are auto's routing).
	Extract extract.Config `json:"extract"`
}

// DefaultKnobs are the defaults of the comparison: extract.DefaultConfig()
// with a 32k window and 1,024 output tokens, a 12 KiB cap, 200 words.
func DefaultKnobs() Knobs {
	x := extract.DefaultConfig()
	x.ContextWindow, x.MaxOutputTokens = 32_000, 1024
	return Knobs{ByteCap: 12 << 10, SimpleWords: 200, Extract: x}
}

// own lists the knobs of the comparison itself, beside extract.Knobs().
func (k *Knobs) own() map[string]*int {
	return map[string]*int{"byte_cap": &k.ByteCap, "simple_words": &k.SimpleWords}
}

// KnobNames lists the knobs --set accepts: byte_cap, simple_words and every
// extract.Config knob.
func KnobNames() []string {
	names := []string{"byte_cap", "simple_words"}
	for _, x := range extract.Knobs() {
		names = append(names, x.Name)
	}
	return names
}

// Set changes one knob by name, and checks the extraction knobs' ranges.
func (k *Knobs) Set(name string, v int) error {
	if p, ok := k.own()[name]; ok {
		if v <= 0 {
			return fmt.Errorf("%s %d: must be positive", name, v)
		}
		*p = v
		return nil
	}
	for _, x := range extract.Knobs() {
		if x.Name == name {
			*x.Field(&k.Extract) = v
			return k.Extract.Validate()
		}
	}
	return fmt.Errorf("unknown knob %q (known: %s)", name, strings.Join(KnobNames(), ", "))
}

// Row is one strategy on one case.
type Row struct {
	Knobs    string `json:"knobs"`
	Case     string `json:"case"`
	Bytes    int    `json:"bytes"`
	Strategy string `json:"strategy"`
	// MainTokens are the tokens the strategy puts into the main model's
	// context.
	MainTokens int `json:"main_tokens"`
	// TotalTokens are input plus output tokens over every LLM call.
	TotalTokens int `json:"total_tokens"`
	Calls       int `json:"llm_calls"`
	// Recall is the share of the case's facts in the answer.
	Recall float64 `json:"recall"`
	Found  int     `json:"found"`
	Facts  int     `json:"facts"`
	// Millis is the strategy's own time; it varies between runs.
	Millis float64 `json:"ms"`
	Note   string  `json:"note,omitempty"`
}

// PromptBase is the store base that token counts are measured as: each
// Compare keeps its stores in a temporary directory of its own (so that runs
// in parallel, in tests or by two users, never share or remove each other's
// files), but the read-grep prompt names that directory, and a random name
// would change the token counts from run to run and machine to machine. So
// the meter counts every message as if the directory were PromptBase.
const PromptBase = "/tmp/toolout-bench"

// meter counts the tokens and calls of oracle LLMs.
type meter struct {
	mu           sync.Mutex
	tk           core.Tokenizer
	base         string // the run's store base, counted as PromptBase
	calls, total int
}

func (m *meter) count(s string) int {
	if m.base != "" && strings.Contains(s, m.base) {
		s = strings.ReplaceAll(s, m.base, PromptBase)
	}
	return m.tk.Count(s)
}

func (m *meter) charge(req core.Request, answer string) {
	n := m.count(answer)
	for _, msg := range req.Messages {
		n += m.count(msg.Content)
		for _, tc := range msg.ToolCalls {
			n += m.count(string(tc.Arguments))
		}
	}
	m.mu.Lock()
	m.calls++
	m.total += n
	m.mu.Unlock()
}

// facts returns the distinct whole facts in text, in order.
func facts(text string) []string {
	var out []string
	for _, f := range FactRE.FindAllString(text, -1) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func answerOf(found []string) string {
	if len(found) == 0 {
		return "NO RELEVANT DATA FOUND\nno fact-N=VALUE entry in this text"
	}
	return strings.Join(found, "\n")
}

// Compare runs every strategy on every case with the given knobs, answered
// by the oracles. Its stores live in a fresh temporary directory, removed
// when it returns (see PromptBase).
func Compare(ctx context.Context, cases []Case, k Knobs, label string) ([]Row, error) {
	return CompareWith(ctx, cases, k, label, nil)
}

// CompareWith is Compare with model answering every LLM call in place of
// the oracles (nil: the oracles); see the package documentation for how its
// answers are asked, metered and judged. A model error ends the comparison
// with that error and no rows.
func CompareWith(ctx context.Context, cases []Case, k Knobs, label string, model core.LLM) (rows []Row, err error) {
	tk := tokens.MustNew(tokens.CL100K)
	base, err := os.MkdirTemp("", "toolout-bench-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if rmErr := os.RemoveAll(base); rmErr != nil && err == nil {
			rows, err = nil, rmErr
		}
	}()
	for _, c := range cases {
		for _, s := range Strategies {
			start := time.Now()
			x := &strategyRun{c: c, k: k, tk: tk, base: base, model: model, m: &meter{tk: tk, base: base}}
			r, err := x.run(ctx, s)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", s, c.Name, err)
			}
			r.Millis = float64(time.Since(start).Microseconds()) / 1000
			r.Knobs, r.Case, r.Bytes, r.Strategy, r.Facts = label, c.Name, len(c.Output), s, len(c.Facts)
			for _, f := range c.Facts {
				if slices.Contains(r.answer, f) {
					r.Found++
				}
			}
			r.Recall = float64(r.Found) / float64(max(len(c.Facts), 1))
			rows = append(rows, r.Row)
		}
	}
	return rows, nil
}

type result struct {
	Row
	answer []string
}

// run runs strategy s on x's case.
func (x *strategyRun) run(ctx context.Context, s string) (result, error) {
	c, k, tk, m := x.c, x.k, x.tk, x.m
	var r result
	main := func(seen string) error { // the main model answers from what it sees
		req := core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: c.Question}, x.toolResult(c.Tool, `{"since":"1h"}`, seen)}}
		var err error
		r.answer, err = x.ask(ctx, req, facts(seen), true)
		return err
	}
	var err error
	switch s {
	case "truncate":
		kept, _ := extract.Truncate(c.Output, k.ByteCap)
		r.MainTokens = tk.Count(kept)
		err = main(kept)
	case "head-tail", "json-aware":
		cut := headTail
		if s == "json-aware" {
			cut = jsonAware
		}
		kept, note, cerr := cut(c.Output, k.ByteCap)
		if cerr != nil {
			return r, cerr
		}
		r.MainTokens, r.Note = tk.Count(kept), note
		err = main(kept)
	case "query":
		kept, note := query(ctx, c.Output, k.ByteCap)
		r.MainTokens, r.Note = tk.Count(kept), note
		err = main(kept)
	case "in-tool-pagination":
		err = x.paginate(ctx, &r)
	case "full-chunked", "read-grep", "auto":
		err = x.extractWith(ctx, s, &r)
	case "compress-expand":
		compressed, _ := gateway.Simple{Words: k.SimpleWords}.Compress(ctx, gateway.Input{Content: c.Output})
		seen := gateway.Mark(gateway.ShadowID(c.Output), compressed)
		r.MainTokens = tk.Count(seen)
		if err = main(seen); err != nil || len(r.answer) >= len(c.Facts) {
			break
		}
		// Facts are missing: expand.
		full := tk.Count(c.Output)
		if r.MainTokens+full > k.Extract.ContextWindow-k.Extract.MaxOutputTokens {
			r.Note = fmt.Sprintf("expansion of %d tokens does not fit the %d-token window", full, k.Extract.ContextWindow)
			break
		}
		r.MainTokens += full
		err = main(seen + "\n" + c.Output)
	}
	if err != nil {
		return r, err
	}
	r.TotalTokens, r.Calls = m.total, m.calls
	return r, nil
}

// paginate is the in-tool validation strategy: the main agent reads the
// output with Read; over the size limit it pages with offset and limit until
// it has every fact it looks for (it knows how many there are) or the end.
// Every page lands in the main context, and every call resends it.
func (x *strategyRun) paginate(ctx context.Context, r *result) error {
	c, tk := x.c, x.tk
	dir, err := os.MkdirTemp("", "toolout-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "output.txt"), []byte(c.Output), 0o600); err != nil {
		return err
	}
	fsys, err := fstools.Open(dir)
	if err != nil {
		return err
	}
	defer fsys.Close()
	history := []core.Message{{Role: core.RoleUser, Content: c.Question}}
	// read reads a page; deliver puts it into the main context, where the
	// main model reads it.
	read := func(p fstools.ReadParams) string {
		out, err := fsys.Read(p)
		if err != nil {
			out = "Tool error: " + err.Error()
		}
		return out
	}
	deliver := func(p fstools.ReadParams, out string) ([]string, error) {
		args, _ := json.Marshal(p)
		history = append(history, x.toolResult("Read", string(args), out))
		seen, err := x.ask(ctx, core.Request{Messages: history}, facts(out), false)
		r.MainTokens += tk.Count(out)
		return seen, err
	}
	whole := fstools.ReadParams{Path: "output.txt"}
	out := read(whole)
	seen, err := deliver(whole, out)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(out, "Error: ") {
		r.answer = seen
	} else if err := x.pages(read, deliver, r); err != nil {
		return err
	}
	r.answer, err = x.ask(ctx, core.Request{Messages: history}, r.answer, true)
	return err
}

// pages reads the output page by page (about 15,000 tokens each) until
// every fact is found, the end, or a page that would overflow the main
// context: the agent cannot take that page in, so it is not sent (a model
// with a larger window than the bench's would accept it, and a smaller
// one would refuse the request).
func (x *strategyRun) pages(read func(fstools.ReadParams) string, deliver func(fstools.ReadParams, string) ([]string, error), r *result) error {
	c, k, tk := x.c, x.k, x.tk
	st := store.Measure(c.Output, tk)
	limit := max(1, 60_000/max(st.AvgLineBytes, 1))
	for off := 0; off < st.Lines && len(r.answer) < len(c.Facts); off += limit {
		p := fstools.ReadParams{Path: "output.txt", Offset: off, Limit: &limit}
		page := read(p)
		if !strings.HasPrefix(page, "Error: ") && r.MainTokens+tk.Count(page) > k.Extract.ContextWindow-k.Extract.MaxOutputTokens {
			r.Note = "the pages overflow the main context"
			return nil
		}
		seen, err := deliver(p, page)
		if err != nil {
			return err
		}
		if strings.HasPrefix(page, "Error: ") {
			r.Note = "a page over the size limit (long lines): nothing readable"
			return nil
		}
		for _, f := range seen {
			if !slices.Contains(r.answer, f) {
				r.answer = append(r.answer, f)
			}
		}
	}
	return nil
}

// extractWith runs the real extractor in full-chunked or read-grep mode,
// its model an oracle that reports the whole facts of the text it is sent
// (or x's model). Its store is a session under base, the run's own
// directory.
func (x *strategyRun) extractWith(ctx context.Context, mode string, r *result) error {
	c, k, tk, m := x.c, x.k, x.tk, x.m
	session := "bench-" + c.Name
	n := 0
	src := core.Sources{NewID: func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }}
	st, err := store.New(store.Options{Base: x.base, SessionID: session, Sources: src})
	if err != nil {
		return err
	}
	defer st.Close()
	meta, err := st.Put(c.Tool, `{"since":"1h"}`, c.Output, store.Measure(c.Output, tk))
	if err != nil {
		return err
	}
	const nonce = "benchnonce"
	oracle := func(req core.Request) core.Response {
		var resp core.Response
		switch req.Tag.Site {
		case core.SiteExtractMap:
			resp.Text = finalreport.Wrap(nonce, answerOf(facts(req.Messages[len(req.Messages)-1].Content)))
		case core.SiteExtractReduce:
			resp.Text = finalreport.Wrap(nonce, answerOf(facts(req.Messages[0].Content)))
		case core.SiteExtractReadGrep:
			resp = readGrepTurn(req, meta.Handle, nonce)
		}
		return resp
	}
	sub := core.LLMFunc(func(ctx context.Context, req core.Request) (core.Response, error) {
		resp, err := x.sub(ctx, req, oracle)
		if err != nil {
			return resp, err
		}
		args := ""
		for _, tc := range resp.ToolCalls {
			args += string(tc.Arguments)
		}
		m.charge(req, resp.Text+args)
		return resp, nil
	})
	cfg := k.Extract
	if mode != "auto" { // run explicitly: no routing cap
		cfg.MaxChunks, cfg.MaxChunksLong = 1<<20, 1<<20
	}
	ex, err := extract.New(extract.Options{Store: st, LLM: sub, Tokenizer: tk, Nonce: nonce, Config: cfg})
	if err != nil {
		return err
	}
	args, _ := json.Marshal(map[string]string{"handle": meta.Handle, "extract": c.Question, "mode": mode})
	o := ex.Extract(ctx, args)
	if err := x.failed(); err != nil {
		return err
	}
	r.MainTokens = m.count(o.Text)
	req := core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: c.Question}, x.toolResult("tool_output", string(args), o.Text)}}
	if r.answer, err = x.ask(ctx, req, facts(o.Text), false); err != nil {
		return err
	}
	if mode == "auto" && o.Route != nil {
		r.Note = "routed to " + o.Route.Mode
	}
	if o.Failure != "" {
		r.Note = "fell back to truncate: " + o.Failure
		if len(r.Note) > 120 {
			r.Note = r.Note[:120] + "…"
		}
	}
	return nil
}

// readGrepTurn is the oracle sub-agent: it greps for the fact pattern, and
// when the listing is refused as too large it reads the file in windows;
// then it reports the facts its tool results hold.
func readGrepTurn(req core.Request, handle, nonce string) core.Response {
	var results []string
	for _, msg := range req.Messages {
		if msg.Role == core.RoleTool {
			results = append(results, msg.Content)
		}
	}
	call := func(name string, args map[string]any) core.Response {
		raw, _ := json.Marshal(args)
		return core.Response{ToolCalls: []core.ToolCall{{ID: "c" + strconv.Itoa(req.Tag.Turn), Name: name, Arguments: raw}}}
	}
	switch {
	case len(results) == 0:
		return call("Grep", map[string]any{"pattern": `fact-[0-9]+=[0-9a-f]{8}\b`, "path": handle, "max_results": 1000})
	case len(results) == 1 && strings.HasPrefix(results[0], "Error: "):
		return call("Read", map[string]any{"path": handle, "offset": 0, "limit": 200})
	}
	var found []string
	for _, res := range results {
		if !strings.HasPrefix(res, "Error: ") {
			for _, f := range facts(res) {
				if !slices.Contains(found, f) {
					found = append(found, f)
				}
			}
		}
	}
	return core.Response{Text: finalreport.Wrap(nonce, answerOf(found))}
}

// BudgetFor returns the chunk budget full-chunked computes for a document
// under the knobs, for Corpus.
func BudgetFor(k Knobs) func(tool, doc string) int {
	tk := tokens.MustNew(tokens.CL100K)
	return func(tool, doc string) int {
		p := extract.Planner{Config: k.Extract, Tokenizer: tk}
		b, _ := p.Budget(store.Meta{Tool: tool, Args: `{"since":"1h"}`, Stats: store.Measure(doc, tk)}, Question, "benchnonce")
		return b
	}
}
