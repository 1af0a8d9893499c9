// Package importer turns a production trace (OpenAI-style chat messages)
// into regression scenarios for the harness: a session replay and, for
// leaked calls, a leaked scenario, with secrets redacted, provenance recorded
// and the same bytes on every import. Each import point (the message cut at)
// makes its own scenario; Cut tells which one Import will take.
//
// A trace comes in one of two formats (ImportOptions.Format; FormatAuto
// tells them from the content): FormatMessages, a JSON list of chat
// messages, bare or under "messages"; and FormatChatCompletionsLog, an
// OpenAI Chat Completions log in JSONL, one LLM call a line, each line
// {"request": {"messages": [...], ...}, "response": {"choices": [{"message":
// {...}}], ...}} (the request may be under "body" instead, and the response
// wrapped as {"status_code": ..., "body": {...}}, as in the Batch API; blank
// lines are skipped; only choices[0] counts). Auto takes a trace whose first
// value is an object with "request" or "response" and no "messages" for a
// log. The calls of a log are one conversation: each request must start
// with the one before it and that call's reply (the same role, content
// text, tool calls and tool_call_id), else the log is refused at the first
// message that differs; the conversation is the last request's messages
// then its reply, and a message's index is its place in it. Everything
// after the reading (pairing, replay, redaction, provenance) is the same
// for both; errors name the log's line:col. A sample log of three calls is
// scenarios/regress/traces/chat-completions-log.jsonl.
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
// results.
package importer
