package toolouttest

import (
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/internal/llmtest"
)

// LLMCalls is how many times the concurrent property sends its request at
// once: an LLM under test must be able to answer it that many times (a
// scripted fake: a step with times: 8).
const LLMCalls = llmtest.Calls

// TestLLM checks llm against the core.LLM contract with req and returns
// every property that failed, joined, each naming itself; nil when all
// hold. Like testing/fstest.TestFS, it needs no test framework. See the
// package documentation for the properties.
func TestLLM(llm core.LLM, req core.Request) error { return llmtest.TestLLM(llm, req) }

// CheckLLM checks the LLMs newLLM returns against the core.LLM contract
// with req, one subtest of t per property (cancelled, deadline,
// concurrent), each on an LLM of its own; run it under -race.
func CheckLLM(t *testing.T, newLLM func(*testing.T) core.LLM, req core.Request) {
	t.Helper()
	for _, p := range llmtest.Properties {
		t.Run(p.Name, func(t *testing.T) {
			if err := p.Check(newLLM(t), req); err != nil {
				t.Error(err)
			}
		})
	}
}
