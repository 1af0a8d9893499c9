// Package bench holds toolout's Go benchmarks and its strategy comparison.
//
// Benchmarks: inputs are generated deterministically (seeded), fakes stand
// in for LLMs, and every benchmark uses b.Loop with sizes in sub-benchmark
// names, so `make bench` output feeds straight into benchstat.
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
