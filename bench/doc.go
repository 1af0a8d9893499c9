// Package bench holds toolout's Go benchmarks and its strategy comparison.
//
// Benchmarks: inputs are generated deterministically (seeded), fakes stand
// in for LLMs, and every benchmark uses b.Loop with sizes in sub-benchmark
// names, so `make bench` output feeds straight into benchstat.
//
// Goals (`make bench-ratios`, the command in bench/ratios): issue 17's table
// of speed and memory goals lives in bench/ratios/goals.go, one goal per
// figure, each naming its row of the issue. The command runs exactly the
// benchmarks the table names, in rounds (each benchmark once per round, five
// rounds in `make bench-ratios`), and prints each figure's median with its
// goal and OK or OVER; it exits 1 when one is outside its goal. Machines are
// shared and noisy, so a ratio goal divides by a baseline measured in the
// same round on the same input: chunk planning by counting alone, timed in
// pairs within BenchmarkChunkPlanOverCount (BenchmarkChunkPlan and
// BenchmarkChunkCount time each side on its own, for benchstat; their ratio
// swings by a tenth from run to run on the 2-core VM),
// BenchmarkSchemaSummarize by BenchmarkSchemaSummarizeBaseline
// (json.Unmarshal of the same bytes into any), the leaked scan of LLM-like
// text (input=llm-text, one call per ~3 KB) by BenchmarkLeakedStdlib
// (bytes.IndexByte for each wrapper, json.Unmarshal of each body). Speed goals
// in MB/s and ms are absolute, for the project's 2-core machine. The
// pkoukk/tiktoken-go rows (BenchmarkCountPeer) show ours/peer time with no
// goal; a token count that differs from ours fails the benchmark and the
// command. Chunk planning memory is BenchmarkChunkPlan's B/byte metric: bytes
// allocated per input byte, the input itself not counted. `ratios -in FILE`
// checks a saved output, such as `make bench BENCHCOUNT=3`'s.
//
// Strategy comparison (Corpus, Compare; `toolout bench strategies`): a
// deterministic corpus of large tool outputs with planted facts is run
// through truncate, head-tail (core/headtail), json-aware (core/jsonaware),
// in-tool pagination, full-chunked, read-grep, compress+expand and
// tool_output's own routing, each answered by oracle models that report
// exactly the facts they are shown. The three cutters (truncate, head-tail,
// json-aware) cut the output to the byte cap with their defaults and put
// the cut, and only it, into the main context, in one call. json-aware on
// output that is not JSON falls back to head-tail's cut (the cutter that
// keeps the tail and the errors), and its note says so; its output must
// be valid JSON, or the comparison ends with an error, so every
// `make bench-check` checks it on every JSON case. Per strategy and case
// it measures tokens into the main context, total tokens over every LLM
// call, LLM calls, time and fact recall; WriteTable/CSV/JSON render the
// results, WriteSVG charts recall against main-context tokens (what a
// strategy costs the agent's own context; total tokens are in the legend
// and tooltips), and CompareBaseline flags recall drops and token growth.
// Token counts and recall are the same in every run; only times vary.
//
// The corpus (CorpusCases) holds the plain cases (logs, JSON API dumps,
// CSV, code search, facts at the start, middle and end) and the harder
// ones: a JSON array of records with facts in record fields (first, last,
// error-like, one ordinary middle record), logs with a stack trace in the
// middle, a 5 MB single-line JSON array, and a single-line text with a
// fact across every cut of the no-overlap chunk plan. Facts across cuts
// are placed with the chunk planner itself (core/chunk with BudgetFor's
// budget): each straddles a cut of the plan without overlap, so only the
// overlap keeps it whole. A case is built alone when selected, and its
// facts are numbered from 100 times its place in CorpusCases, so a
// selection (--cases) gives the full run's rows.
//
// # With a model
//
// CompareWith runs the same comparison with a core.LLM answering every call
// an oracle answers (`toolout bench strategies --llm URL`, a
// core/gateway/openai.Client): the extractor's map and reduce calls and
// the read-grep sub-agent's turns get the extractor's own requests; the
// main model is asked, with tag "bench.main turn=N" (SiteMain), the
// question followed by what reached its context (a tool result: the
// truncated output, the compressed one and then its expansion, each page
// read, tool_output's answer), at exactly the points where the oracle
// reads it. Its reply is judged as the oracle's reading is: the whole facts
// (FactRE) it holds, against the case's. Each tool result is preceded by
// the assistant call that produced it (the case's tool, Read with its
// page's offset and limit, tool_output with its arguments), so the
// conversation is one a chat API accepts; that framing is not metered.
//
// Metering is the oracles', unchanged, so the two tables compare: every
// call counts the tokens (cl100k_base, as PromptBase) of its request's
// messages and tool call arguments and of its answer, whatever usage the
// server reports. The main model's answer is counted where the oracles'
// always was (after truncation, compression or expansion, and after the
// last page) and not where the oracles answered nothing: a paging turn,
// and the answer after tool_output. A model answering as the oracles do
// (scenarios/bench/oracle-model.yaml, served by `toolout serve`) gives the
// oracle table, row for row. Pagination stops before a page that would
// overflow the main context (ContextWindow less MaxOutputTokens, the room
// kept for the answer, as for an expansion): that page is never sent, to
// the oracle or to a model, as an agent cannot take it in. A model error (after the client's
// retries) ends the comparison with that error and no rows, rather than
// passing for the extractor's fallback to truncation.
//
// A Model names who answered ("oracle", or "NAME at URL"); WriteTable
// prints it on the first line, WriteCSV in a first column, WriteJSON as
// "model", WriteSVG under the title. ReadBaseline reads it back (a file
// without it is the oracles'), and a baseline is compared only with a run
// of the Same model.
//
// Each Compare keeps its stores in a temporary directory of its own, removed
// when it returns, so comparisons running at once (two packages' tests, two
// users) never touch each other's files. The read-grep prompt names that
// directory; token counts are measured as if it were PromptBase, so they do
// not depend on the random name or on TMPDIR.
//
// # Parser-parity corpus
//
// LoadParserCorpus reads the fixtures of Dynamo's parser-parity harness,
// vendored in testdata/parsercorpus (README there), and MeasureParserCorpus
// runs a parser on each case and compares its calls with the peers' (Dynamo,
// vLLM, SGLang): issue 36's figures. Choices where the issue is silent: calls
// are equal when their names and their arguments as JSON values are, in
// order (a peer that returns the arguments as a raw string, as vLLM does for
// broken JSON, agrees with no object); "the peers agree" means two of the
// three peers that recorded calls for the case returned equal calls, so a
// case recorded with Dynamo's output alone (the corpus's first schema)
// counts for Dynamo's calls but never as agreed; Dynamo's calls recovered
// are matched one to one, in any order. ExtractCorpusCalls gives the case's
// tools to core/leaked and turns its pythonic option on in the pythonic
// family only, as a user would for a model that writes them.
package bench
