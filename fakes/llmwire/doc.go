// Package llmwire is the scripted model's HTTP face: it turns what a
// scripted [fakes.LLM] answers (a [fakes.Stream], or its error) into the
// answer an HTTP client of the provider's API gets, on the OpenAI Chat
// Completions wire ([OpenAI]), the Anthropic Messages wire ([Anthropic])
// and the OpenAI Responses wire ([Responses]). The harness's in-process upstream of the gateway and
// toolout serve both answer through it, so a scenario's model answers the
// same bytes in process and over a socket.
//
// # Answers
//
// [Wire.Decode] reads a request body as the provider would (the
// core.Request the scripted LLM matches, and whether it asks to stream).
// The [Answer] is then one of:
//
//   - [Wire.BadRequest]: 400 with the wire's error object, for a body that
//     does not decode;
//   - [Wire.Error]: the LLM's error as the provider reports it: 429 for
//     core.ErrRateLimited, 504 for a deadline, 500 otherwise, the error's
//     text in the wire's error object;
//   - [Wire.Reply] without a stream: 200 with the whole JSON body
//     (chat.completion or message, model "scripted", the given id);
//   - [Wire.Reply] with a stream: 200, Content-Type text/event-stream, the
//     events as the provider streams them. OpenAI: a head chunk with the
//     role, one chat.completion.chunk per text piece and per tool-call
//     argument piece (a call's first piece brings its id and name), a
//     chunk with the finish_reason, then "data: [DONE]". Anthropic:
//     message_start, a text block with one text_delta per piece, a
//     tool_use block per call with one input_json_delta per piece,
//     message_delta with the stop_reason, message_stop. Responses: the
//     events of core/gateway/responses.EncodeStream (response.created,
//     response.in_progress, per output item added, deltas, done,
//     response.completed; each data with its type and sequence_number
//     first), byte for byte for a one-chunk answer, each delta event
//     (output_text, function_call_arguments, custom_tool_call_input)
//     once per piece; the sequence numbers count the events as sent.
//
// A custom tool call (core.ToolCall.Custom) has a form on the Responses
// wire only (a custom_tool_call item); [Wire.Reply] on the other wires
// returns [ErrCustomCall].
//
// # Faults
//
// A stream's fault comes from its step's respond.stream (see package
// fakes). error_after K: the events up to the K-th content delta (for K =
// 0, up to the first delta, or the final events when there is none), then
// an error event in the wire's shape ({"error":{...}} as a data-only chunk
// on OpenAI, "event: error" on Anthropic, the "error" event with code
// server_error on Responses), then a clean end.
// disconnect_after K: the same events, then the connection drops
// ([Answer.Cut]): no end event, no clean end of the body. With mid_event,
// the event that follows the K-th chunk goes out too, but only its first
// half ([Answer.Partial] bytes; the drop lands inside its data line).
//
// # Delays
//
// A stream's delay after its k-th chunk ([fakes.Stream.Delays]) becomes
// the [Event.Delay] of the event that follows that chunk: the next delta,
// the block's end or the end events after the last chunk, the error
// event of error_after K, or the half event of a mid_event cut. Delays
// past the fault are dropped with the events. Who waits is the sender's
// choice: [Answer.ServeHTTP] waits for real ([Sleep], at most [MaxDelay],
// ended by the request's context); [Answer.Response] and [Answer.Write]
// call the given [Wait], which the harness uses to move the scenario's
// clock instead (the gateway's upstream timeout is armed on that clock,
// so a delay past it ends the stream with no sleep).
//
// # Sending an answer
//
// [Answer.ServeHTTP] (an Answer is an http.Handler) and [Answer.Write]
// send it over a real connection, flushing after each event, waiting an
// event's Delay first, and dropping the connection at a cut (ServeHTTP
// panics with http.ErrAbortHandler; Write returns [ErrCut] and leaves the
// drop to its caller). [Answer.Response] is the answer as an in-process
// http.RoundTripper returns it: its body reads the same bytes and ends
// with io.ErrUnexpectedEOF at a cut, as a dropped connection reads.
// [Answer.Bytes] is the body as sent, for a transcript.
//
// Choices where the APIs leave room: SSE events carry one "data:" line
// (the JSON is compact), no "id:" or "retry:" fields and no comments;
// the only header is Content-Type (no Cache-Control), so an answer
// relayed by the gateway carries nothing the scripted model did not
// decide. A real wait is bounded by [MaxDelay] and by the request's
// context.
package llmwire
