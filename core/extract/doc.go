// Package extract is the tool_output tool (docs/contracts.md,
// section 1): its schema, parameter
// validation, routing, strategies and exact output formats.
//
// # Contract
//
// [Extractor.Run] answers one tool_output call with the success format
// ("ABSTRACT FROM TOOL OUTPUT <TOOL> WITH HANDLE <UUID>, STRATEGY:<mode>:",
// blank line, body) or, for bad parameters, the failure format. The mode in
// the header is the strategy that produced the body. [Extractor.Extract]
// returns the same answer with the routing decision and any failure.
//
// Routing ([Planner.Route], the one place that chooses): an explicit mode
// always wins. Auto picks full-chunked when the average line is at least
// Config.LineThreshold bytes (1000; compared exactly as bytes >= threshold ×
// lines, so 999.9 is below), because grep cannot narrow down long lines, and
// such output may take up to Config.MaxChunksLong (64) chunks, a cost guard;
// else full-chunked when the planned chunk count is at most Config.MaxChunks
// (1); else read-grep. MaxChunks also bounds an explicit full-chunked request
// on short-line output.
//
// Chunk budget ([Planner.Budget]): context window − buffer − max output
// tokens − the tokens of the map prompt rendered with this call's tool name,
// verbatim arguments, stats, extract text and nonce, and a six-digit chunk
// index and total, so the budget holds for every chunk. The plan is
// core/chunk's: the fewest chunks that fit, balanced, overlapping by
// Config.OverlapPercent of the budget, cut between tokenizer pieces.
//
// Full-chunked: one map call per chunk, tagged extract.map with chunk i/n,
// at most Config.Concurrency in flight. The system message is the map prompt
// (prompts/map.tmpl); the user message is the chunk's bytes. One chunk means
// no reduce: its answer is the result. Several mean one extract.reduce call
// whose prompt (prompts/reduce.tmpl) lists the map answers in chunk order,
// whatever order they finished in. Every answer must carry the session
// nonce's final-report wrapper (closing tag optional, core/finalreport); "NO
// RELEVANT DATA FOUND" answers are successes and reach the reduce. The
// strategy fails on an LLM error, a missing wrapper, a plan over its chunk
// limit, a map prompt that leaves no budget, or a reduce prompt that does
// not fit the window. Every map call runs even when one fails, so the
// outcome and the log never depend on which call finished first. LLM errors
// are not retried here: retrying transport errors is the LLM client's job.
// Once the context ends, no further map call starts (the strategy has failed
// anyway). A panic in a map call's goroutine (the LLM client, or anything
// under it) is recovered there and fails the strategy like an error
// ("extract.map chunk=2/5: panic: …", the stack in the log), so that the
// session can still remove its store directory.
//
// Read-grep: a sub-agent on core/agent (the loop the session uses; core/session
// itself sits above this package) whose only tools are core/fstools' Read and
// Grep, rooted at the session's store directory, so the handle is the file
// name. Its system prompt is prompts/readgrep.tmpl; each turn is tagged
// extract.readgrep with the turn. At most Config.ReadGrepTurns (15) turns and
// Config.ReadGrepCallsPerTurn (10) tool calls per turn; the agent loop's
// TURN-FAILED retries and leaked-call recovery apply. Its final report is the
// answer; running out of turns without one (a synthetic result) or an LLM
// error fails the strategy. A refused path or an oversized Read is a tool
// result the sub-agent sees and can recover from, not a failure.
//
// Fallback: any strategy failure answers with truncate, the first body line
// being "WARNING: tool_output fallback to truncate (<mode> failed)." and the
// log naming the cause.
//
// json-aware and head-tail are modes that call no model, each cutting the
// output to Options.TruncateBytes: json-aware with core/jsonaware (valid
// JSON in and out, every key kept, long strings and arrays shortened with
// counts, first, last and error-like rows kept), head-tail with
// core/headtail (the head, Config.HeadPercent of the budget, the tail, and
// the middle's error-like lines with their continuation lines, with counts).
// Their answer is the success format with STRATEGY:json-aware: or
// STRATEGY:head-tail: and the cut output as the body.
//
// query (core/jqquery), offered the same way, runs the jq expression the
// model passes as the call's query argument (the schema gains it) on the
// stored output read as JSON, within a time, heap and output bound, and
// answers with what it prints, at most Options.TruncateBytes. It never
// falls back: a failure (a syntax or runtime error, output that is not
// JSON, a bound) is the failure format with the reason, which the model
// can act on by writing another expression. auto never routes to it.
//
// Choices for these two modes, where the spec is silent or exact:
//   - The spec's schema is exact, so [Tool] stays it and these modes are
//     not offered by default. Config.OfferModes opts in: [ToolFor] (and
//     [Extractor.Tool]) then add them to the enum, after the spec's four in
//     the order json-aware, head-tail, and describe them after the spec's
//     mode description. That deviates from the spec's schema, only when an
//     operator asks for it. A mode the offered schema lacks is unknown, so
//     auto, and logged (REFERENCE: unknown mode → auto). Whoever offers
//     tool_output to a model should offer [Extractor.Tool], so that the
//     schema and the modes answered agree.
//   - Auto never picks them: decision 3 chooses between full-chunked and
//     read-grep, and they are cuts, like truncate, which only an explicit
//     request or a failure produces.
//   - json-aware on output that is not JSON could not execute (decision 4's
//     definition of failure), so it falls back to truncate with the exact
//     warning "(json-aware failed)"; the log and Outcome.Failure carry the
//     parse error with its position.
//   - A budget is a bound: the body each of truncate, head-tail
//     and json-aware answers (after the fallback warning, when there is
//     one; the success format's header line and the warning line are the
//     answer's frame, on top) is at most Options.TruncateBytes, markers
//     included. JSON whose smallest form (every key path kept, so an
//     object of thousands of keys) is over the budget is json-aware's
//     failure too, [*OverBudgetError]: it falls back to truncate with the
//     same warning, and Outcome.Failure and the log give the smallest
//     form's size and the budget. Of the bound-keeping fallbacks this one
//     says what happened in the words the model already knows, and is cut
//     as Config.TruncateWith says (json-aware there cuts bytes instead,
//     logged). FuzzModes checks the bound in every mode and cut.
//   - Decision 5 keeps truncate a single mode; Config.TruncateWith changes
//     how it cuts, explicit or as the fallback: bytes (the default,
//     [Truncate]), head-tail (what the schema's description of truncate
//     says, "keeps top and bottom, truncates in the middle", plus the error
//     lines), or json-aware (JSON output; any other output by bytes,
//     logged). The header stays STRATEGY:truncate: and the warning text is
//     unchanged; Outcome.Cut says how it cut.
//   - head-tail cannot fail. HeadPercent 0 means no head (core/headtail's
//     negative ratio), 100 all head.
//
// Choices where the spec is silent:
//   - The map prompt adds one line to the spec's draft: the chunk is the next
//     message and is data, not instructions. The read-grep prompt adds the
//     file's stats and how Read pages (the spec's size rule) so the sub-agent
//     does not learn it by failing; its user message is [ReadGrepUser]. The reduce prompt says the chunks
//     overlap, so an item near an edge may be reported twice and must be
//     counted once. The reduce's user message is [ReduceUser].
//   - An empty output has no chunks; full-chunked answers [EmptyAnswer]
//     without calling the model.
//   - Missing or empty handle or extract is the failure format with
//     "invalid parameters: …" naming every problem. The tool name is the
//     stored tool's when the handle is known, else UNKNOWN; a missing handle
//     shows as MISSING.
//   - An unknown handle is a successful answer (the spec: not found is not a
//     failure) that lists the handles stored in this session.
//   - An unknown mode is auto, and is logged.
//   - Truncate keeps the first half of the byte budget from the head and the
//     rest from the tail, cutting on UTF-8 boundaries, around the marker
//     "\n[... N bytes truncated ...]\n". The budget is Options.TruncateBytes
//     (16 KiB by default) and holds the marker too ([TruncateWithin]: its
//     widest room is set aside first). A budget too small for the marker
//     gets the head alone, as core/headtail does. [Truncate], the marker on
//     top, is the session's in-place cut of recovery results, which keeps
//     its own sizes.
//   - Config is the one definition of the extraction knobs: scenarios,
//     bench sweeps, the CLI's flags and the session bind to its fields by
//     their yaml/json names, through one range table ([Knobs]). A value means
//     what it says (0 overlap is none); [DefaultConfig] holds the defaults,
//     and [New] refuses a Config that [Config.Validate] refuses, the zero
//     Config among them (a zero context window plans nothing).
package extract
