package depcheck_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolout/toolout/internal/depcheck"
)

// TestCoreDependencies lists every package of core with its dependencies
// (one go list call) and fails naming each forbidden one and the core
// package that pulls it in.
func TestCoreDependencies(t *testing.T) {
	goBin, err := exec.LookPath("go") // go test puts its own GOROOT/bin first on PATH
	if err != nil {
		t.Fatalf("the go command is needed to list dependencies: %v", err)
	}
	cmd := exec.Command(goBin, "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "github.com/toolout/toolout/core/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.String())
	}
	bad := violations(string(out))
	if len(bad) > 0 {
		t.Fatalf("core must not depend on harness, fakes, cmd or test frameworks:\n%s", strings.Join(bad, "\n"))
	}
	if !strings.Contains(string(out), "github.com/toolout/toolout/core/extract ") {
		t.Fatalf("go list did not list core/extract: %q", out)
	}
}

// violations reads go list lines "PKG DEP DEP..." and names each forbidden DEP.
func violations(list string) []string {
	var bad []string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		fields := strings.Fields(line)
		for _, dep := range fields[min(1, len(fields)):] {
			if depcheck.Forbidden.MatchString(dep) {
				bad = append(bad, fmt.Sprintf("  %s depends on %s", fields[0], dep))
			}
		}
	}
	return bad
}

// The rule catches each kind of forbidden dependency and nothing else.
func TestViolations(t *testing.T) {
	list := "github.com/toolout/toolout/core/a fmt github.com/toolout/toolout/fakes\n" +
		"github.com/toolout/toolout/core/b github.com/onsi/gomega/types github.com/google/go-cmp/cmp\n" +
		"github.com/toolout/toolout/core/c github.com/toolout/toolout/harnessx github.com/toolout/toolout/core/fakes\n"
	got := violations(list)
	want := []string{
		"  github.com/toolout/toolout/core/a depends on github.com/toolout/toolout/fakes",
		"  github.com/toolout/toolout/core/b depends on github.com/onsi/gomega/types",
		"  github.com/toolout/toolout/core/b depends on github.com/google/go-cmp/cmp",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
