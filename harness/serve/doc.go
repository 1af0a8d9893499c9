// Package serve is the scripted model of toolout's scenarios as an HTTP
// server (`toolout serve`): an agent in any language points its OpenAI or
// Anthropic SDK (or Codex) at it and gets, request by request, the answers a
// scenario's llm steps script, with the strictness of the in-process fake.
//
// # Routes
//
// [New] (or [Load], which reads the files with toolout's own components)
// serves one or more scenarios; each gets its own scripted LLM
// (fakes.LLM), so their steps never mix, and its own base path,
// "/<id>/v1" (id: the scenario's path under scenarios/ without .yaml,
// each segment URL-escaped); with one scenario "/v1" serves it too.
// Under a base path:
//
//	POST /v1/chat/completions       OpenAI Chat Completions
//	POST /v1/responses              OpenAI Responses (Codex, the Agents SDK)
//	POST /v1/messages               Anthropic Messages
//	POST /v1/messages/count_tokens  Anthropic token counting (no step)
//	GET  /v1/models[/ID]            the model list (one model, "scripted"),
//	                                or any ID, in the OpenAI shape, or the
//	                                Anthropic one when the request carries
//	                                anthropic-version
//
// An OpenAI SDK takes the base URL with "/v1", an Anthropic SDK without.
// Routes are matched on the path alone: a query string (the Anthropic
// SDKs' beta calls post to /v1/messages?beta=true) is ignored.
//
// # The Responses wire
//
// POST /v1/responses is decoded by core/gateway/responses.DecodeRequest and
// answered by fakes/llmwire from the step: its text as a message item, its
// tool calls as function_call items, a call with custom: true as a
// custom_tool_call item (its input the step's text). Ids are numbered per
// scenario, one sequence with the other wires' answers: resp_N for the
// response, msg_N for its message, fc_N_I and ctc_N_I for its I-th call
// (the call_id is the step's id for the call, else call-1, call-2... of
// the scripted LLM). A request with "stream": true gets the API's events
// (fakes/llmwire: byte for byte those of responses.EncodeStream for a
// one-chunk answer, one delta per chunk of the step's respond.stream, no
// [DONE]); error_after ends it with the API's "error" event (code
// "server_error"), and disconnect_after and mid_event cut it as on the
// other wires.
//
// The turn is 1 + the runs of the model's items in input that no user
// message or tool output interrupts: Codex replays a turn as reasoning,
// a message and its function_call items, each function_call_output after
// them, so a turn's items count once, however many calls it made
// (counting every assistant item, as on the chat wire, would make a turn
// with a message and two calls three turns). Behind the gateway each
// expansion round adds one run (its expand_context call and output), and
// the round rule below holds as on the other wires.
//
// previous_response_id: serve keeps the conversation of each response it
// answered on this wire with store not false (the request's messages
// without its system text, and the answer), the last MaxKeptResponses of
// a scenario and at most MaxKeptResponseBytes, and a request that names
// one is matched as the whole conversation: the kept one, then its own
// input, after its own instructions (the API does not carry instructions
// over). So the Agents SDK's and the SDKs' chained calls count their
// turns and match on what came before. A response answered with store:
// false is not kept, as the API keeps none: a continuation of it, or of
// an id serve never answered or no longer keeps, is refused with 400
// (counted as rejected). Codex sends store: false and its whole input
// every time, so it needs nothing kept.
//
// A custom tool call has no form on Chat Completions and Messages: a step
// that scripts one, matched by a request on those routes, is spent and
// answered 422, and the answer is a problem of the scenario ("answered
// POST /v1/chat/completions: 422 ...: apply_patch (post to
// /v1/responses)"). A scenario that names its wire (`wire: openai` or
// `anthropic`) is refused at load instead.
//
// # Claude Code
//
// Claude Code (ANTHROPIC_BASE_URL=http://127.0.0.1:PORT) posts to
// /v1/messages?beta=true, streams, and sends what the Messages API's
// betas add: a "role": "system" message inside messages[] (its
// environment, after the first user message), thinking (adaptive or
// budgeted), context_management, output_config (top level and per
// message), metadata, cache_control on system blocks, message blocks and
// tools, and tools with input_schema and defer_loading. All are accepted
// (core/gateway/anthropic's DecodeRequest): a system message inside
// messages[] is system text, joined after the top-level system, in order,
// into the text a step's match.system sees (fakes.Texts), never the last
// user message, and no turn; the other members are not matched on. An
// answer never holds a thinking block: a step scripts text and tool calls
// only, and Claude Code takes an answer without thinking as it is.
// POST /v1/messages/count_tokens (Claude Code asks it before reading a
// large file) answers {"input_tokens": N}, N the count a /v1/messages
// answer to the same body reports as usage.input_tokens: cl100k_base
// (core/tokens) over every message's text joined by "\n", the system text
// included, tool definitions not. It is refused as a message is (405,
// 415, 413, 408, 400); it asks no step, so it spends none, is no
// violation, and does not count towards [Server.Done].
//
// # Answers
//
// Answers are fakes/llmwire's (its doc gives each wire's events and
// faults), the same bytes the harness's in-process scripted upstream
// answers: each API's real shape, model "scripted", ids numbered per
// scenario (cmpl-1, msg_1, resp_1, ...), usage counted with cl100k_base.
// A stream has one delta per chunk of its step's respond.stream; a fault's
// dropped connection is the handler panicking with http.ErrAbortHandler, as
// net/http drops a response. A stream's delays (respond.stream.delay) are
// real waits here, where the harness moves its stepping clock instead; they
// count against Options.Timeout, past which the stream is cut. An OpenAI
// stream asked with stream_options.include_usage ends with the usage chunk
// before [DONE]. Every answer names its scenario (X-Toolout-Scenario) and a
// completion's answer the tag it was matched with (X-Toolout-Tag).
//
// # Matching
//
// A request is decoded with the API's DecodeRequest and matched by the
// same facts as in process (fakes.Match: tag site, chunk i/n, turn, round,
// substrings of the system text, the last user message or any message).
// HTTP has no core.Tag, so the tag is derived:
//
//   - a request with the header X-Toolout-Tag (core.Tag's String form,
//     "extract.map chunk=2/5", "session.turn turn=3 round=2"; read by
//     core.ParseTag) is matched with that tag;
//   - otherwise the site is the one the scenario's component uses for its
//     model ([Site]: session → session.turn, gateway → gateway.upstream;
//     none for extract and llm, whose steps then need the header), and the
//     turn is the agent's: 1 + the number of assistant messages the agent
//     sent. Inside toolout a TURN-FAILED retry keeps its turn while adding
//     an assistant message; an agent that needs that exactness sends the
//     header.
//
// Behind the toolout gateway (`toolout gateway serve --upstream` serve's
// URL), a request carries X-Toolout-Gateway-Round: 1 for the agent's own
// request, then 2, 3... for each forward after an expand_context round, each
// of which appended one assistant message of the gateway's (the
// expand_context call) and its tool results. The tag's round is that header,
// and the turn leaves the gateway's messages out: 1 + the assistant
// messages - (round - 1). So the agent's turns stay its turns through the gateway, a
// scenario written for an agent passes unchanged directly or through it, and
// a step scripts an expansion round with match {turn: T, round: 2} (a
// request without the header is round 1; match.round in fakes). A round
// header the request's messages cannot hold (round 3 with one assistant
// message) is refused with 400. A gateway scenario (site gateway.upstream)
// scripts one client request whose turns are the gateway's rounds, as its
// in-process component numbers them, so there, and only there, the turn is
// the round.
//
// Strict, as in process: a request no step answers (nothing matches, or
// every match is used up) gets 422 in the API's error shape, whose message
// is the fake's violation with the diff against the nearest step. 422
// because the request is well formed and the script has no answer for it,
// and because no SDK retries it (they retry 408, 409, 429 and 5xx), so
// one unmatched request stays one violation. A step's injected error
// answers with the provider's status: rate_limit 429, timeout 504,
// server_error 500; SDKs retry those by default, so a script that injects
// them either scripts the retries or the client sets maxRetries to 0.
//
// respond.final wraps its text in the request's final-report wrapper
// (<ai-agent-NONCE-FINAL ...>) when the request names one, as in process;
// an agent outside toolout names none, and then gets the bare text
// (fakes.Options.PlainFinal) rather than a violation, so
// scenarios/session/*.yaml answer any agent. An oracle with wrap: final
// still needs the nonce.
//
// The 422's message quotes, for each text the nearest step wants and the
// request lacks, what the request held there (fakes.Quote: the system
// text, the last user message, or every message, whole up to 400 bytes,
// else its first and last 200 bytes and its length), so that a user whose
// agent sends 10 KB of system reminders sees why the step did not match
// without a proxy.
//
// [Server.Problems] lists every breach: violations, unused steps, and
// every request serve refused with a 4xx of its own before the script saw
// it (400 a body it cannot decode, 404, 405, 408, 413, 415: "rejected
// METHOD PATH: STATUS reason", counted by [Server.Rejected]), since a client
// that only ever sent malformed requests has not followed the script and a
// CI job must fail. 503 (busy, stopping) is the server's state, not the
// client's, and is not counted; neither are refusals net/http makes before
// serve sees the request (431, a malformed request line). [Server.Done] is
// closed once every step has answered all its times.
//
// # Bounds
//
// Every request is bounded: a body of at most Options.MaxBodyBytes (16 MiB;
// 413, before the body is read when its Content-Length says so, so a client
// that sent Expect: 100-continue sends nothing), application/json only and
// no Content-Encoding (415), a body that comes within the read timeout (408
// past it), the JSON shape of the gateway (at most 200,000 values, 413, and
// 256 levels, 400), at most Options.MaxConcurrent (64) completions at once
// (503 with Retry-After), and Options.Timeout (fakes.AfterTimeout + 5 s)
// for one completion: a step with after: waits at most fakes.AfterTimeout
// and then fails as a violation, and [Server.Close] ends every such wait at
// once. [Server.HTTPServer] has read-header, read, write and idle timeouts
// and a 64 KiB header limit; [Listen] refuses an address that is not
// loopback unless asked. An answer cut for any reason (Timeout, a failed
// write) drops the connection, as disconnect_after does, rather than end
// the body cleanly, which a client would take for the whole answer.
//
// Concurrent clients each get the answer of their own request (requests
// are matched under the script's lock); a client that goes away only ends
// its own request. A request matched to a step has spent it, as a real API
// bills a request, even if its client goes away before reading the answer;
// one whose client goes away mid-body spends none; one that closes the
// moment it has sent spends its step unless the server notices the close
// before matching it. What the server keeps
// does not grow with the requests it is sent: each scripted LLM is
// fakes.Options.Bounded, keeping each request's tag only and the first
// fakes.MaxKept (1,000) calls, violations and refusals of each scenario,
// the rest counted in one problem.
//
// # Recording
//
// With Options.Record (harness/record.Recorder: toolout serve --record), a
// request no step answers (with its Only, every request) is not a
// violation: the scripted LLM is asked with fakes.LLM.TryStream, which
// records nothing for a miss, and the recorder forwards the request's bytes
// to the wire's path upstream, relays the answer and records the call for
// the scenario's file; a scenario file that does not exist yet is a new
// scenario with no steps (Load). Server.Forwarded counts those requests,
// and the command's report names them. Options.ReplaySpeed plays the
// recorded timing of the steps' streams (fakes.Stream.Replayed).
//
// # Where it lives
//
// Under harness because it serves scenario files: it needs the loader
// (harness.Load) and toolout's components (harness/components), which
// fakes (below the harness) and core (which imports neither) must not
// import; its HTTP bytes are fakes/llmwire's, shared with the harness.
// cmd/toolout/serve.go only wires flags, the listener, signals and the
// report.
//
// # In process
//
// A Server is an http.Handler: a Go test can serve it with
// net/http/httptest and check it afterwards:
//
//	srv, err := serve.Load([]string{"scenarios/session/over-cap-handle.yaml"}, serve.Options{})
//	ts := httptest.NewServer(srv)
//	defer ts.Close()
//	// ... point a client at ts.URL + "/v1" ...
//	srv.Close()
//	err = srv.Check() // every unused step and violation, one per line
package serve
