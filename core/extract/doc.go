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
// Full-chunked: one map call per chunk, tagged extract.map with chunk i/n, at
// most Config.Concurrency in flight. The system message is the map prompt
// (prompts/map.tmpl); the user message is the chunk's bytes. One chunk means
// no reduce: its answer is the result. Several mean one extract.reduce call
// whose prompt (prompts/reduce.tmpl) lists the map answers in chunk order,
// whatever order they finished in. Every answer must carry the session
// nonce's final-report wrapper (closing tag optional, core/finalreport);
// "NO RELEVANT DATA FOUND" answers are successes and reach the reduce. The
// strategy fails on an LLM error, a missing wrapper, a plan over its chunk
// limit, a map prompt that leaves no budget, or a reduce prompt that does not
// fit the window.
// Every map call runs even when one fails, so the outcome and the log never
// depend on which call finished first. LLM errors are not retried here:
// retrying transport errors is the LLM client's job. Once the context ends,
// no further map call starts (the strategy has failed anyway). A panic in a
// map call's goroutine (the LLM client, or anything under it) is recovered
// there and fails the strategy like an error ("extract.map chunk=2/5: panic:
// …", the stack in the log): left alone it would end the process before the
// session could remove its store directory.
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
//     (16 KiB by default); the marker comes on top.
//   - Config is the one definition of the extraction knobs: scenarios,
//     bench sweeps, the CLI's flags and the session bind to its fields by
//     their yaml/json names, through one range table ([Knobs]). A value means
//     what it says (0 overlap is none); [DefaultConfig] holds the defaults,
//     and [New] refuses a Config that [Config.Validate] refuses, the zero
//     Config among them (a zero context window plans nothing).
package extract
