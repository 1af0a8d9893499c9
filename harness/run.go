package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
)

// Runner runs scenarios and compares their transcripts with golden files.
type Runner struct {
	// Registry holds the components (toolout's own: components.Default());
	// required.
	Registry *Registry
	// Update rewrites the golden files of passing scenarios instead of
	// comparing (UPDATE_GOLDEN=1); a failing scenario's golden is never
	// written.
	Update bool
	// CI makes a missing golden a failure; it is never created (CI=true).
	CI bool
	// GoldenDir, when set, is the folder of every golden (toolout test
	// --golden DIR): Load finds goldens and ids by LayoutIn's first rule.
	GoldenDir string
	// Command is the program as the user ran it, which the failures name
	// in the command that accepts a transcript: "toolout" (on PATH),
	// "go tool toolout", "go run ./cmd/toolout", "./bin/toolout". ""
	// means DefaultCommand. cmd/toolout sets it from its own invocation.
	Command string
	// Accept, when set, gives the command a failure names to accept a
	// scenario's transcript as its golden, in place of `toolout test
	// --update FILE` (toolouttest names the go test run of the scenario's
	// subtest with -update).
	Accept func(sc *Scenario) string
	// Dir, when set, is the folder the commands a failure names are typed
	// in: their paths are relative to it. Empty: the working directory.
	Dir string
}

// DefaultCommand is the program failures name when Runner.Command is "":
// the CLI installed on PATH.
const DefaultCommand = "toolout"

// RunnerFromEnv returns a Runner of reg's components configured by
// UPDATE_GOLDEN=1 and CI=true.
func RunnerFromEnv(reg *Registry) *Runner {
	return &Runner{
		Registry: reg,
		Update:   os.Getenv("UPDATE_GOLDEN") == "1",
		CI:       os.Getenv("CI") == "true",
	}
}

func (r *Runner) registry() *Registry {
	if r.Registry == nil {
		return NewRegistry() // no components: every scenario names an unknown one
	}
	return r.Registry
}

// Load loads a scenario file with the runner's components.
// Its golden is found by LayoutIn with r.GoldenDir.
func (r *Runner) Load(file string) (*Scenario, error) { return load(r.registry(), r.GoldenDir, file) }

// Result is the outcome of one scenario run.
type Result struct {
	Scenario *Scenario
	// Transcript is the rendered txtar transcript.
	Transcript []byte
	// Failures are the reasons the scenario failed, each starting with a
	// YAML position (or the golden file's path); empty when it passed.
	Failures []string
	// Notes are informational lines, such as a golden being created.
	Notes []string
}

// Passed reports whether the scenario passed.
func (res *Result) Passed() bool { return len(res.Failures) == 0 }

// Run executes sc and compares (or updates) its golden file.
func (r *Runner) Run(ctx context.Context, sc *Scenario) *Result {
	res := r.Execute(ctx, sc)
	r.Golden(res)
	return res
}

// Execute runs sc once with fresh fakes and checks its expectations, without
// touching its golden file. Two executions of the same scenario give the same
// transcript bytes.
func (r *Runner) Execute(ctx context.Context, sc *Scenario) *Result {
	res := &Result{Scenario: sc}
	d := sc.dec
	fail := func(pos Pos, format string, args ...any) {
		res.Failures = append(res.Failures, pos.String()+": "+fmt.Sprintf(format, args...))
	}
	llm, err := fakes.NewLLM(sc.LLM, fakes.Options{})
	if err != nil { // validated at load; kept for scenarios built by hand
		fail(Pos{File: sc.Path}, "llm: %v", err)
		return res
	}
	clock := &fakes.Clock{}
	env := &Env{Sources: core.Sources{Now: clock.Now, NewID: (&fakes.IDs{}).Next, Nonce: (&fakes.Nonces{}).Next, Timeout: clock.WithTimeout},
		Clock: clock, LLM: llm, Wire: llmwire.Wire(sc.Wire), Dir: filepath.Dir(sc.File)}
	if env.TempDir, err = r.registry().tempDir(); err != nil {
		fail(Pos{File: sc.Path}, "harness: %v", err)
		return res
	}
	defer os.RemoveAll(env.TempDir)

	sections, check, runErr := sc.run(ctx, env)
	if runErr != nil {
		k, _ := lookup(sc.root, "component")
		fail(d.pos(k), "%s: %s", sc.Component, normalizeTemp(runErr.Error(), env.TempDir))
	}
	for _, v := range llm.Violations() {
		pos := v.Pos
		if pos == "" {
			pos = sc.Path + ":" + fmt.Sprint(sc.Line) + ":1"
			if k, _ := lookup(sc.root, "llm"); k != nil {
				pos = d.pos(k).String()
			}
		}
		res.Failures = append(res.Failures, pos+": "+v.Msg)
	}
	if runErr == nil {
		for _, m := range check() {
			fail(expectPos(d, sc, m.Field), "expect.%s: %s", m.Field, m.Msg)
		}
	}

	t := &Transcript{Header: []string{"scenario: " + sc.ID, "component: " + sc.Component}}
	t.Sections = append(t.Sections, sections...)
	t.Sections = append(t.Sections, callSections(llm.Calls(), env)...)
	if len(env.logs) > 0 {
		t.Sections = append(t.Sections, Section{Name: "log", Body: strings.Join(env.logs, "\n")})
	}
	if sc.Failure != "" {
		k, _ := lookup(&sc.Expect, "failure")
		switch {
		case len(res.Failures) == 0:
			fail(d.pos(k), "expect.failure: the run passed, but it must fail with %q", sc.Failure)
		case !anyContains(res.Failures, sc.Failure):
			fail(d.pos(k), "expect.failure: the run did not fail with %q; it failed with:\n%s", sc.Failure, strings.Join(res.Failures, "\n"))
		default:
			t.Sections = append(t.Sections, Section{Name: "failure", Body: strings.Join(res.Failures, "\n")})
			res.Failures = nil
		}
	}
	res.Transcript = []byte(normalizeTemp(string(t.Bytes()), env.TempDir))
	return res
}

func anyContains(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// expectPos finds the key of a dotted field path under expect, falling back to
// the nearest enclosing key.
func expectPos(d *decoder, sc *Scenario, field string) Pos {
	k, _ := lookup(sc.root, "expect")
	at := k
	node := &sc.Expect
	for part := range strings.SplitSeq(field, ".") {
		pk, pv := lookup(node, part)
		if pk == nil {
			break
		}
		at, node = pk, pv
	}
	if at == nil {
		return Pos{File: sc.Path, Line: sc.Line, Col: 1}
	}
	return d.pos(at)
}
