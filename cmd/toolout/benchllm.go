package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/toolout/toolout/bench"
	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/openai"
)

// benchKeyEnv names the environment variable that holds the API key of
// `bench strategies --llm` (never a flag: a flag shows in ps and in shell
// history). Unset or empty: no Authorization header.
const benchKeyEnv = "TOOLOUT_LLM_API_KEY"

// modelFlags are the flags of `bench strategies` that choose who answers.
type modelFlags struct {
	llm, model  string
	concurrency int
	maxRequests int
	timeout     time.Duration
	retries     int
}

func (f *modelFlags) register(fs *flagSet) {
	fs.StringVar(&f.llm, "llm", "", "answer with the model at this OpenAI-compatible base URL (e.g. http://127.0.0.1:8080/v1) instead of the oracles; API key from $"+benchKeyEnv)
	fs.StringVar(&f.model, "model", "", "the model's name, sent with each request (required with --llm)")
	fs.IntVar(&f.concurrency, "concurrency", 1, "cases run at once, and with --llm requests in flight")
	fs.IntVar(&f.maxRequests, "max-requests", 0, "with --llm, stop (exit 1, no table) rather than send more than N requests, retries included (0: no limit)")
	fs.DurationVar(&f.timeout, "timeout", 2*time.Minute, "with --llm, the time allowed for each request")
	fs.IntVar(&f.retries, "retries", 3, "with --llm, how many times a 429 or 5xx answer is retried (waits from 500ms, doubling, at most 4s)")
}

// maxModelName bounds --model: it is printed on the table's first line.
const maxModelName = 200

// build checks the flags and returns the model (nil: the oracles), its
// name for the output, and a budget to report from (nil without one).
func (f *modelFlags) build() (core.LLM, bench.Model, *budget, error) {
	if f.concurrency < 1 || f.concurrency > 256 {
		return nil, bench.Model{}, nil, fmt.Errorf("--concurrency %d: want 1 to 256", f.concurrency)
	}
	if f.llm == "" {
		for name, set := range map[string]bool{"--model": f.model != "", "--max-requests": f.maxRequests != 0} {
			if set {
				return nil, bench.Model{}, nil, fmt.Errorf("%s needs --llm", name)
			}
		}
		return nil, bench.Oracle, nil, nil
	}
	u, err := url.Parse(f.llm)
	switch {
	case err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return nil, bench.Model{}, nil, fmt.Errorf("--llm %q: want an http or https base URL, e.g. http://127.0.0.1:8080/v1", f.llm)
	case f.model == "":
		return nil, bench.Model{}, nil, errors.New("--llm needs --model NAME")
	case len(f.model) > maxModelName || strings.ContainsFunc(f.model, func(r rune) bool { return !unicode.IsPrint(r) }):
		return nil, bench.Model{}, nil, fmt.Errorf("--model: want up to %d printable characters", maxModelName)
	case f.maxRequests < 0:
		return nil, bench.Model{}, nil, fmt.Errorf("--max-requests %d: want 0 (no limit) or more", f.maxRequests)
	case f.timeout <= 0:
		return nil, bench.Model{}, nil, fmt.Errorf("--timeout %s: want a positive duration", f.timeout)
	case f.retries < 0 || f.retries > 10:
		return nil, bench.Model{}, nil, fmt.Errorf("--retries %d: want 0 to 10", f.retries)
	}
	b := &budget{max: int64(f.maxRequests), inflight: make(chan struct{}, f.concurrency), base: http.DefaultTransport}
	client := openai.Client{BaseURL: f.llm, Model: f.model, APIKey: os.Getenv(benchKeyEnv), SendTag: true,
		HTTP: &http.Client{Timeout: f.timeout, Transport: b}, Retries: f.retries, Backoff: 500 * time.Millisecond}
	shown := *u
	shown.User, shown.RawQuery, shown.Fragment = nil, "", "" // no secret in a table
	return client, bench.Model{Name: f.model, URL: shown.String()}, b, nil
}

// budgetError is a request --max-requests does not allow.
type budgetError struct{ max int64 }

func (e budgetError) Error() string {
	return fmt.Sprintf("request budget of %d spent (--max-requests)", e.max)
}

// budget is the transport of --llm: at most cap(inflight) requests in
// flight, and no request past max (0: no limit), counting every attempt.
type budget struct {
	max      int64
	sent     atomic.Int64
	inflight chan struct{}
	base     http.RoundTripper
}

func (b *budget) RoundTrip(r *http.Request) (*http.Response, error) {
	select {
	case b.inflight <- struct{}{}:
	case <-r.Context().Done():
		return nil, context.Cause(r.Context())
	}
	if n := b.sent.Add(1); b.max > 0 && n > b.max {
		b.sent.Add(-1)
		<-b.inflight
		return nil, budgetError{b.max}
	}
	resp, err := b.base.RoundTrip(r)
	if err != nil {
		<-b.inflight
		return nil, err
	}
	resp.Body = &releaseBody{ReadCloser: resp.Body, release: func() { <-b.inflight }}
	return resp, nil
}

// releaseBody frees a request's place in flight once its body is closed.
type releaseBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (r *releaseBody) Close() error {
	err := r.ReadCloser.Close()
	r.once.Do(r.release)
	return err
}

// compareRuns compares the strategies on every case with every run's knobs,
// concurrency cases at a time, answered by model (nil: the oracles). Rows
// come in run and case order whatever order the cases finish in. An ended
// ctx is noticed between cases; then, or when a case fails, it returns no
// rows, since a table of the cases that ran would read as a comparison.
func compareRuns(ctx context.Context, cases []bench.Case, runs []bench.Run, model core.LLM, concurrency int) ([]bench.Row, error) {
	type job struct {
		run  bench.Run
		c    bench.Case
		rows []bench.Row
	}
	var jobs []*job
	for _, r := range runs {
		for _, c := range cases {
			jobs = append(jobs, &job{run: r, c: c})
		}
	}
	parent := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan *job)
	var wg sync.WaitGroup
	for range max(concurrency, 1) {
		wg.Go(func() {
			for j := range next {
				rows, err := bench.CompareWith(ctx, []bench.Case{j.c}, j.run.Knobs, j.run.Label, model)
				if err != nil {
					cancel(err)
					continue
				}
				j.rows = rows
			}
		})
	}
feed:
	for _, j := range jobs {
		select {
		case next <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	switch {
	case parent.Err() != nil:
		return nil, fmt.Errorf("interrupted (%v): no table", context.Cause(parent))
	case errors.As(context.Cause(ctx), new(budgetError)):
		var be budgetError
		errors.As(context.Cause(ctx), &be)
		return nil, fmt.Errorf("stopped: the request budget of %d (--max-requests) is spent and the comparison needs more: no table", be.max)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%v: no table", context.Cause(ctx))
	}
	var rows []bench.Row
	for _, j := range jobs {
		rows = append(rows, j.rows...)
	}
	return rows, nil
}
