package components

import (
	"sync"

	"github.com/toolout/toolout/harness"
)

var (
	defaultOnce sync.Once
	defaultReg  *harness.Registry
)

// Default returns the registry of toolout's own components, built once:
//
//	extract      answers one tool_output call on a stored output (core/extract)
//	gateway      runs requests through the compression gateway (core/gateway)
//	finalreport  parses a final-report wrapper (core/finalreport)
//	llm          sends scripted requests to the fake LLM (harness self-tests)
//	leaked       recovers tool calls leaked as text (core/leaked)
//	schema       summarizes or inspects an output schema (core/schema)
//	session      runs the main session with fake tools (core/session)
//	store        applies the oversize policy and the store (core/store)
func Default() *harness.Registry {
	defaultOnce.Do(func() {
		defaultReg = harness.NewRegistry()
		defaultReg.SetScratch(scratchDir)
		registerExtract(defaultReg)
		registerFinalReport(defaultReg)
		registerGateway(defaultReg)
		registerLLM(defaultReg)
		registerLeaked(defaultReg)
		registerSchema(defaultReg)
		registerSession(defaultReg)
		registerStore(defaultReg)
	})
	return defaultReg
}
