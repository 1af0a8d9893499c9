package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolout/toolout/harness"
)

// The command a hint names (`to accept it: toolout test --update x.yaml`,
// `run 'toolout help'`) is the program as the user ran it, so that the hint
// runs verbatim where they stand. The rule (self):
//
//   - A binary built by the go command for the moment: `go tool toolout`
//     runs one cached in the build cache (GOCACHE), `go run` one at
//     go-build*/b*/exe/ in the temporary directory (or, for `go run PKG`
//     of a tool, in the build cache too). Which of the two ran cannot be told
//     from the path, so the hint names the one that works in the module
//     around the working directory: `go tool toolout` when its go.mod
//     declares the tool (tool github.com/toolout/toolout/cmd/toolout);
//     `go run ./cmd/toolout` at the root of toolout's own clone; else
//     `go run github.com/toolout/toolout/cmd/toolout`, which works in toolout's
//     module and in any module that requires it.
//   - Any other binary is named as it was invoked (os.Args[0]): `toolout`
//     when the shell found it on PATH, `./bin/toolout` or an absolute path
//     when the user typed one, each of which runs again from the same
//     working directory. A name with characters a shell would split or
//     expand is single-quoted.

// toolPath is the import path of this command, as a tool directive names it.
const toolPath = "github.com/toolout/toolout/cmd/toolout"

// modulePath is toolout's own module path.
const modulePath = "github.com/toolout/toolout"

// invocation is what self needs to know about how the process was started.
type invocation struct {
	arg0    string // os.Args[0]
	wd      string // the working directory ("" if unknown)
	gocache string // the go build cache folder ("" if unknown)
}

// currentInvocation describes this process.
func currentInvocation() invocation {
	var inv invocation
	if len(os.Args) > 0 {
		inv.arg0 = os.Args[0]
	}
	inv.wd, _ = os.Getwd()
	inv.gocache = os.Getenv("GOCACHE")
	if inv.gocache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			inv.gocache = filepath.Join(dir, "go-build")
		}
	}
	return inv
}

// self is the command that runs this program where the user stands, by
// the rule above.
func (inv invocation) self() string {
	if inv.arg0 == "" {
		return "toolout"
	}
	if !inv.builtByGo() {
		return harness.ShellQuote(inv.arg0)
	}
	mod, root, tools := findModule(inv.wd)
	switch {
	case tools[toolPath]:
		return "go tool toolout"
	case mod == modulePath && root == inv.wd:
		return "go run ./cmd/toolout"
	}
	return "go run " + toolPath
}

// builtByGo reports whether arg0 is a binary the go command built to run
// once (go run, go tool): in the build cache, or at go-build*/b*/exe/NAME
// (where go run builds, in GOTMPDIR or the temporary directory).
func (inv invocation) builtByGo() bool {
	if !filepath.IsAbs(inv.arg0) {
		return false
	}
	if inv.gocache != "" && within(inv.arg0, inv.gocache) {
		return true
	}
	exe := filepath.Dir(inv.arg0)
	work := filepath.Dir(exe)
	return filepath.Base(exe) == "exe" && strings.HasPrefix(filepath.Base(work), "b") &&
		strings.HasPrefix(filepath.Base(filepath.Dir(work)), "go-build")
}

// within reports whether p lies below dir.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// maxGoMod bounds how much of a go.mod findModule reads.
const maxGoMod = 1 << 20

// findModule finds the go.mod nearest above dir and returns its module
// path, its folder and the tools it declares; "" and nil when there is
// none or it cannot be read.
func findModule(dir string) (mod, root string, tools map[string]bool) {
	for dir != "" {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			mod, tools = readGoMod(io.LimitReader(f, maxGoMod))
			f.Close()
			return mod, dir, tools
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", "", nil
}

// readGoMod reads a go.mod's module path and tool directives (single and
// in a block), ignoring comments.
func readGoMod(r io.Reader) (mod string, tools map[string]bool) {
	tools = map[string]bool{}
	sc := bufio.NewScanner(r)
	inTools := false
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
		case inTools && fields[0] == ")":
			inTools = false
		case inTools:
			tools[unquote(fields[0])] = true
		case fields[0] == "tool" && len(fields) == 2 && fields[1] == "(":
			inTools = true
		case fields[0] == "tool" && len(fields) == 2:
			tools[unquote(fields[1])] = true
		case fields[0] == "module" && len(fields) == 2:
			mod = unquote(fields[1])
		}
	}
	return mod, tools
}

func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}
