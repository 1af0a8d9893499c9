package importer

// The formats of a trace (ImportOptions.Format). The package doc states
// what every format shares; each constant states how its format is read.

// FormatAuto tells the format from the content: the first format of
// formats whose detect holds, else FormatMessages.
const FormatAuto = "auto"

// FormatMessages is a JSON list of OpenAI-style chat messages, bare or
// under "messages".
const FormatMessages = "messages"

// FormatChatCompletionsLog is an OpenAI Chat Completions log in JSONL, one
// LLM call a line, each line {"request": {"messages": [...], ...},
// "response": {"choices": [{"message": {...}}], ...}} (the request may be
// under "body" instead, and the response wrapped as {"status_code": ...,
// "body": {...}}, as in the Batch API; blank lines are skipped; only
// choices[0] counts). Auto takes a trace that is not an Anthropic log and
// whose first value is an object with "request" or "response" and no
// "messages" for a chat completions log. Each request must start with the
// one before it and that call's reply (the same role, content text, tool
// calls and tool_call_id); the conversation is the last request's messages
// then its reply. Errors name the log's line:col. A sample log of three
// calls is scenarios/regress/traces/chat-completions-log.jsonl.
const FormatChatCompletionsLog = "chat-completions-log"

// FormatAnthropicMessages is a log of Anthropic Messages API calls,
// {"request": {"model", "system", "messages", "tools", ...}, "response":
// {"type": "message", "role": "assistant", "content": [...], ...}}: JSONL,
// one call a line; or one call pretty-printed (the input's first line is a
// lone '{'); or a JSON list of calls (the input starts with '['), accepted
// because a log exported as JSON rather than JSONL is that list. Auto
// takes a trace for it when its first call (or its list's first element)
// has "request" or "response" and no "messages", and its response says
// "type": "message" (or "error", the API's error body), or has no type,
// "content" and no "choices" (a Chat Completions response has choices and
// no type); when the response tells nothing, a request with a top-level
// "system" (Chat Completions puts the system prompt among the messages).
// The calls are one conversation as in a chat completions log: each
// request must extend the one before it and that call's reply (the same
// role, text, tool calls and tool_use_id; tool inputs compared as JSON,
// since a client decodes a reply's input and encodes it again), else it is
// refused at the first message that differs (at its role, tool_use_id or
// content, whichever differs first); the conversation is the last
// request and its reply. Keys are matched as encoding/json matches them.
// The content blocks map onto chat messages:
//
//   - "system", a string or a list of text blocks, is a first system
//     message; text blocks of a user message or of the system prompt are
//     joined by "\n" (separate paragraphs of the prompt), those of an
//     assistant message with nothing between them (what the agent read: the
//     API splits one reply around its citations, the spaces inside the
//     blocks), as are those of a tool_result's content (one output, read as
//     toolout's gateway reads it: N bytes of text in any number of blocks
//     are those N bytes).
//   - a message of role "system" inside "messages" (Claude Code sends its
//     environment so, after the first user message; "user", "assistant" and
//     "system" are the roles read, any other is refused at the role) is a
//     system message in its place, read as "system" is (a string or text
//     blocks; its content required), left out when empty; members of a
//     message other than role and content (Claude Code's output_config) are
//     ignored, and so is cache_control wherever it stands. The top-level
//     system comes first in the scenario's input.system.
//   - tool_use blocks are the assistant message's tool calls: id, name, and
//     the input object (absent: {}) compacted, its keys in their order, as
//     the arguments.
//   - a user message's tool_result blocks are one tool message each, in
//     order, answering its tool_use_id (the latest unanswered tool_use with
//     that id of an earlier assistant message, else an error at the id);
//     its other blocks, if it has any, follow as a user message. So a
//     message's index, which --at and the provenance name, is its place in
//     this mapped conversation (the system prompt first), not in
//     request.messages; toolout import lists the candidates.
//   - thinking and redacted_thinking blocks are not replayed: the scripted
//     model of a scenario answers with text and tool calls, which is all
//     the agent acts on, and a thinking block's signed content is only ever
//     sent back to the API as it came. Nor are they lost: the scenario's
//     provenance counts them ("omitted: [thinking x1]"), over the messages
//     it uses, each message with the most blocks any call recorded for it
//     (agents may drop the thinking of earlier turns from their requests).
//   - an image or document block (in a user message or a tool_result)
//     becomes a placeholder text, "[image not imported]" or "[document not
//     imported]", joined as a text block would be, and is counted in
//     omitted too: a scenario replays text, and refusing a whole trace
//     because the user attached a screenshot would lose the regression it
//     holds. is_error: true on a tool_result is counted as "is_error" (the
//     scenario's fake tool gives its text as an ordinary output).
//   - any other block (server_tool_use, web_search_tool_result,
//     search_result, tool_reference, ...), a thinking block in a user
//     message, media, thinking or a tool_result in an assistant message,
//     or a tool_use in a user message is refused at its "type": replaying
//     it as text, or leaving it out, would replay a conversation that did
//     not happen.
//
// Errors name the JSON path in the call as well as the line:col, e.g.
// "t.jsonl:3:120: request.messages[2].content[0].tool_use_id: \"toolu_9\"
// answers no tool_use of an earlier assistant message". A response whose
// type is not "message" (a failed call) is refused, and so is a request
// that ends with an assistant message (a prefill, which its reply
// continues: two turns in the scenario for one of the model's). A sample log of three
// calls is scenarios/regress/traces/anthropic-messages.jsonl; the README
// beside it names each sample trace's format.
const FormatAnthropicMessages = "anthropic-messages"

// FormatResponsesLog is a log of OpenAI Responses API calls, {"request":
// {"model", "instructions", "input", "tools", "previous_response_id", ...},
// "response": {"id", "object": "response", "status", "output": [...], ...}},
// laid out as an Anthropic log is (JSONL, one object pretty-printed, or a
// JSON list); a response may be wrapped as {"status_code", "body"} and the
// request be under "body" (the Batch API's lines), or the response be the
// text of its event stream (see the package doc, Event streams). Auto takes
// a trace for it when its first call has no "messages" and its request has
// "input", or its response is an event stream whose events are response.*,
// or an object with "output" or "object": "response". The input is a string
// (the user's message) or a list of items; instructions are the call's own
// (the API does not carry them over to the next call), so each call's
// conversation (the history its previous_response_id names, then its input)
// must extend the one before it with that call's reply, as in an Anthropic
// log (tool calls' arguments compared as JSON), and the conversation is the
// last call's instructions (a first system message), its conversation and
// its reply. A previous_response_id must name the response of an earlier
// call of the log (else it is refused: the history is held by the provider,
// which the log cannot show); a call that continues the call before it so
// holds that call's messages themselves, without copying or comparing them,
// so a chain of N calls costs N, not N squared. A response whose status is
// not completed or incomplete, or that holds an error, is refused, and so is
// a request whose input ends with the assistant's turn (a prefill) and an
// output item that is not the model's (a user message, a *_call_output).
//
// Its items (and a Codex rollout's) map onto chat messages:
//
//   - a message (type "message", or an input item {"role", "content"}
//     without a type) of role user is a user message; developer and
//     system are a system message (left out when empty); content is a
//     string or a list of parts: input_text, output_text and text parts
//     are its text (a user's or a system's one a line, an assistant's
//     joined with nothing between), a refusal part its refusal,
//     input_image and input_file a placeholder ("[image not imported]",
//     "[document not imported]") counted in omitted; any other part is
//     refused at its type.
//   - the assistant's items in a row are one assistant message, the
//     model's turn: its messages' texts (one a line), and its calls as
//     tool calls: function_call (call_id, name, arguments kept as
//     written, absent: {}), custom_tool_call (call_id, name, input: free
//     text, scripted as a custom call: custom: true, input: the text), and
//     any other *_call item the agent runs (local_shell_call, shell_call, apply_patch_call,
//     computer_call), named by its type without "_call", its members
//     other than type, id, call_id and status as the arguments, compact.
//   - each *_call_output item (function_call_output,
//     custom_tool_call_output, local_shell_call_output, ...) is a tool
//     message answering its call_id (the latest open call with that id
//     of an earlier turn, else an error at the call_id): its output a
//     string, a list of parts (their texts concatenated, one output), or
//     other JSON written compact.
//   - reasoning items (encrypted), and the calls of tools the provider
//     runs itself (web_search_call, file_search_call,
//     code_interpreter_call, image_generation_call, mcp_call, ...), are
//     not replayed: the scripted model answers with text and calls, which
//     is all the agent acts on, and a server-side tool's result reached
//     the model on the provider's side; they are counted in the turn's
//     omitted ("reasoning x1"). compaction and compaction_summary items
//     (history the provider compacted, encrypted) and Codex's
//     ghost_snapshot items (its undo points, never sent to the model) are
//     counted in the next message's omitted.
//   - an item_reference is refused (it names an item the provider
//     stored, which the log does not hold), and so is any other item
//     type: replaying it as text, or leaving it out, would replay a
//     conversation that did not happen.
//
// The session scenario imported from a Responses log or a Codex rollout
// names wire: responses: its
// scripted model answers in the Responses API's bytes, as the trace's
// did, and a custom call can only be scripted on that wire.
//
// Errors name the item's JSON path (request.input[3].call_id,
// response.output[0].type; a rollout's payload.content[1].type) after
// the line:col. The sample Codex rollout and Responses log are
// harness/importer/testdata/codex-rollout.jsonl and
// codex-responses-log.jsonl, from a real run (testdata/README.md).
const FormatResponsesLog = "responses-log"

// FormatCodexRollout is the rollout file OpenAI's Codex CLI writes for
// each session (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): one
// {"timestamp", "type", "payload"} a line. Auto takes a trace whose first
// value has a "payload" and a "type" among session_meta, response_item,
// event_msg, turn_context and compacted. The first session_meta's base
// instructions ({"text": ...}, or a string; "instructions" in Codex's
// earlier rollouts) are a first system message; each response_item's
// payload is an item, in file order; a compacted line (Codex compacted
// the history) is counted in the next message's omitted; every other line
// (event_msg, turn_context, and the types later versions add:
// world_state, token_usage_record, ...) records what Codex showed or
// decided, not what the model read, and is skipped. The rollout records
// the base instructions Codex resolved when the session started; the
// requests may carry fewer (codex exec 0.169.0 leaves out the planning
// section, its tools holding no update_plan): the scenario's system text
// is the rollout's.
//
// Its items are read as FormatResponsesLog's, and errors name the item's
// JSON path (payload.content[1].type) after the line:col.
const FormatCodexRollout = "codex-rollout"

// FormatOTelGenAI is OpenTelemetry GenAI spans exported as OTLP JSON: one
// export, {"resourceSpans": [{"resource": ..., "scopeSpans": [{"scope": ...,
// "spans": [...]}]}]}, or several, one a line, as the OTel collector's file
// exporter writes them (blank lines skipped; a line may be an export of
// logs, {"resourceLogs": ...}, whose GenAI events are read). Auto takes a
// trace whose first value is an object with "resourceSpans" or
// "resourceLogs". Attribute values are OTLP AnyValues (stringValue, intValue
// as a string of digits or a number, doubleValue, boolValue, bytesValue,
// arrayValue, kvlistValue), one field each. An LLM call is a span whose
// gen_ai.operation.name is chat, text_completion or generate_content; or,
// without that attribute, whose openinference.span.kind is LLM, whose
// llm.request.type is chat, or that holds OpenLLMetry's or OpenInference's
// messages (below); invoke_agent, execute_tool and every other span are
// skipped, whatever their nesting. The calls are ordered by
// startTimeUnixNano (spans that start at the same nanosecond in file order)
// and are one conversation as in a chat completions log: each call's input
// must extend the one before it with that call's output, else it is refused
// at the first message that differs ("chat span N" naming the calls in that
// order); the conversation is the last input and its output. The chat spans
// of one traceId must chain so. An application instrumented without a parent
// span (the default of the OpenTelemetry, OpenLLMetry and OpenInference
// instrumentations of an SDK) makes each call a trace of its own, so traces
// are stitched by the same rule: a trace whose first call extends the last
// call of an earlier conversation (in start order) continues it: the longest
// such conversation, and of equally long ones the one continued last.
// Conversations are found by a key of their last call's messages (FNV-1a,
// each match checked message by message), so stitching is linear in the
// calls' inputs however many traces there are. A trace that holds one
// conversation imports it; one that holds several (two agents' runs in one
// export) is refused, listing each (its first traceId, how many traces and
// chat spans, its first user message), and ImportOptions.TraceID (toolout
// import --trace-id) picks the one that holds that trace: importing every
// conversation of a busy export as scenarios at once would bury the one the
// user came for, and their names and cuts differ. A conversation that one of
// its traces breaks (a call that does not extend the one before it in the
// same trace) is refused at the message that differs.
//
// ImportFiles reads a trace given in several files, OTLP JSON exports
// only: the spans in one and the log records in another, as one file
// exporter per signal writes them, or the spans of several; their exports
// are read as one file's (a blank file adds none; another format among
// them is refused at its first byte), errors name the file of the
// problem, the provenance's trace is the files' names, "spans.json,
// logs.json", and its SHA-256 that of their bytes one after the other.
// One signal's file alone says that the other is needed: log records
// whose spanId names no span, a chat span without its events, or log
// records only. The CLI names the scenario after the first file.
//
// A call reads, as the conventions from 1.37 record it,
// gen_ai.system_instructions (a list of parts: a first system message),
// gen_ai.input.messages and gen_ai.output.messages (its first message, the
// first choice, is the reply), each structured or as JSON text in a
// stringValue; a message is {"role", "parts", "name"?, "finish_reason"?}.
// The parts map onto chat messages:
//
//   - text parts are the message's text, joined by "\n";
//   - tool_call parts ({id, name, arguments}) are its tool calls, the
//     arguments an object written compact, keys in their order, or a
//     string kept as it is (absent or null: {});
//   - each tool_call_response part ({id, response}, or "result" as in the
//     conventions' first drafts; a string as it is, other JSON compact) is
//     a tool message of its own, in its place, so a message's index counts
//     them (toolout import lists the candidates);
//   - blob, uri and file parts become a placeholder text, "[image not
//     imported]" (their modality, else their type), joined as a text part
//     would be, and are counted in the provenance's omitted, as an
//     Anthropic image is;
//   - reasoning parts are not replayed, and any other part (server tool
//     calls, compaction, a custom type: the schema allows any) neither:
//     the provenance counts them by type ("omitted: [reasoning x1]").
//
// An error in JSON text that a string holds is named where it is in the
// trace: the offset in the decoded text is mapped back through the
// string's escapes (escapeMap). A span without those attributes is read
// as the conventions before 1.37 record a call, as events in time order
// (file order for the same nanosecond, span events before log records):
// gen_ai.system.message, gen_ai.user.message, gen_ai.assistant.message and
// gen_ai.tool.message are the input, the gen_ai.choice of index 0 the
// reply. Those conventions put the fields in the event's body: content (a
// string, or a list of parts whose text counts), role, tool_calls ([{id,
// function: {name, arguments}}]) and id, and a choice's index,
// finish_reason and message ({role?, content, tool_calls}). The events
// are read as span events, whose attributes hold the fields (a span event
// has no body), or one attribute, gen_ai.event.content, holds them all as
// JSON (as Azure's SDKs write them); and as log records (resourceLogs,
// their name in eventName or the attribute event.name) with the fields
// in their body, given to the span their spanId names (a GenAI record
// whose spanId names no span of the file is refused at the record). A
// structured field may be JSON text in a string.
//
// A span without the attributes of 1.37 may instead hold its messages as
// flattened, indexed attributes, as the instrumentations that most
// production traces come from write them; the first of these conventions
// whose keys a span holds reads it (so a span is read whole in one
// convention, and a trace may mix them span by span):
//
//   - OpenLLMetry (Traceloop), and the vendors that copied it before the
//     conventions of 1.28: gen_ai.prompt.N.role, .content, .tool_call_id,
//     .name and .tool_calls.J.id|name|arguments are the input; the choices
//     gen_ai.completion.N.* likewise, the first (lowest N) the reply (its
//     .refusal the text when there is no .content). Its first releases'
//     llm.prompts.N / llm.completions.N are read the same way.
//   - OpenInference (Arize Phoenix's instrumentations of OpenAI,
//     LangChain, LlamaIndex, ...): llm.input_messages.N.message.role,
//     .content, .name, .tool_call_id and
//     .tool_calls.J.tool_call.id|function.name|function.arguments, and
//     llm.output_messages.N.message.* likewise, the first the reply; a
//     message's .contents.K.message_content.type|text parts, when it has
//     them, are its text (one a line; an image part the placeholder
//     "[image not imported]", counted in omitted, and any other type
//     counted in omitted too).
//
// Where the conventions are silent: the keys under a prefix are rebuilt
// as a tree, in file order (so that an error is the same on every run); an
// index is a place, not a size: indexes may be sparse (a gap is no
// message: instrumentations skip a value they cannot write) and in any
// order, but an index over 99 999 or with a leading zero, a key of more
// than 12 segments under its prefix, a value that another key extends,
// and indexes mixed with names are refused at the attribute, so a huge
// index costs nothing. A reply without a role is the assistant's; any
// other message needs one of system, developer, user, assistant, tool. A
// content that is the JSON of a list of OpenAI content parts (each
// "type" text, input_text, refusal, image_url, input_image, image,
// input_audio, audio, file or document) is read as parts, as
// OpenLLMetry writes a list: the text parts one a line, media a
// placeholder counted in omitted; any other string, JSON or not (a tool's
// JSON result), is the text as it is. Tool call ids and names are
// required, as in gen_ai parts (OpenInference's older instrumentations
// omit the id: such a trace is refused at the call, the id being what ties
// a result to its call); arguments are kept as the model wrote them, JSON
// or not, as gen_ai parts' string arguments are. A tool message names the
// call it answers (tool_call_id). The request's tools
// (llm.request.functions.K.*, llm.tools.K.tool.json_schema) are not read:
// a scenario's fake tools are those its calls name, as for every format.
//
// Samples: scenarios/regress/traces/otel-genai.json (an agent's three chat
// spans), otel-genai-events.jsonl (the older events), otel-openllmetry.json
// and otel-openinference.json (three chat spans each).
const FormatOTelGenAI = "otel-genai"
