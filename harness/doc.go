// Package harness runs toolout's YAML scenarios and compares what they did
// with golden files.
//
// A scenario (scenarios/<id>.yaml) names a component, its config and input,
// the scripted LLM steps (fakes.LLM), and what must hold. Load decodes it
// strictly: unknown fields (with a did-you-mean), wrong types and invalid
// values are all reported at once, each as file:line:col. A Runner runs it
// with fresh deterministic sources (sequential ids and nonces, a stepping
// clock), a scratch folder and the scripted LLM, checks the expectations and
// the LLM's strictness (a request no step answers, a step left unused), and
// renders a transcript: a txtar of the component's sections, every LLM
// request and answer (concurrent map calls ordered by chunk, messages over
// ElideAbove bytes shortened around their SHA-256), the log and the expected
// failure. The transcript must equal golden/<id>.txtar byte for byte;
// Runner.Update rewrites goldens, and with CI set a missing golden fails. A
// mismatch is shown as a unified diff (go-internal's anchored diff, O(n log n)
// on any pair of transcripts); the archive is written by golang.org/x/tools'
// txtar, and a body holding a line that reads as a file marker is stored
// quoted (txtar.Quote, its section named "NAME (quoted)").
//
// Bounds: a scenario file holds at most MaxScenarioBytes (1 MiB; larger
// payloads belong in a file: or generate: input), a single YAML document, and
// aliases that expand it by at most 1,048,576 values (a "billion laughs" file
// is an error at the offending alias, not a hang). Invalid UTF-8 and control
// characters are errors at their line:col. Generated input is sized before it
// is generated. A payload file (file:) must be a regular file (a FIFO is
// refused before it is opened, so a load never blocks) of at most
// MaxPayloadBytes (64 MiB).
//
// Components (Default): extract, finalreport, gateway, leaked, llm, schema,
// session and store, each a Spec registered with Register; their config,
// input and expect shapes are documented on their types.
//
// Import turns a production trace (OpenAI-style chat messages) into
// regression scenarios: a session replay and, for leaked calls, a leaked
// scenario, with secrets redacted, provenance recorded and the same bytes on
// every import. It refuses, at the trace's line:col, what would make a
// scenario that fails when run or replays a conversation that never
// happened: bad JSON (the column from the byte offset, in characters), a
// byte that is not UTF-8, a missing or mistyped field (at the field's
// value), a tool result that answers no call of an earlier assistant
// message (or a call already answered: each result answers the latest open
// call with its id, since some models reuse ids turn after turn), and a
// trace with no user message other than TURN-FAILED retries. A result is
// named by its call's tool name; the message's own name field is ignored.
package harness
