// Package responses is the OpenAI Responses API wire format (POST
// /v1/responses): the request and response codec, the server-sent event
// stream, and the gateway's [Wire] over them.
//
// # Requests
//
// [DecodeRequest] states how a request maps to core.Request: instructions,
// and system and developer messages, become system messages; a string
// input is one user message; call items (function_call, custom_tool_call,
// and every "*_call" item with a call_id) become the assistant's tool
// calls, and every "*_call_output" item a tool message; reasoning,
// compaction, item_reference and unknown items are checked to be objects
// and not mapped (none is a turn a scripted model matches on, and the
// encrypted ones cannot be read); store and previous_response_id are
// checked, not mapped.
//
// Every other member is accepted as JSON and not read. A member this
// package reads that appears twice in an object is refused (another
// reader of the same bytes could take either value). Errors are [*Error]
// values: the input, line:col and byte offset, the JSON path of the value
// (input[3].call_id) and the problem, on one line.
//
// [EncodeRequest] writes a core.Request as a body DecodeRequest reads back
// to the same request (system messages stay role "system" messages in
// their place, a tool message answering a custom call is a
// custom_tool_call_output).
//
// # Responses
//
// [EncodeResponse] writes a response object as the API does and as the
// official SDKs parse it (openai 6.x for Node: responses.create,
// streaming or not, and responses.stream's accumulated final response):
// id, object "response", created_at 0 (a scripted server wants fixed
// bytes; the SDKs do not read it), status "completed" ("incomplete" with
// incomplete_details.reason "max_output_tokens" for FinishReason
// "length"), model, output (a message item with one output_text part when
// the response has text or no call; a function_call item per call, or a
// custom_tool_call item with its input for a Custom one; item ids derived
// from the response id: msg_X, fc_X_i, ctc_X_i), and usage with
// total_tokens. [DecodeResponse] reads a response object back (a failed
// response is an error with its message).
//
// # Streams
//
// [StreamOf] renders any response object as the events the API sends for
// it (each "event: TYPE" and one "data:" line whose object starts with
// "type" and "sequence_number"), every value copied from the body byte for
// byte; [EncodeStream] is StreamOf over EncodeResponse. [Assemble] is the
// inverse: the response object of the terminal event, with the items of
// response.output_item.done events put in its output when that is empty
// or absent (servers differ: the API repeats the items in
// response.completed, some proxies send them only as their own events).
// Deltas are not needed and are not joined, so Assemble is linear in its
// input. A stream cut before its terminal event is [ErrIncomplete]; an
// "error" event is [ErrStreamError] with its code and message.
//
// # The gateway's wire
//
// [Wire] is the gateway.Wire of POST /v1/responses (route "responses";
// the proxy's OpenAI upstream serves it beside Chat Completions, and POST
// /v1/responses/compact and every other path under /v1/responses pass
// through untouched). Like the other wires it reads a request once, and
// edits bodies by splicing (core/jsonspan): every byte outside
// the values it edits reaches the upstream as the client sent it.
//
//   - Tool outputs: every input item whose type ends in "_call_output"
//     (function_call_output, custom_tool_call_output,
//     local_shell_call_output, apply_patch_call_output, and types to
//     come) whose "output" is a string or a list of input_text parts
//     (read as for the other wires: the texts concatenated, so N bytes
//     expand to exactly those N bytes). An output that is not text
//     (shell_call_output's stdout/stderr objects, a screenshot, a list
//     with an image or a file) is not read: compressing it would replace
//     the whole value. A compressed output becomes one string, the marker
//     and the compressed text, which the API accepts for every one of
//     these items. Outputs are named by the call item with their call_id
//     (its "name", or its type less "_call": local_shell), for
//     skip_tools with OpenAI's tool names ([Provider]).
//   - Never touched, byte for byte: reasoning (its encrypted_content
//     included), compaction (encrypted, opaque), item_reference, messages,
//     calls, and every item type this package does not know.
//   - The question the compressor is given is the text of the last user
//     message, or the input when it is a string.
//   - expand_context is offered as a function tool (no "strict": the
//     API's default applies; its schema is strict-compatible). A response
//     calls it with a function_call item; the expansion round appends to
//     the input the response's output items as the model wrote them
//     (reasoning with its encrypted_content, messages, server-side calls
//     such as web_search_call), without its real calls (function_call,
//     custom_tool_call, and every call item with a call_id: the client
//     runs those, and the model makes them again after the expansion),
//     then one function_call_output per phantom call. With "store": false
//     a reasoning item without encrypted_content is left out (the API
//     could not resolve it); a string input becomes a list that starts
//     with it as a user message. StripPhantom removes the phantom
//     function_call items from output, and the expand_context tool from
//     the response's "tools": the API echoes the request's tools in every
//     response object (the gateway strips it from the answer it returns
//     and from the response.created, in_progress and completed events it
//     relays), so the client never sees a tool it did not offer.
//   - previous_response_id (or conversation) continues history the
//     provider holds: the gateway compresses the items the request
//     carries, and Read reports the member (gateway.Conversation's
//     HiddenHistory) for the proxy's log line and metric. The expansion
//     rounds keep the member as sent, so the model sees the same history;
//     with store on, the provider then also holds the rounds the gateway
//     added, phantom calls and originals included, under the final
//     response's id, which the client continues from.
//   - Streams are assembled and re-streamed with [Assemble] and
//     [StreamOf]; errors use the OpenAI error object, which the Responses
//     API shares with Chat Completions.
package responses
