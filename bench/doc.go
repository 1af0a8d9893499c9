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
// through truncate, in-tool pagination, full-chunked, read-grep,
// compress+expand and tool_output's own routing, each answered by oracle
// models that report exactly the facts they are shown. Per strategy and case
// it measures tokens into the main context, total tokens over every LLM
// call, LLM calls, time and fact recall; WriteTable/CSV/JSON/SVG render the
// results and CompareBaseline flags recall drops and token growth. Token
// counts and recall are the same in every run; only times vary.
//
// Each Compare keeps its stores in a temporary directory of its own, removed
// when it returns, so comparisons running at once (two packages' tests, two
// users) never touch each other's files. The read-grep prompt names that
// directory; token counts are measured as if it were PromptBase, so they do
// not depend on the random name or on TMPDIR.
package bench
