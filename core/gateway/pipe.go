package gateway

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/toolout/toolout/core"
)

// Pipe defaults (spec and REFERENCE).
const (
	DefaultMinBytes      = 2048
	DefaultMaxBytes      = 65536
	DefaultMaxConcurrent = 10
	// DefaultRateLimit is the compressions per second of a remote
	// compressor (IsRemote) when rate_limit is not set; a local one is
	// then not limited.
	DefaultRateLimit    = 20
	DefaultMaxResults   = 64
	DefaultMaxWorkBytes = 4 << 20
	// DefaultCompressTimeout bounds one compressor call.
	DefaultCompressTimeout = 30 * time.Second
)

// Actions of a Result.
const (
	ActionCompressed  = "compressed"
	ActionPassthrough = "passthrough"
	ActionSkipped     = "skipped"
)

// Settings is pipes.tool_output as core reads it, under the spec's keys:
// the compressor, the pipe, the store's lifetimes and sizes, and whether
// expand_context is offered. The config file (cmd/toolout) and the
// harness's gateway component embed it inline and add only their own
// keys; Build-style wiring hands each part to its constructor.
type Settings struct {
	CompressorConfig    `yaml:",inline"`
	Config              `yaml:",inline"`
	StoreOptions        `yaml:",inline"`
	EnableExpandContext bool `yaml:"enable_expand_context"`
}

// Config is the pipe's part of pipes.tool_output. The yaml names are the
// spec's keys; the config file and the harness's gateway component embed
// Config inline. Some fields are not keys of that section: Provider (the wire serving
// the route) and MaxResults/MaxWorkBytes (the file's limits section). The
// strategy is CompressorConfig's: Options.Compressor is what runs.
type Config struct {
	// FallbackStrategy is "passthrough" (the default: a failed compression
	// keeps the original) or "none" (the failure is returned).
	FallbackStrategy string `json:"fallback_strategy" yaml:"fallback_strategy"`
	// MinBytes and MaxBytes: only outputs with MinBytes < len <= MaxBytes
	// are compressed.
	MinBytes int `json:"min_bytes" yaml:"min_bytes"`
	MaxBytes int `json:"max_bytes" yaml:"max_bytes"`
	// SkipTools lists categories (read, edit, write, bash, glob, grep) or
	// exact tool names never compressed.
	SkipTools []string `json:"skip_tools" yaml:"skip_tools"`
	// Provider (openai, anthropic, bedrock, …) picks the tool names of the
	// skip_tools categories.
	Provider string `json:"provider" yaml:"-"`
	// MaxConcurrent bounds compressions in flight; RateLimit bounds them per
	// second (token bucket, burst RateLimit), whatever the compressor, when
	// set; unset (zero or less), DefaultRateLimit applies to a remote
	// compressor (IsRemote: api, external_provider) and a local one
	// (simple, passthrough) is not limited, since the default is there to
	// spare a remote API.
	MaxConcurrent int     `json:"max_concurrent" yaml:"max_concurrent"`
	RateLimit     float64 `json:"rate_limit" yaml:"rate_limit"`
	// MaxResults is how many tool results of one request may go to the
	// compressor, and MaxWorkBytes how many of their bytes; results past
	// either bound pass through (reason "limit: …"), so one request cannot
	// hold the compressor, or the rate limit every client shares, for long.
	MaxResults   int   `json:"max_results" yaml:"-"`
	MaxWorkBytes int64 `json:"max_work_bytes" yaml:"-"`
	// BreakerFailures compressor failures in a row open the circuit
	// breaker: for BreakerCooloff the compressor is not called and
	// results fail as ErrBreakerOpen (then the fallback applies); after
	// it, one call probes.
	BreakerFailures int           `json:"breaker_failures" yaml:"breaker_failures"`
	BreakerCooloff  time.Duration `json:"breaker_cooloff" yaml:"breaker_cooloff"`
	// CompressTimeout bounds one compressor call (a timeout is a failure:
	// the fallback applies and the breaker counts it).
	CompressTimeout time.Duration `json:"compress_timeout" yaml:"compress_timeout"`
}

func (c Config) withDefaults() Config {
	if c.FallbackStrategy == "" {
		c.FallbackStrategy = StrategyPassthrough
	}
	if c.MinBytes == 0 {
		c.MinBytes = DefaultMinBytes
	}
	if c.MaxBytes == 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	orDefault(&c.MaxConcurrent, DefaultMaxConcurrent)
	orDefault(&c.RateLimit, DefaultRateLimit)
	orDefault(&c.MaxResults, DefaultMaxResults)
	orDefault(&c.MaxWorkBytes, DefaultMaxWorkBytes)
	orDefault(&c.BreakerFailures, DefaultBreakerFailures)
	orDefault(&c.BreakerCooloff, DefaultBreakerCooloff)
	orDefault(&c.CompressTimeout, DefaultCompressTimeout)
	return c
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.FallbackStrategy != StrategyPassthrough && c.FallbackStrategy != "none":
		return fmt.Errorf("fallback_strategy %q: want passthrough or none", c.FallbackStrategy)
	case c.MinBytes < 0 || c.MaxBytes < 0:
		return fmt.Errorf("min_bytes %d, max_bytes %d: must not be negative", c.MinBytes, c.MaxBytes)
	case c.MinBytes >= c.MaxBytes:
		return fmt.Errorf("min_bytes %d must be below max_bytes %d", c.MinBytes, c.MaxBytes)
	case math.IsNaN(c.RateLimit) || math.IsInf(c.RateLimit, 0):
		return fmt.Errorf("rate_limit %v: want a number of compressions per second", c.RateLimit)
	}
	return nil
}

// skipNames maps skip_tools categories to tool names per provider. Other
// providers use every name known for the category.
var skipNames = map[string]map[string][]string{
	"anthropic": {"read": {"Read"}, "edit": {"Edit", "MultiEdit"}, "write": {"Write"}, "bash": {"Bash"}, "glob": {"Glob"}, "grep": {"Grep"}},
	"openai": {"read": {"read_file"}, "edit": {"apply_patch", "edit_file"}, "write": {"write_file"}, "bash": {"shell", "exec_command"},
		"glob": {"glob", "list_files"}, "grep": {"grep", "search_files"}},
}

func init() { skipNames["bedrock"] = skipNames["anthropic"] }

// SkipToolNames resolves skip_tools for a provider: categories become that
// provider's tool names (every known name for an unknown provider); other
// entries are exact tool names.
func SkipToolNames(provider string, skip []string) []string {
	var out []string
	for _, s := range skip {
		cat := strings.ToLower(s)
		if m, ok := skipNames[provider]; ok {
			if names, ok := m[cat]; ok {
				out = append(out, names...)
				continue
			}
		} else if _, isCat := skipNames["anthropic"][cat]; isCat {
			for _, p := range []string{"anthropic", "openai"} {
				out = append(out, skipNames[p][cat]...)
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// ToolOutput is one tool result found in a request.
type ToolOutput struct {
	// Index is its position among the request's tool outputs.
	Index int `json:"index"`
	// CallID is the tool call it answers.
	CallID string `json:"call_id"`
	// Tool is the called tool's name, when the request shows it.
	Tool    string `json:"tool"`
	Content string `json:"content"`
	// Provider is the wire format the output came in ("openai",
	// "anthropic"): it picks the tool names of skip_tools categories. Empty
	// means Config.Provider.
	Provider string `json:"-"`
	// IsError is true for a result the client marked as an error
	// (Anthropic's is_error): it is never compressed, since an error
	// message is short and the model needs it whole.
	IsError bool `json:"is_error,omitempty"`
	// Held is the bytes of the allocation Content has to itself when the
	// request's parse made it for this output alone (jsonspan.Node.Held),
	// else 0: a store that can ([OriginalTaker]) keeps such a Content
	// without copying it.
	Held int `json:"-"`
}

// Result is what the pipe did with one tool output.
type Result struct {
	Index    int    `json:"index"`
	Tool     string `json:"tool"`
	Action   string `json:"action"`
	Reason   string `json:"reason"`
	ShadowID string `json:"shadow_id,omitempty"`
	// Text is what the model sees.
	Text  string `json:"text"`
	Bytes int    `json:"bytes"`
	// Saved is len(content) − len(Text) for a compressed output.
	Saved int `json:"saved,omitempty"`
	// Limit is the bound that made a result pass through uncompressed
	// (LimitResults, LimitWork, LimitMaxBytes), for Observer.Limited;
	// empty otherwise.
	Limit string `json:"-"`
	// Original is the content of a compressed result (the request's own
	// bytes, not a copy): the gateway answers expand_context for it from
	// here within the request, never from a store that may have dropped it.
	Original string `json:"-"`
}

// Metrics count what the pipe did.
type Metrics struct {
	CacheHits          int64 `json:"cache_hits"`
	CacheMisses        int64 `json:"cache_misses"`
	CompressionsOK     int64 `json:"compressions_ok"`
	CompressionsFailed int64 `json:"compressions_failed"`
	// BytesSaved is net: the bytes compression removed from requests,
	// minus those answered expansions gave back ([Pipe.Unsave]).
	BytesSaved int64 `json:"bytes_saved"`
	// Limited counts results passed through because their request's
	// compression budget (MaxResults, MaxWorkBytes) was spent.
	Limited int64 `json:"limited"`
	// StoreFailed counts results passed through because a store call
	// failed (a Redis down, hung or out of memory).
	StoreFailed int64 `json:"store_failed,omitempty"`
}

// Options configure a Pipe.
type Options struct {
	Config     Config
	Compressor Compressor
	Store      Store
	// Sources supplies the clock of the rate limiter.
	Sources core.Sources
	// Sleep waits for d or until ctx ends; nil means core.Sleep (a timer).
	// Tests make it advance a fake clock.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Pipe compresses the tool outputs of requests. It is safe for concurrent
// use.
type Pipe struct {
	cfg     Config
	opts    Options
	skip    []string
	sem     chan struct{}
	limit   *bucket
	breaker *breaker
	memo    *idMemo // nil unless the store is in the process

	hits, misses, ok, failed, saved, limited, storeFailed atomic.Int64
}

// NewPipe returns a Pipe.
func NewPipe(opts Options) (*Pipe, error) {
	if err := opts.Config.Validate(); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	if opts.Compressor == nil || opts.Store == nil {
		return nil, errors.New("gateway: Options.Compressor and Options.Store are required")
	}
	cfg := opts.Config.withDefaults()
	if opts.Sleep == nil {
		opts.Sleep = core.Sleep
	}
	perSecond := rate.Limit(cfg.RateLimit)
	if opts.Config.RateLimit <= 0 && !IsRemote(opts.Compressor) {
		perSecond = rate.Inf // the default spares remote APIs only
	}
	p := &Pipe{cfg: cfg, opts: opts, skip: SkipToolNames(cfg.Provider, cfg.SkipTools),
		sem: make(chan struct{}, cfg.MaxConcurrent), limit: newBucket(perSecond, opts.Sources, opts.Sleep),
		breaker: newBreaker(cfg.BreakerFailures, cfg.BreakerCooloff, opts.Sources)}
	if localStore(opts.Store) {
		p.memo = newIDMemo()
	}
	return p, nil
}

// shadowID is ShadowID(content), through the memo when there is one.
func (p *Pipe) shadowID(ctx context.Context, content string) string {
	if p.memo == nil {
		return ShadowID(content)
	}
	return p.memo.shadowID(ctx, p.opts.Store, CallerOf(ctx), content)
}

// Metrics returns a snapshot of the counters.
func (p *Pipe) Metrics() Metrics {
	return Metrics{p.hits.Load(), p.misses.Load(), p.ok.Load(), p.failed.Load(), p.saved.Load(), p.limited.Load(), p.storeFailed.Load()}
}

// Unsave subtracts n bytes from the bytes saved, so that
// Metrics().BytesSaved is net: the gateway calls it with what an answered
// expansion gave back to the model. n <= 0 does nothing.
func (p *Pipe) Unsave(n int) {
	if n > 0 {
		p.saved.Add(-int64(n))
	}
}

// Store returns the pipe's store.
func (p *Pipe) Store() Store { return p.opts.Store }

// Process decides, for each output, in the spec's order: already marked →
// skipped; skip_tools → skipped; len <= min_bytes or > max_bytes →
// passthrough; then the shadow id, a compressed-cache hit, or (miss) the
// original stored and compressed, kept only when strictly smaller, cached,
// and marked. Outputs are processed concurrently (bounded, rate-limited);
// results come in input order. With fallback "none" the first compression
// failure is returned.
func (p *Pipe) Process(ctx context.Context, outputs []ToolOutput, query string) ([]Result, error) {
	results := make([]Result, len(outputs))
	errs := make([]error, len(outputs))
	var jobs []int                       // the outputs to process, each in a goroutine but the last, in this one
	passed := make([]bool, len(outputs)) // outputs past the checks before the store (wouldCompress)
	sent, work := 0, int64(0)
	for i, o := range outputs {
		if passed[i] = p.wouldCompress(o); passed[i] {
			if sent >= p.cfg.MaxResults || work+int64(len(o.Content)) > p.cfg.MaxWorkBytes {
				results[i] = p.overBudget(o, sent, work)
				continue
			}
			sent, work = sent+1, work+int64(len(o.Content))
		}
		jobs = append(jobs, i)
	}
	var wg sync.WaitGroup
	for k, i := range jobs {
		job := func() { results[i], errs[i] = p.one(ctx, outputs[i], query, passed[i]) }
		if k == len(jobs)-1 {
			job() // a request with one output starts no goroutine
			break
		}
		wg.Go(job)
	}
	wg.Wait()
	return results, errors.Join(errs...)
}

// wouldCompress reports whether o passes the checks before the store and
// the compressor (it may still be a cache hit).
func (p *Pipe) wouldCompress(o ToolOutput) bool {
	n := len(o.Content)
	return !strings.Contains(o.Content, ShadowPrefix) && !o.IsError && !p.skipped(o) && n > p.cfg.MinBytes && n <= p.cfg.MaxBytes
}

// skipped reports whether skip_tools names o's tool, for o's provider.
func (p *Pipe) skipped(o ToolOutput) bool {
	if o.Provider == "" || o.Provider == p.cfg.Provider {
		return slices.Contains(p.skip, o.Tool)
	}
	return slices.Contains(SkipToolNames(o.Provider, p.cfg.SkipTools), o.Tool)
}

// overBudget passes o through because the request's compression budget is
// spent.
func (p *Pipe) overBudget(o ToolOutput, sent int, work int64) Result {
	p.limited.Add(1)
	r := Result{Index: o.Index, Tool: o.Tool, Text: o.Content, Bytes: len(o.Content), Action: ActionPassthrough, Limit: LimitWork}
	if sent >= p.cfg.MaxResults {
		r.Limit = LimitResults
		r.Reason = fmt.Sprintf("limit: max_results %d reached in this request", p.cfg.MaxResults)
	} else {
		r.Reason = fmt.Sprintf("limit: max_work_bytes %d reached in this request (%d bytes sent)", p.cfg.MaxWorkBytes, work)
	}
	return r
}

// one processes output o; passed says Process found it past the checks
// before the store (wouldCompress), which are then not made again.
func (p *Pipe) one(ctx context.Context, o ToolOutput, query string, passed bool) (Result, error) {
	r := Result{Index: o.Index, Tool: o.Tool, Text: o.Content, Bytes: len(o.Content)}
	n := len(o.Content)
	switch {
	case passed: // wouldCompress: none of the cases below, read again for nothing
	case Marked(o.Content):
		return p.marked(ctx, r, o.Content), nil
	case strings.Contains(o.Content, ShadowPrefix):
		r.Action, r.Reason = ActionSkipped, "holds a shadow marker (never compressed)"
		return r, nil
	case o.IsError:
		r.Action, r.Reason = ActionSkipped, "error result (is_error): never compressed"
		return r, nil
	case p.skipped(o):
		r.Action, r.Reason = ActionSkipped, fmt.Sprintf("skip_tools: %s", o.Tool)
		return r, nil
	case n <= p.cfg.MinBytes:
		r.Action, r.Reason = ActionPassthrough, fmt.Sprintf("%d bytes <= min_bytes %d", n, p.cfg.MinBytes)
		return r, nil
	case n > p.cfg.MaxBytes:
		r.Action, r.Reason, r.Limit = ActionPassthrough, fmt.Sprintf("%d bytes > max_bytes %d", n, p.cfg.MaxBytes), LimitMaxBytes
		return r, nil
	}
	id := p.shadowID(ctx, o.Content)
	st := p.opts.Store
	c, hit, err := st.Compressed(ctx, id)
	if err == nil {
		// keep the original expandable while it is in use (a hit), or
		// before compressing it (a miss): never show a marker whose
		// original could not be stored. It is kept under this request's
		// caller, on a hit too: the compressed text is shared, the
		// original is not.
		err = putOriginal(ctx, st, id, o)
	}
	if err != nil {
		p.storeFailed.Add(1)
		r.Action, r.Reason = ActionPassthrough, "store failed: "+err.Error()
		return r, nil
	}
	if hit {
		p.hits.Add(1)
		return p.compressed(r, id, c, "cache hit"), nil
	}
	p.misses.Add(1)
	c, err = p.compress(ctx, Input{Tool: o.Tool, Content: o.Content, Query: query})
	if err != nil {
		p.failed.Add(1)
		if p.cfg.FallbackStrategy != StrategyPassthrough {
			return r, fmt.Errorf("gateway: output %d (%s): %w", o.Index, o.Tool, err)
		}
		r.Action, r.Reason = ActionPassthrough, "compression failed, fallback passthrough: "+err.Error()
		return r, nil
	}
	if len(c) >= n {
		r.Action, r.Reason = ActionPassthrough, fmt.Sprintf("not smaller after compression (%d >= %d bytes)", len(c), n)
		return r, nil
	}
	if err := st.PutCompressed(ctx, id, c); err != nil {
		p.storeFailed.Add(1)
		r.Action, r.Reason = ActionPassthrough, "store failed: "+err.Error()
		return r, nil
	}
	p.ok.Add(1)
	return p.compressed(r, id, c, "compressed"), nil
}

// putOriginal keeps o's content as the original of id for the request's
// caller: without a copy when the store can take it and the content's
// allocation is its own (o.Held).
func putOriginal(ctx context.Context, st Store, id string, o ToolOutput) error {
	if t, ok := st.(OriginalTaker); ok && o.Held > 0 {
		return t.TakeOriginal(ctx, CallerOf(ctx), id, o.Content, o.Held)
	}
	return st.PutOriginal(ctx, CallerOf(ctx), id, o.Content)
}

// marked handles content that starts with a shadow marker: it is never
// compressed again, and it counts as issued by this gateway (ShadowID set,
// so expand_context may answer it) only when the store holds exactly the
// compressed text that follows the marker. A marker a tool output or a
// client wrote itself is not one the gateway issued.
func (p *Pipe) marked(ctx context.Context, r Result, content string) Result {
	r.Action = ActionSkipped
	id, text, ok := ParseMark(content)
	if !ok {
		r.Reason = "holds a shadow marker (never compressed)"
		return r
	}
	if c, hit, err := p.opts.Store.Compressed(ctx, id); err == nil && hit && c == text {
		r.ShadowID, r.Reason = id, "already compressed by this gateway (shadow prefix)"
		return r
	}
	r.Reason = "starts with a shadow marker this gateway did not issue (never compressed, not expandable)"
	return r
}

func (p *Pipe) compressed(r Result, id, c, reason string) Result {
	r.Action, r.Reason, r.ShadowID = ActionCompressed, reason, id
	r.Original, r.Text = r.Text, Mark(id, c)
	r.Saved = r.Bytes - len(r.Text)
	p.saved.Add(int64(r.Saved))
	return r
}

func (p *Pipe) compress(ctx context.Context, in Input) (string, error) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-p.sem }()
	if err := p.limit.take(ctx); err != nil {
		return "", err
	}
	if !p.breaker.allow() {
		return "", ErrBreakerOpen
	}
	cctx, cancel := context.WithTimeout(ctx, p.cfg.CompressTimeout)
	defer cancel()
	c, err := p.opts.Compressor.Compress(cctx, in)
	if err != nil && cctx.Err() != nil && ctx.Err() == nil {
		err = fmt.Errorf("compressor timed out after %v: %w", p.cfg.CompressTimeout, err)
	}
	if ctx.Err() == nil { // a request that went away says nothing of the compressor
		p.breaker.done(err)
	}
	return c, err
}
