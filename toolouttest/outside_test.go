package toolouttest_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// outside is a copy of testdata/outside, a module of a toolout user whose
// go.mod replaces toolout with this clone, and the go command that tests it
// offline.
type outside struct {
	t   *testing.T
	dir string
	go_ string
}

// newOutside copies testdata/outside to a temporary folder, points its
// replace directive at this clone and gives it the clone's go.sum, so that
// go test builds it from the module cache alone (GOPROXY=off).
func newOutside(t *testing.T) *outside {
	goBin, err := exec.LookPath("go") // go test puts its own GOROOT/bin first on PATH
	if err != nil {
		t.Fatalf("the go command is needed to test a module that uses toolouttest: %v", err)
	}
	clone, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	o := &outside{t: t, dir: t.TempDir(), go_: goBin}
	if err := os.CopyFS(o.dir, os.DirFS("testdata/outside")); err != nil {
		t.Fatal(err)
	}
	mod := o.read("go.mod")
	if !strings.Contains(mod, "=> ../../..") {
		t.Fatalf("testdata/outside/go.mod has no replace => ../../..:\n%s", mod)
	}
	o.write("go.mod", strings.Replace(mod, "=> ../../..", "=> "+clone, 1))
	sum, err := os.ReadFile(filepath.Join(clone, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	o.write("go.sum", string(sum))
	return o
}

func (o *outside) read(name string) string {
	o.t.Helper()
	b, err := os.ReadFile(filepath.Join(o.dir, name))
	if err != nil {
		o.t.Fatal(err)
	}
	return string(b)
}

func (o *outside) write(name, data string) {
	o.t.Helper()
	if err := os.WriteFile(filepath.Join(o.dir, name), []byte(data), 0o644); err != nil {
		o.t.Fatal(err)
	}
}

// run runs a shell command line in the module, as a user types it, with
// the go command of this test first on PATH, offline, and with env added;
// CI and UPDATE_GOLDEN are those given, never this process's.
func (o *outside) run(line string, env ...string) (string, bool) {
	o.t.Helper()
	cmd := exec.CommandContext(o.t.Context(), "sh", "-c", line)
	cmd.Dir = o.dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CI=") && !strings.HasPrefix(kv, "UPDATE_GOLDEN=") && !strings.HasPrefix(kv, "GOFLAGS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PATH="+filepath.Dir(o.go_)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOWORK=off", "GOPROXY=off", "GOFLAGS="+strings.Join(append([]string{"-mod=mod"}, buildFlags()...), " "))
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		o.t.Fatalf("%s: %v", line, err)
	}
	return out.String(), err == nil
}

// A module outside this clone runs its scenarios with toolouttest.Run: it
// passes; when an answer changes it fails with the command that accepts
// the new transcript, and that command, typed as printed, writes the
// golden; with CI=true a missing golden fails and is not created.
func TestOutsideModule(t *testing.T) {
	o := newOutside(t)
	if out, ok := o.run("go test -count=1 ./..."); !ok {
		t.Fatalf("the outside module's scenarios do not pass:\n%s", out)
	}

	const scenario = "scenarios/session/over-cap-handle.yaml"
	o.write(scenario, strings.Replace(o.read(scenario), "final: Stored; will extract next.", "final: Stored; will extract later.", 1))
	out, ok := o.run("go test -count=1 ./...")
	const hint = "to accept it: go test -run '^TestScenarios$/^session$/^over-cap-handle$' -update"
	switch {
	case ok:
		t.Fatalf("a changed answer passed:\n%s", out)
	case !strings.Contains(out, "--- FAIL: TestScenarios/session/over-cap-handle"), strings.Contains(out, "--- FAIL: TestScenarios/harness"):
		t.Fatalf("want the changed scenario alone to fail:\n%s", out)
	case !strings.Contains(out, hint), strings.Contains(out, "make golden"), strings.Contains(out, "cmd/toolout"):
		t.Fatalf("want the hint %q, and no command of toolout's own clone:\n%s", hint, out)
	case !strings.Contains(out, `+  "report": "Stored; will extract later."`):
		t.Fatalf("want the diff of the answer:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(o.dir, "golden/session/over-cap-handle.txtar.got")); err != nil {
		t.Fatalf("the failing run left no .got: %v", err)
	}

	accept := strings.TrimPrefix(hint, "to accept it: ")
	if out, ok := o.run(accept); !ok {
		t.Fatalf("%s failed:\n%s", accept, out)
	}
	if g := o.read("golden/session/over-cap-handle.txtar"); !strings.Contains(g, "Stored; will extract later.") || strings.Contains(g, "extract next") {
		t.Fatalf("%s did not write the new answer in the golden:\n%s", accept, g)
	}
	if _, err := os.Stat(filepath.Join(o.dir, "golden/session/over-cap-handle.txtar.got")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the passing run left the stale .got (%v)", err)
	}
	if out, ok := o.run("go test -count=1 ./..."); !ok {
		t.Fatalf("the accepted golden does not pass:\n%s", out)
	}

	if err := os.Remove(filepath.Join(o.dir, "golden/harness/final-wrap.txtar")); err != nil {
		t.Fatal(err)
	}
	out, ok = o.run("go test -count=1 ./...", "CI=true")
	const missing = "missing golden file (with CI=true goldens are never created; run `go test -run '^TestScenarios$/^harness$/^final-wrap$' -update` and commit"
	if ok || !strings.Contains(out, missing) {
		t.Fatalf("with CI=true a missing golden must fail with %q:\n%s", missing, out)
	}
	if _, err := os.Stat(filepath.Join(o.dir, "golden/harness/final-wrap.txtar")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("with CI=true the missing golden was created (%v)", err)
	}
}

// buildFlags returns the flags this test binary was built with that decide
// how packages compile (-race, -gcflags: make test sets both), so that the
// outside module's go test reuses the builds of toolout's packages this
// run made instead of compiling them all again. A flag whose value holds a space cannot go in GOFLAGS and
// is left out: the build is then only slower.
func buildFlags() []string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	var out []string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "-race" && s.Value == "true":
			out = append(out, "-race")
		case (s.Key == "-gcflags" || s.Key == "-asmflags" || s.Key == "-tags") && s.Value != "" && !strings.ContainsAny(s.Value, " \t"):
			out = append(out, s.Key+"="+s.Value)
		}
	}
	return out
}
