package harness

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
)

// RunAll runs the scenarios on n workers, each compared with (or, with
// Update, written to) its golden file; the i-th channel yields the i-th
// result, so output stays in order while work runs in parallel. Once ctx
// ends, no scenario starts, and one that was running when it ended yields
// nil, as does every scenario not started: a run cut short is neither a pass
// nor a failure, and its golden file is left as it was.
func (r *Runner) RunAll(ctx context.Context, scenarios []*Scenario, n int) []<-chan *Result {
	out := make([]chan *Result, len(scenarios))
	for i := range out {
		out[i] = make(chan *Result, 1)
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(n, len(scenarios)) {
		wg.Go(func() {
			for i := range work {
				out[i] <- r.runOne(ctx, scenarios[i])
			}
		})
	}
	go func() {
		defer func() {
			close(work)
			wg.Wait()
		}()
		for i := range scenarios {
			if ctx.Err() == nil { // checked first: a free worker must not win over an ended context
				select {
				case work <- i:
					continue
				case <-ctx.Done():
				}
			}
			for _, ch := range out[i:] {
				ch <- nil
			}
			return
		}
	}()
	ro := make([]<-chan *Result, len(out))
	for i, ch := range out {
		ro[i] = ch
	}
	return ro
}

// runOne runs one scenario and compares or updates its golden file. A panic
// in the scenario's goroutine becomes its failure, so that the other
// scenarios still run and every store is still removed; nil means the
// context ended before or while it ran.
func (r *Runner) runOne(ctx context.Context, sc *Scenario) (res *Result) {
	if ctx.Err() != nil {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			res = &Result{Scenario: sc, Failures: []string{fmt.Sprintf("%s:%d:1: panic: %v\n%s", sc.Path, sc.Line, p, debug.Stack())}}
		}
	}()
	res = r.Execute(ctx, sc)
	if ctx.Err() != nil {
		return nil
	}
	r.Golden(res)
	return res
}
