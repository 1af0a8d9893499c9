// Package agent is the generic agent loop shared by the main session and the
// read-grep sub-agent: turns over core.LLM with a set of tools, final-report
// detection, the leaked-call hook, and TURN-FAILED retries. It knows nothing
// of the store or the extractor; the session plugs those in through
// Options.Tools and Options.AfterTool.
//
// One turn: the loop sends the conversation (tagged Options.Site and the turn
// number) with the turn's tools. An answer holding the final report with the
// session nonce (core/finalreport) ends the run. Otherwise, when the answer
// has no native tool calls but has text, the leaked-call fallback runs: this
// is the spec's single hook point (docs/contracts.md, section 4).
// Extracted calls replace the turn's calls, the cleaned text its content, and
// "has text" is recomputed from the cleaned text (the spec's open question 1,
// answered yes). Dropped blocks are logged with their reasons.
//
// A turn with calls runs each of them, at most MaxToolCallsPerTurn (10 by
// default); a call beyond that, a call to a tool not offered this turn, or a
// tool that fails gets a "Tool error: …" result. Such a result never ends the
// loop, so an unknown tool in leaked text is an error result, not TURN-FAILED.
// A turn with neither calls nor a report gets the exact TURN-FAILED message of
// the spec's trace and is asked again with the same turn number, at most
// MaxRetries times (2 by default). After that the turn is spent.
//
// Running out of turns (MaxTurns, 15 by default) without a report gives a
// synthetic result (Result.Synthetic), which the read-grep strategy treats as
// a failure. An LLM error ends the run and is returned with its turn number.
package agent
