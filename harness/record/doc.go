// Package record turns live traffic into a scenario (toolout serve
// --record UPSTREAM): a request that the scenario's steps do not answer
// (every request, with Only) is forwarded to the real model, its answer
// relayed to the client as it arrives, and the exchange kept.
//
// Contract: the upstream gets the request's bytes unchanged, its content
// and API headers (Content-Type, Accept, User-Agent, anthropic-*,
// openai-*), and the key from the environment (OPENAI_API_KEY as a
// bearer token for the OpenAI wires, ANTHROPIC_API_KEY as x-api-key for
// Anthropic's), never the client's. An upstream that does not answer is
// ErrUpstream and nothing reaches the client (serve answers 502); once
// its answer's headers came, status, headers and body are relayed, each
// read flushed. A call is recorded only when its answer is whole, of
// status 200 and at most MaxAnswerBytes: the request and the answer
// (JSON, or an event stream's text in a string, with its timing) are
// redacted as toolout import redacts (importer.Redactor: every JSON string
// on its own, so a pattern cannot break the JSON) and appended as one line
// to the scenario's call log, LogPath(scenario), in the format toolout
// import reads for the wire (chat-completions-log, anthropic-messages,
// responses-log). After each call the scenario and its payload files are
// written again from the whole log, as `toolout import --final` writes
// them: a session scenario that replays the conversation to its last
// answer, which `toolout test` runs and `toolout serve` serves. Nothing
// unredacted reaches disk, and no key at all.
//
// [Capture] is the gateway's side (its config's capture:): a
// proxy.Capturer that writes each conversation passing through the gateway
// to a call log of its own, capture-WIRE-KEY.jsonl, one line a request
// answered whole: the request and the answer as the client sent and got
// them, and a "gateway" member ([importer.CaptureGateway]: the compressed
// forward, when it was answered, the gateway's settings
// (CaptureOptions.Settings), each output's action, the rounds and the
// expansions), redacted as above; toolout import makes a session and a
// gateway scenario of it. A conversation is its caller and its
// opening (system text, first message's role and text). Capture never
// blocks: one goroutine writes behind a bounded queue; a full queue, a
// line over MaxBytes and a write the disk refuses are counted (Count,
// Stats) and logged, never returned to the request; past MaxFiles or
// MaxBytes the oldest files go first.
//
// Choices where the issue was silent: one scenario records one
// conversation of one wire (a call of another wire is left out, and
// logged; a second conversation's calls make the log no longer import,
// and the scenario keeps the first); a conversation whose last call asked
// for tools is not a scenario yet, and the file is written once an answer
// comes; the recorded steps are not served during the recording (the
// replay is another run).
package record
