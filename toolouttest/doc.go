// Package toolouttest runs toolout's checks from a Go module's own tests:
// a folder of scenarios as subtests with golden files, the contract check
// of a core.LLM implementation, the contract check of a gateway.Store
// backend, and a scenario's scripted model served over HTTP for an agent
// under test. It is the one package a user's tests import; it needs no
// test framework (plain testing), and its checks run the same code as
// toolout's own tests and `toolout test`.
//
// # Scenarios as subtests
//
//	func TestScenarios(t *testing.T) { toolouttest.Run(t, "scenarios") }
//
// Run finds every *.yaml and *.yml file under the path (a folder, or one
// file), and runs each as a subtest named by its path below that folder
// without its extension ("session/over-cap-handle"), so `go test -run
// 'TestScenarios/session/'` runs a part. Each scenario runs with fresh
// fakes (sequential ids and nonces, a stepping clock, its scripted LLM)
// exactly as `toolout test` runs it, and its transcript (the result, every
// LLM request and answer) must equal its golden file byte for byte. The
// golden is found from the scenario's path as `toolout test` finds it:
// under a folder named scenarios, golden/<id>.txtar beside that folder;
// elsewhere golden/<name>.txtar in the scenario's own folder; with
// Options.GoldenDir, GoldenDir/<id>.txtar. A file that does not load fails
// its subtest with every problem at its line:col; the others still run.
// Subtests run one after another, in file order: a scenario takes
// milliseconds, and Run returns once all have run.
//
// Goldens are written, never compared, for the scenarios that pass when
// the test binary gets -update (`go test -run TestScenarios -update`, or
// `go test ./agent -update` for one package), when UPDATE_GOLDEN=1, or with
// Options.Update; a failing scenario's golden is never written. A missing
// golden is created (and said with t.Log), unless CI=true, where it fails.
// A failing subtest leaves the transcript it got beside the golden
// (golden/<id>.txtar.got, for .gitignore) and ends with the commands that
// diff and accept it, typed at the root of the test's module:
//
//	to diff it:   diff -u agent/golden/refund.txtar agent/golden/refund.txtar.got
//	to accept it: go test ./agent -run '^TestScenarios$/^refund$' -update
//
// The -update flag: importing this package defines the boolean flag
// "update" on the test binary's command line, as golden-file libraries do,
// unless a package initialized earlier defined it (then its value is read
// instead). So a test package that imports toolouttest must not define
// its own -update (flag.Bool panics with "flag redefined: update"): drop
// it; toolouttest's is the same flag. `go test ./... -update` fails in the
// packages that do not import toolouttest ("flag provided but not
// defined"): name the package, or use UPDATE_GOLDEN=1 go test ./....
//
// # The LLM contract
//
// TestLLM (an error, like testing/fstest.TestFS) and CheckLLM (one subtest
// per property, like log/slog/slogtest.Run) check a core.LLM against the
// promises of the seam, with a request the LLM can answer LLMCalls times:
//
//   - cancelled: a request whose context is already cancelled returns an
//     error wrapping context.Canceled, within 5 s, without an answer;
//   - deadline: one whose deadline has passed returns an error wrapping
//     context.DeadlineExceeded, likewise;
//   - concurrent: LLMCalls requests at once all return, each a well-formed
//     response (every tool call with an ID, a name and arguments that are a
//     JSON object; a finish reason of core's or none; no negative token
//     count) or an error; run it under -race.
//
// What the model answers, retries and the mapping of server errors are
// not checked.
//
// # The store contract
//
// TestStore and CheckStore check a gateway.Store backend, one new store per
// case, opened with the case's options on a clock of the case's own
// (StoreOptions.Sources.Now, moved only by the case, so the cases are
// deterministic; TTLs are minutes, so a backend that also expires on the
// real clock passes): put and get of both kinds in separate namespaces;
// originals scoped to their caller; expiry at OriginalTTL and
// CompressedTTL, expired entries leaving Stats without a lookup;
// MaxEntries per kind and MaxBytes over both, oldest first, an entry
// larger than MaxBytes not kept; 8 goroutines x 200 mixed operations within
// the bounds with Stats equal to the lookups; a cancelled context answered
// with an error wrapping context.Canceled or a no-op, never a hang; Close
// returning nil. toolout's own backends (core/gateway/memstore,
// core/gateway/redisstore) run CheckStore in their tests.
//
// # A scenario served to an agent
//
// Serve answers an agent's HTTP requests from a scenario's llm steps on a
// loopback port for the length of a test, on the OpenAI Chat Completions,
// OpenAI Responses and Anthropic Messages wires, as `toolout serve` does
// (harness/serve). It keeps every request whole (Server.Calls) and, when
// the test ends, fails it with every breach of the script: a request no
// step answered, a step left unused, a request refused.
package toolouttest
