// Package jqquery runs a jq expression that a model wrote on a stored
// tool output, the way programmatic tool calling lets a model filter a
// result with code of its own: only what the expression prints reaches
// the context. It uses github.com/itchyny/gojq, a maintained jq in Go.
//
// # Contract
//
//   - [Run] reads the output as JSON: one value, or a stream of values (JSON
//     lines), each given to the expression in turn, as jq does. Output that
//     is not JSON is an [*Error] of kind NotJSON that says so and where.
//   - The results are compact JSON, one per line, at most MaxOutputBytes in
//     all: past that, Run stops and says how many bytes it kept.
//   - Bounds: the expression runs at most Timeout (gojq checks its context
//     at every instruction), and while it runs the process's heap may grow
//     by at most MaxHeapBytes (a watchdog reads runtime/metrics every few
//     milliseconds and stops it): `[range(1e9)]` and `def f: f; f` end with
//     an error, not with the process. An output of more than MaxInputBytes
//     is refused before it is decoded, and an expression of more than
//     MaxExprBytes before it is parsed. Decoding is not watched: the input
//     bound keeps it to about ten times MaxInputBytes of heap. An
//     expression nested 30,000 deep runs without a deep Go stack.
//   - Every failure the model can act on is an *Error whose text says what
//     went wrong and what to try instead: a syntax error with gojq's
//     message, a runtime error ("cannot iterate over: string"), a bound.
//     No environment variable reaches the expression ($ENV is empty),
//     modules cannot be imported, and input/inputs read nothing.
//
// # Choices where the spec is silent
//
//   - The heap bound is the growth of the whole process's heap while the
//     query runs, not of the query's own allocations (Go cannot count
//     those): other work in the process counts against it. The default
//     (256 MiB) is far above what a session does meanwhile.
//   - Numbers keep their digits (json.Number): an id of 20 digits prints
//     as it was.
package jqquery
