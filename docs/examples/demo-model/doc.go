// Demo-model is the scripted model that docs/gateway.md's walkthrough ("toolout gateway
// serve", "Against a scripted model" and "Replicas on Redis") runs as the upstream of
// `toolout gateway serve`:
//
//	go run ./docs/examples/demo-model --listen 127.0.0.1:9000
//
// (docs/gateway.md builds it and runs the binary in the background: a signal sent to a background
// `go run` stops the go command, not the model.)
//
// It prints "demo-model: listening on http://ADDR" once it listens, and exits with status 0 on
// SIGINT or SIGTERM, after the requests in flight (at most 5 s).
//
// # Contract
//
// It answers POST /v1/chat/completions (OpenAI), POST /v1/messages (Anthropic) and POST
// /v1/responses (OpenAI's Responses API), with and without "stream": true, in each API's shape;
// any other path is 404, any other method 405.
// What it answers depends only on the request, so every run prints the same bytes:
//
//   - In the gateway's first round (header X-Toolout-Gateway-Round: 1), when a message of the
//     request holds a marker <<<SHADOW:shadow_…>>>, it calls expand_context with the first such
//     shadow id, {"shadow_id": "shadow_…"} (OpenAI: tool call call_demo, finish_reason
//     "tool_calls"; Anthropic: tool_use block toolu_demo, stop_reason "tool_use"; Responses: a
//     function_call item fc_demo with call_id call_demo). It does so
//     whether or not the request offers the tool, as a model may. Header X-Demo-Expand: no turns
//     the call off.
//   - Otherwise it answers with text: "saw the original: yes, LINE" where LINE is the first line
//     of a message holding "status=FAILED" (only the walkthrough's uncompressed log has one), else
//     "saw the original: no".
//
// Messages are read as JSON: a marker or line counts in any string under "messages" (the
// Responses API's "input"), in order, after its escapes are decoded.
//
// Where the APIs leave a choice, it writes JSON as Python's json.dumps does by default, as the
// walkthrough's outputs show: ", " and ": " separators, non-ASCII escaped as \uXXXX,
// keys in a fixed order, and a newline after a JSON body. The id is chatcmpl-demo, msg_demo or
// resp_demo (its message item msg_demo), created 1767225600 (created_at on the Responses API), the model the request names (demo-model when it names none), and the usage
// fixed (10 tokens in, 5 out). A stream sends the text, or the call's arguments, in pieces of 12
// characters: OpenAI "data:" chunks ending with "data: [DONE]" (a usage chunk first when
// stream_options.include_usage is true), Anthropic events from message_start to message_stop,
// Responses events from response.created to response.completed (each "event: TYPE", its data's
// type and sequence_number first).
//
// # Bounds
//
// A request body is read up to --max-body-bytes (64 MiB: the gateway forwards up to its own
// 16 MiB limit plus the originals it expands); a larger one is 413. The server drops a client
// that takes more than 10 s to send its headers or 60 s to send its request, gives up writing an
// answer after 60 s, and closes a keep-alive connection idle for 120 s. A refused body (413, or
// 400 when it is not a JSON object) gets the API's error JSON: OpenAI {"error": {"message",
// "type"}}, Anthropic {"type": "error", "error": {"type", "message"}}.
//
// With --verbose it logs each request to stderr: its path, round, size and what it answered.
package main
