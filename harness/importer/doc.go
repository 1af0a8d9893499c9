// Package importer turns a production trace (OpenAI-style chat messages)
// into regression scenarios for the harness: a session replay and, for
// leaked calls, a leaked scenario, with secrets redacted, provenance recorded
// and the same bytes on every import.
//
// It refuses, at the trace's line:col, what would make a scenario that fails
// when run or replays a conversation that never happened: bad JSON (the
// column from the byte offset, in characters), a byte that is not UTF-8, a
// missing or mistyped field (at the field's value), a tool result that
// answers no call of an earlier assistant message (or a call already
// answered: each result answers the latest open call with its id, since some
// models reuse ids turn after turn), and a trace with no user message other
// than TURN-FAILED retries. A result is named by its call's tool name; the
// message's own name field is ignored.
//
// An imported session scenario scripts exactly the LLM steps its run will
// take. The importer does not guess them: it asks harness/components how the
// session component routes the extraction (components.SessionExtraction)
// and what the leaked parser recovers (components.RecoverLeaked), and it takes
// the handle the run will draw from fakes.IDs (the run's second id: the first
// names the session's store) rather than writing one down.
package importer
