package components

import (
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/core/session"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/fakes"
)

// What the trace importer (harness/importer) needs to know of core, answered
// here so that the adapters stay the only code that imports core's
// subpackages: an imported scenario is right when it scripts what these
// components will do.

// DefaultMaxToolResponseBytes is the session component's byte cap when a
// scenario sets none.
const DefaultMaxToolResponseBytes = session.DefaultMaxToolResponseBytes

// RecoverLeaked is what the leaked component, and the session's agent loop,
// recover from an assistant message's text.
func RecoverLeaked(text string) leaked.Result {
	return leaked.Extract(text, leaked.Options{})
}

// ExtractionSteps are the LLM steps a session scenario must script for one
// tool_output call: MapCalls map calls (and one reduce when there are
// several) for full-chunked, or a read-grep sub-agent turn. Mode is the
// strategy the result's header names.
type ExtractionSteps struct {
	Mode     string
	MapCalls int
	ReadGrep bool
}

// SessionExtraction routes tool_output on output as the session component
// will: its default extraction knobs and encoding, the arguments as the
// fake LLM marshals them, and the run's first nonce (fakes.Nonces).
func SessionExtraction(tool, args, output, extractText string) ExtractionSteps {
	tk := tokens.MustNew(tokens.CL100K) // the session component's default encoding
	r := extract.Planner{Config: session.Options{}.ExtractConfig(), Tokenizer: tk}.Route(
		store.Meta{Tool: tool, Args: args, Stats: store.Measure(output, tk)}, output, extractText, (&fakes.Nonces{}).Next(), extract.ModeAuto)
	s := ExtractionSteps{Mode: r.Mode, ReadGrep: r.Mode == extract.ModeReadGrep}
	if r.Mode == extract.ModeFullChunked && r.Plan != nil {
		s.MapCalls = len(r.Plan.Chunks)
	}
	return s
}

// SessionIDs follows the session component's draws from its ID source
// (fakes.IDs, fresh for each run): the store's directory name first (the
// scenario sets no session id), then, in the order of the run, an ID per
// call recovered from an answer's leaked text and a handle per stored tool
// output. The importer makes the same draws, in the same order, to know the
// handle a scripted tool_output call must name.
type SessionIDs struct{ ids fakes.IDs }

// NewSessionIDs returns the draws of a session that has just started.
func NewSessionIDs() *SessionIDs {
	s := &SessionIDs{}
	s.ids.Next() // the store's name
	return s
}

// Answer draws what the agent loop takes for an answer without native tool
// calls and with this text: an ID per call it recovers from it.
func (s *SessionIDs) Answer(text string) {
	for range RecoverLeaked(text).Calls {
		s.ids.Next()
	}
}

// Stored draws the handle of the next stored output, and returns it.
func (s *SessionIDs) Stored() string { return s.ids.Next() }
