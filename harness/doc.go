// Package harness runs toolout's YAML scenarios and compares what they did
// with golden files.
//
// A scenario (a YAML file, scenarios/<id>.yaml in toolout's own tree) names
// a component, its config and input, the scripted LLM steps (fakes.LLM), and
// what must hold. Load decodes it strictly: unknown fields (with a
// did-you-mean), wrong types and invalid values are all reported at once,
// each as file:line:col. A Runner runs it with fresh deterministic sources
// (sequential ids and nonces, a stepping clock), a scratch folder and the
// scripted LLM, checks the expectations and the LLM's strictness (a request
// no step answers, a step left unused), and renders a transcript: a txtar of
// the component's sections, every LLM request and answer (concurrent map
// calls ordered by chunk, messages over ElideAbove bytes shortened around
// their SHA-256), the log and the expected failure. A scenario that names
// its model's wire (`wire: openai`, `anthropic` or `responses`) runs its
// model through that wire's bytes ([Env.Model]), so its transcript shows
// each answer as toolout serve sends it.
//
// # Goldens
//
// The transcript must equal the scenario's golden byte for byte;
// Runner.Update rewrites the goldens of passing scenarios (a failing
// scenario's golden is never written); with CI set a missing golden fails
// and is never created, and without either a missing golden is created and
// said in a note. A mismatch is shown as a unified diff (go-internal's
// anchored diff, O(n log n)); the archive is written by golang.org/x/tools'
// txtar, and a body holding a line that reads as a file marker is stored
// quoted (txtar.Quote, its section named "NAME (quoted)").
//
// Every scenario has a golden, wherever its file lies, found from its path
// alone by one rule (LayoutIn), so that goldens work in any folder layout:
//
//   - under a folder named scenarios, golden/<id>.txtar beside that folder,
//     the id being the path below it without ".yaml" (toolout's own
//     layout, and the only place where the `scenario:` field is checked
//     against the id);
//   - anywhere else, golden/<name>.txtar in the scenario's own folder, the
//     id being its file name without ".yaml" (tests/agent/billing/b.yaml
//     has tests/agent/billing/golden/b.txtar), as a Go package keeps
//     testdata;
//   - with a golden folder (Runner.GoldenDir, `toolout test --golden DIR`)
//     DIR/<id>.txtar, the id being the path without ".yaml" below the
//     deepest folder that holds both DIR and the scenario (--golden
//     tests/golden gives tests/golden/agent/billing/b.txtar).
//
// The rule looks at nothing but paths: no marker file or existing golden/
// folder decides, so a golden cannot move because a folder was created, and
// a scenario finds the same golden whether its file or a folder above it is
// run. `toolout test` refuses two files with the same golden (x.yaml and
// x.yml).
//
// # Failures
//
// A failing scenario (its golden differs or is missing under CI, an
// expectation fails, a step is left unused, the component fails) that
// produced a transcript leaves it beside its golden as
// golden/<id>.txtar.got (GotSuffix; .gitignore ignores *.got; a CI job may
// keep it as an artifact), written through a temporary file renamed in the
// same folder, so parallel runs never interleave; one that cannot be
// written (a read-only checkout) is said and fails nothing more. A passing
// run removes its stale .got. The last failure gives the commands that diff
// it with the golden (diff -u golden/<id>.txtar golden/<id>.txtar.got) and
// accept it, which writes the golden once the expectations hold: COMMAND
// test --update [--golden DIR] FILE; the missing-golden failure under CI
// names the same command.
//
// Every command a failure names runs verbatim where the user stands:
// COMMAND is the program as they ran it (Runner.Command: "toolout" from
// PATH, "go tool toolout" in a module that declares the tool, "go run
// ./cmd/toolout" at the root of a clone; cmd/toolout sets it, and "" means
// DefaultCommand), FILE and DIR are the paths as they gave them (a file
// found in a folder they gave is that folder joined with its path there),
// and no make target of toolout's own repository is named.
//
// A Runner whose scenarios run elsewhere than under `toolout test` names
// its own commands: Runner.Accept gives the command that accepts a
// transcript, and Runner.Dir the folder the commands are typed in
// (toolouttest, which runs scenarios as subtests of a user's go test,
// names `go test ./pkg -run '^TestX$/^id$' -update` typed at the root of
// the user's module).
//
// Every expectation that fails says what the run gave instead, each value
// cut after ShowBytes bytes and each list after ShowItems items with counts
// of what was left out (Show, Found), so messages stay short and the same
// from run to run.
//
// # Bounds
//
// A scenario file holds at most MaxScenarioBytes (1 MiB; larger payloads
// belong in a file: or generate: input), a single YAML document, and
// aliases that expand it by at most 1,048,576 values (a "billion laughs"
// file is an error at the offending alias, not a hang). Invalid UTF-8 and
// control characters are errors at their line:col. Generated input is
// sized before it is generated. A payload file (file:) must be a regular
// file (a FIFO is refused before it is opened, so a load never blocks) of
// at most MaxPayloadBytes (64 MiB).
//
// # Packages
//
//   - harness (this one): the scenario model, its strict loader, the Runner,
//     transcripts and goldens, and the component seam (Spec, Register,
//     Registry, Env). It imports core's root package for its types, and no
//     core subpackage.
//   - harness/components: the adapters, one per component, and
//     components.Default(), their registry: the only code of the harness
//     that imports core's subpackages.
//   - harness/importer: turns a production trace into regression scenarios;
//     what it must know of core it asks components, and the ids and nonces
//     a run will draw it takes from fakes.
//
// A run's scratch folder (Env.TempDir) is removed with everything in it when
// the run returns; how it is made is the registry's (Registry.SetScratch):
// components.Default's also removes the folders of runs killed before they
// could, which this package cannot judge without core's store. A component
// type may decode its own YAML node (NodeDecoder) with the strict Decoder,
// so that a section whose defaults depend on whether a key is there is
// still checked like the rest of the file.
package harness
