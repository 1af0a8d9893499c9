package toolouttest

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// updating reports whether -update was given; see the package
// documentation for how the flag is registered.
var updating = registerUpdate()

// registerUpdate defines -update on the command line unless a package
// initialized before this one did, and returns what reads it, whoever
// defined it.
func registerUpdate() func() bool {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "toolouttest: rewrite the golden files of the scenarios that pass")
	}
	return func() bool {
		f := flag.Lookup("update")
		if f == nil {
			return false
		}
		if g, ok := f.Value.(flag.Getter); ok {
			b, ok := g.Get().(bool)
			return ok && b
		}
		return f.Value.String() == "true"
	}
}

// Options change how Run runs scenarios. The zero value is Run's.
type Options struct {
	// GoldenDir, when set, roots every golden: a scenario's golden is
	// GoldenDir/<id>.txtar (toolout test --golden DIR).
	GoldenDir string
	// Update rewrites the goldens of the scenarios that pass, as -update
	// and UPDATE_GOLDEN=1 do.
	Update bool
}

// Run runs every scenario file (*.yaml, *.yml) under path, a folder or one
// file, each as a subtest of t named by its path below path without its
// extension, and compares each transcript with its golden file; see the
// package documentation. It is Options{}.Run.
func Run(t *testing.T, path string) {
	t.Helper()
	Options{}.Run(t, path)
}

// Run is the package's Run with o.
func (o Options) Run(t *testing.T, path string) {
	t.Helper()
	files, err := harness.Discover(path)
	if err != nil {
		t.Fatalf("toolouttest: %v", err)
	}
	if len(files) == 0 {
		t.Fatalf("toolouttest: no scenario file (*.yaml, *.yml) under %s", path)
	}
	runner := harness.RunnerFromEnv(components.Default())
	runner.Update = runner.Update || o.Update || updating()
	runner.GoldenDir = o.GoldenDir
	root, pkg := where()
	runner.Dir = root
	owner := map[string]string{}
	for _, file := range files {
		name := subtestName(path, file)
		_, _, golden := harness.LayoutIn(o.GoldenDir, file)
		other, dup := owner[golden]
		owner[golden] = file
		t.Run(name, func(t *testing.T) {
			if dup {
				t.Fatalf("toolouttest: %s and %s have the same golden file: rename one", filepath.ToSlash(other), filepath.ToSlash(file))
			}
			r := *runner
			r.Accept = func(*harness.Scenario) string { return acceptCommand(pkg, t.Name()) }
			runOne(t, &r, file)
		})
	}
}

// runOne loads and runs one scenario file in its subtest.
func runOne(t *testing.T, r *harness.Runner, file string) {
	sc, err := r.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Run(t.Context(), sc)
	for _, n := range res.Notes {
		t.Log(n)
	}
	if !res.Passed() {
		t.Error(strings.Join(res.Failures, "\n"))
	}
}

// subtestName is file's path below path without its extension, or its
// name without extension when path is the file.
func subtestName(path, file string) string {
	rel, err := filepath.Rel(path, file)
	if err != nil || rel == "." {
		rel = filepath.Base(file)
	}
	rel = filepath.ToSlash(rel)
	return strings.TrimSuffix(rel, filepath.Ext(rel))
}

// acceptCommand is the go test run of one subtest with -update, typed at
// the root of the module of the test's package (pkg "./dir", or "" for
// the root itself).
func acceptCommand(pkg, name string) string {
	cmd := "go test "
	if pkg != "" {
		cmd += pkg + " "
	}
	return cmd + "-run " + shellQuote(runPattern(name)) + " -update"
}

// runPattern is the -run pattern that matches the test named name and no
// other: each level anchored and quoted.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// where finds the root of the module of the working directory (a test's
// package folder): its folder, and the package's folder relative to it,
// "./dir", or "" for the root itself. Without a go.mod above it, both are
// "" and commands are typed in the package's folder.
func where() (root, pkg string) {
	wd, err := os.Getwd()
	if err != nil {
		return "", ""
	}
	for dir := wd; ; {
		if isModule(filepath.Join(dir, "go.mod")) {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return dir, ""
			}
			return dir, "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ""
		}
		dir = parent
	}
}

// isModule reports whether file is a go.mod with a module directive.
func isModule(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(strings.TrimSpace(sc.Text()), "module") {
			return true
		}
	}
	return false
}
