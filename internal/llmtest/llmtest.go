// Package llmtest checks that an implementation of core.LLM keeps the
// promises of the seam, the way testing/fstest.TestFS checks an fs.FS: the
// fakes and the OpenAI-compatible client run it from their tests, and users
// run it through the public package toolouttest (TestLLM, and CheckLLM, one
// subtest per property), which wraps this one. It imports only the standard
// library and core, so it runs under any test framework.
//
// # Contract checked
//
//   - Concurrent use (core.LLM: "Implementations must be safe for concurrent
//     use"): Calls requests at once all return, each a well-formed response
//     or an error; run it under -race to check the memory accesses too.
//   - Cancellation: a request whose context is already cancelled returns an
//     error wrapping context.Canceled, and one whose deadline has passed an
//     error wrapping context.DeadlineExceeded (core: "A timeout is reported
//     by wrapping context.DeadlineExceeded"), within Prompt, without an
//     answer.
//   - Well-formed responses: every tool call has an ID, a name and arguments
//     that are a JSON object (core.ToolCall: "Arguments is a JSON object");
//     the finish reason is empty or one of core's; token counts are not
//     negative.
//
// # Not checked
//
// What the model answers, whether the same request gets the same answer (a
// scripted fake does; a real model does not promise it), which errors a
// failing server maps to core.ErrRateLimited or core.ErrServer (that needs a
// server scripted to fail: the client's own specs do it), and retries.
package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/toolout/toolout/core"
)

// Calls is how many times TestLLM sends req concurrently: the LLM under test
// must be able to answer req that many times (a scripted fake: a step with
// times: 8). The two requests with an ended context must not be answered.
const Calls = 8

// Prompt bounds how long a request with an ended context may take to
// return: long enough for a loaded CI machine, short against any network
// round trip the implementation should not have started.
const Prompt = 5 * time.Second

// TestLLM checks llm against the contract above with req, and returns every
// property that failed, joined, each naming itself; nil when all hold.
func TestLLM(llm core.LLM, req core.Request) error {
	var errs []error
	for _, p := range Properties {
		errs = append(errs, p.Check(llm, req))
	}
	return errors.Join(errs...)
}

// Property is one promise of the contract, checked on its own: Check
// returns nil when llm keeps it for req.
type Property struct {
	Name  string
	Check func(llm core.LLM, req core.Request) error
}

// Properties are the promises TestLLM checks, in its order; a runner that
// reports each on its own (toolouttest.CheckLLM, one subtest each) ranges
// over them.
var Properties = []Property{
	{"cancelled", func(llm core.LLM, req core.Request) error {
		return ended(llm, req, "cancelled", context.Canceled, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		})
	}},
	{"deadline", func(llm core.LLM, req core.Request) error {
		return ended(llm, req, "past its deadline", context.DeadlineExceeded, func() (context.Context, context.CancelFunc) {
			return context.WithDeadline(context.Background(), time.Unix(0, 0))
		})
	}},
	{"concurrent", concurrent},
}

// ended sends req with a context that has already ended.
func ended(llm core.LLM, req core.Request, what string, want error, ctx func() (context.Context, context.CancelFunc)) error {
	c, cancel := ctx()
	defer cancel()
	type answer struct {
		resp core.Response
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := llm.Complete(c, req)
		done <- answer{resp, err}
	}()
	select {
	case a := <-done:
		switch {
		case a.err == nil:
			return fmt.Errorf("llmtest: a request %s was answered (%q): want an error wrapping %v", what, a.resp.Text, want)
		case !errors.Is(a.err, want):
			return fmt.Errorf("llmtest: a request %s failed with %q: want an error wrapping %v", what, a.err, want)
		}
		return nil
	case <-time.After(Prompt):
		return fmt.Errorf("llmtest: a request %s did not return within %s", what, Prompt)
	}
}

// concurrent sends Calls copies of req at once.
func concurrent(llm core.LLM, req core.Request) error {
	errs := make([]error, Calls)
	var wg sync.WaitGroup
	for i := range Calls {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					errs[i] = fmt.Errorf("llmtest: concurrent request %d: panic: %v", i+1, p)
				}
			}()
			resp, err := llm.Complete(context.Background(), req)
			if err != nil {
				errs[i] = fmt.Errorf("llmtest: concurrent request %d of %d: %w", i+1, Calls, err)
				return
			}
			if err := WellFormed(resp); err != nil {
				errs[i] = fmt.Errorf("llmtest: concurrent request %d of %d: %w", i+1, Calls, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// WellFormed reports the first way resp breaks the shape core promises: a
// tool call without an ID or a name, arguments that are not a JSON object,
// an unknown finish reason, a negative token count.
func WellFormed(resp core.Response) error {
	for i, tc := range resp.ToolCalls {
		var args map[string]json.RawMessage
		switch {
		case tc.ID == "":
			return fmt.Errorf("tool call %d (%q) has no ID", i+1, tc.Name)
		case tc.Name == "":
			return fmt.Errorf("tool call %d (%s) has no name", i+1, tc.ID)
		case json.Unmarshal(tc.Arguments, &args) != nil || args == nil:
			return fmt.Errorf("tool call %d (%s %s): arguments %.80q are not a JSON object", i+1, tc.ID, tc.Name, tc.Arguments)
		}
	}
	if r := resp.FinishReason; r != "" && !slices.Contains([]string{core.FinishStop, core.FinishToolCalls, core.FinishLength}, r) {
		return fmt.Errorf("finish reason %q: want %s, %s, %s or none", r, core.FinishStop, core.FinishToolCalls, core.FinishLength)
	}
	if resp.Usage.InputTokens < 0 || resp.Usage.OutputTokens < 0 {
		return fmt.Errorf("negative token counts (%d in, %d out)", resp.Usage.InputTokens, resp.Usage.OutputTokens)
	}
	return nil
}
