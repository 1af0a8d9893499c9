// Package bench holds toolout's Go benchmarks and its strategy comparison.
//
// Benchmarks: inputs are generated deterministically (seeded), fakes stand
// in for LLMs, and every benchmark uses b.Loop with sizes in sub-benchmark
// names, so `make bench` output feeds straight into benchstat.
//
// # Goals
//
// `make bench-ratios` (the command in bench/ratios) checks the project's
// speed and memory goals, one goal per figure, written in
// bench/ratios/goals.go. It runs exactly the benchmarks the goals name, in
// rounds, prints each figure's median with its goal and OK or OVER, and
// exits 1 when one is outside its goal. Machines are shared and noisy, so a
// ratio goal divides by a baseline measured in the same round on the same
// input: chunk planning by counting alone (timed in pairs within
// BenchmarkChunkPlanOverCount), BenchmarkSchemaSummarize by
// BenchmarkSchemaSummarizeBaseline (json.Unmarshal of the same bytes), the
// leaked scan of LLM-like text by BenchmarkLeakedStdlib (bytes.IndexByte
// per wrapper, json.Unmarshal per body). Speed goals in MB/s and ms are
// absolute, for the project's 2-core machine. The tiktoken-go rows
// (BenchmarkCountPeer) show ours/peer time with no goal; a token count that
// differs from ours fails the benchmark. Chunk planning memory is
// BenchmarkChunkPlan's B/byte metric (bytes allocated per input byte).
//
// # Strategy comparison
//
// Corpus and Compare (`toolout bench strategies`) run a deterministic
// corpus of large tool outputs with planted facts through truncate,
// head-tail, json-aware, in-tool pagination, full-chunked, read-grep,
// compress+expand and tool_output's own routing, each answered by oracle
// models that report exactly the facts they are shown. The three cutters
// cut the output to the byte cap with their defaults and put the cut, and
// only it, into the main context. json-aware on output that is not JSON
// falls back to head-tail's cut, and its note says so; its output must be
// valid JSON, or the comparison ends with an error. Per strategy and case it
// measures tokens into the main context, total tokens over every LLM call,
// LLM calls, time and fact recall; WriteTable/CSV/JSON/SVG render the
// results and CompareBaseline flags recall drops and token growth. Token
// counts and recall are the same in every run; only times vary.
//
// The corpus (CorpusCases) holds plain cases (logs, JSON API dumps, CSV,
// code search, facts at the start, middle and end) and harder ones: facts
// in JSON record fields, a stack trace mid-log, a 5 MB single-line JSON
// array, and facts placed across every cut of the no-overlap chunk plan
// (with core/chunk itself), so only the overlap keeps them whole. A case's
// facts are numbered from 100 times its place in CorpusCases, so a
// selection (--cases) gives the full run's rows. Each Compare keeps its
// stores in a temporary directory of its own; token counts are measured as
// if it were PromptBase, so they do not depend on its name or on TMPDIR.
//
// # With a model
//
// CompareWith answers every call an oracle answers with a core.LLM
// (`toolout bench strategies --llm URL`): the extractor's calls get its own
// requests; the main model is asked, tagged "bench.main turn=N"
// (SiteMain), the question followed by what reached its context, at
// exactly the points where the oracle reads it, and its reply is judged by
// the whole facts (FactRE) it holds. Each tool result follows the
// assistant call that produced it, so the conversation is one a chat API
// accepts; that framing is not metered. Metering is the oracles', so the
// two tables compare: every call counts the cl100k_base tokens of its
// request's messages and tool call arguments and of its answer, whatever
// usage the server reports; a model answering as the oracles do
// (scenarios/bench/oracle-model.yaml, under `toolout serve`) gives the
// oracle table, row for row. Pagination stops before a page that would
// overflow the main context. A model error ends the comparison with no
// rows, rather than passing for the extractor's fallback. A Model names who
// answered ("oracle", or "NAME at URL"); a baseline is compared only with a
// run of the Same model.
//
// # Parser-parity corpus
//
// LoadParserCorpus reads the fixtures of Dynamo's parser-parity harness,
// vendored in testdata/parsercorpus (README there), and MeasureParserCorpus
// runs a parser on each case and compares its calls with the peers'
// (Dynamo, vLLM, SGLang). Choices: calls are equal when their names and
// their arguments as JSON values are, in order (a peer that returns the
// arguments as a raw string, as vLLM does for broken JSON, agrees with no
// object); "the peers agree" means two of the three peers that recorded
// calls returned equal calls, so a case recorded with Dynamo's output alone
// never counts as agreed; Dynamo's calls recovered are matched one to one,
// in any order. ExtractCorpusCalls gives the case's tools to core/leaked and
// turns its pythonic option on in the pythonic family only, as a user would.
package bench
