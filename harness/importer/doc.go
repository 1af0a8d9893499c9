// Package importer turns a production trace (OpenAI-style chat messages,
// a log of LLM calls, or OpenTelemetry GenAI spans) into regression
// scenarios for the harness: a session replay and, for leaked calls, a
// leaked scenario, and, for a trace the gateway captured, a gateway
// scenario (see [CaptureGateway]), with secrets redacted, provenance
// recorded and the same bytes on every import. Each import point (the message cut at) makes its
// own scenario; Cut tells which one Import will take.
//
// # Formats
//
// A trace comes in one of six formats (ImportOptions.Format), each
// described on its constant: [FormatMessages] (a JSON list of chat
// messages), [FormatChatCompletionsLog], [FormatAnthropicMessages] and
// [FormatResponsesLog] (logs of API calls), [FormatCodexRollout] (the file
// Codex CLI writes per session), and [FormatOTelGenAI] (OpenTelemetry GenAI
// spans or events, in the conventions of 1.37 or earlier, OpenLLMetry's or
// OpenInference's). [FormatAuto] tells them from the content: OTel first,
// then a Codex rollout, a Responses log, an Anthropic log, a chat
// completions log, else a list of messages. Sample traces are in
// scenarios/regress/traces (its README names each one's format) and
// harness/importer/testdata.
//
// Every format is read into one chat conversation; everything after the
// reading (pairing, replay, redaction, provenance) is the same for all. A
// log's calls are one conversation: each call's request must extend the
// one before it with that call's reply, else the trace is refused at the
// first message that differs; the conversation is the last request and its
// reply, and a message's index (which --at and the provenance name;
// toolout import lists the candidates) is its place in it. What a scenario
// cannot replay (thinking and reasoning, server-side tools, compacted
// history) is left out and counted in the provenance's omitted; media
// become a placeholder text ("[image not imported]"), counted too; what
// would replay a conversation that did not happen is refused at its type.
// The session scenario's input.system is every system (and developer)
// message before the cut, in order, joined by a blank line: the system text
// the model had read when it got the cut's message.
//
// # Event streams
//
// In a chat completions, Anthropic or Responses log, a call's response may
// be the text of the event stream the API sent, in a string, as a proxy or a
// streaming agent (Claude Code always streams) captures it: OpenAI's "data:"
// chunks and "data: [DONE]", or Anthropic's "event:"/"data:" lines from
// message_start to message_stop. It is assembled into the message the API
// would have sent without streaming, by the gateway's assemblers
// (core/gateway/openai's Wire.Assemble, core/gateway/anthropic's
// AssembleStream: linear in the stream, thinking and tool_use blocks
// included), and read as that message. A stream cut short (no [DONE] or
// finish_reason, no message_stop) is refused: a partial answer must not pass
// for a whole one. An error in the stream is named at its place in the log,
// through the string's escapes, with the stream's own line:col; an OpenAI
// chunk that is not JSON names its line in the stream; an error in the
// assembled message is named at the string, "response (assembled from its
// event stream): ...". Auto tells an Anthropic stream by its message_start.
//
// # Refusals, pairing and replay
//
// It refuses, at the trace's line:col, what would make a scenario that fails
// when run or replays a conversation that never happened: bad JSON (the
// column from the byte offset, in characters), a byte that is not UTF-8, a
// missing or mistyped field (at the field's value), a tool result that
// answers no call of an earlier assistant message, and a trace with no user
// message other than TURN-FAILED retries.
//
// Every tool result is paired with its call. A native call first, by
// tool_call_id: the latest open call with that id, since some models reuse
// ids turn after turn. Else a call the model leaked as text, which the agent
// recovered and gave an id of its own that the trace cannot tie to the text:
// the earliest unanswered leaked call with the tool message's name, else the
// earliest unanswered one of the latest message that leaked calls. A result
// is named by its call's tool name. A leaked cut's calls are answered by the
// results recorded for them after the cut.
//
// An imported session scenario scripts exactly the LLM steps its run will
// take. The importer does not guess them: it asks harness/components how the
// session component routes the extraction (components.SessionExtraction),
// what the leaked parser recovers (components.RecoverLeaked), and which IDs
// the session draws from fakes.IDs (components.SessionIDs: the store's name,
// one per recovered call, one per stored output, in the order of the run),
// and it replays the calls, fake tools giving their outputs in call order,
// to make the same draws: the handle of the cut's stored output and the
// number of outputs stored come from that replay, never from literals. The
// session's byte cap is set to the importer's, so both store the same
// results. A call's arguments that nest deeper than 64 levels are scripted
// raw, as written on one line: YAML's indentation grows with the depth.
//
// A text over PayloadBytes (4 KiB) goes to a file beside the scenario and
// the scenario names it, {file: NAME}: a tool result (NAME.msgN.txt, N its
// message), the user message the session starts from (NAME.msgN.txt too),
// the system prompt (NAME.system.txt) and a leaked scenario's text. A coding
// agent's system prompt and first user message are tens of KB, which inline
// would bury the scenario. The scripted tool_output call quotes such a user
// message's first KiB only. The assistant's texts that the steps script stay
// inline (a scenario over harness.MaxScenarioBytes is refused, naming the
// biggest message).
//
// # Gateway captures
//
// A call log whose every line has a "gateway" member with the gateway's
// settings is a capture (the gateway config's capture:, written by
// harness/record): besides the session scenario, Import writes
// NAME-gateway.yaml and its requests, NAME-gateway.reqN.json. Choices
// where the issue was silent: the gateway scenario holds every request of
// the capture, not only those up to the session's cut (the gateway's
// store carries state from one request to the next); the clock advances
// by the time between two requests as stamped; a shadow id the capture
// names is mapped to the one the scenario's gateway issues for the same
// output redacted; a remote compressor (api, external_provider) becomes
// the scripted external_provider model, answering each call from the
// forward (the compressed text, a failure as a server error, an output it
// did not make smaller with as many bytes); a round's text or real calls
// beside its expand_context calls, and a capped loop's last calls, are not
// recorded, so not replayed; a capture without the settings makes no
// gateway scenario; a capture the session import refuses makes neither.
//
// # Memory
//
// An import holds the trace once and what it reads from it; the goal is a
// peak of at most 10 times the trace plus 64 MB (bench/importmem, make
// import-mem, measures the real binary). Choices made for it: a trace's
// parts are found in place (child, skipValue and splitList walk the bytes
// with core/jsonlex, copying nothing), a single file is the trace itself, a
// part is a core/jsonspan tree (its nodes positioned in the trace through
// jsonspan.Options.Pos, through a string's escapes for the JSON an OTel
// attribute holds) that decodes a string once and keeps one string per
// object key and per short value (Options.Intern), a step's call arguments stay JSON until the step is
// rendered, and a scenario is rendered a part at a time (its head, each
// step, its expect: yaml.v3 holds every event of a document until the
// document ends), the same bytes as one document; past
// harness.MaxScenarioBytes it is only counted, so a refusal names the size
// without holding the scenario. toolout import sets the runtime's soft
// memory limit to 6 times the trace plus 40 MiB (GOMEMLIMIT wins), so that
// an import's garbage is collected before the heap doubles. The lists that
// grow with a trace are built an item at a time and dropped once read
// (lazyTree, jsonspan.Options.Lazy and Node.Each): a Responses call's
// request.input and response.output,
// and a span's events. Not streamed: the trace is read whole (positions
// are byte offsets into it), and the rest of an OTLP export, a Responses
// call or a rollout line is parsed as a tree before it is read. A JSON
// syntax error is jsonspan's (one shape for toolout: what was wanted, at
// the trace's line:col), and so is its bound: nesting deeper than 512
// levels is refused, as the gateway and serve refuse it.
package importer
