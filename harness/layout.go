package harness

import (
	"path"
	"path/filepath"
	"strings"
)

// place is where a scenario file's id, display path and golden are.
type place struct {
	id      string
	display string // the file as messages name it
	golden  string // the golden file on disk
	shown   string // the golden as messages name it
	// scenariosID is the file's path below a folder named "scenarios"
	// without its extension, "" elsewhere: the value its scenario: field
	// must have. root is that folder's parent.
	scenariosID, root string
	goldenDir         string // the golden folder given (toolout test --golden), or ""
}

// Layout is LayoutIn without a golden folder.
func Layout(file string) (id, display, golden string) { return LayoutIn("", file) }

// LayoutIn says where a scenario file's id, display path and golden file
// are. Every scenario has a golden, found from its path (and goldenDir)
// alone, by the first rule that applies:
//
//  1. With a golden folder (goldenDir, `toolout test --golden DIR`), the
//     golden is DIR/<id>.txtar, the id being the file's path without its
//     extension below the deepest folder that holds both DIR and the file:
//     with --golden tests/golden, tests/agent/billing/b.yaml has the id
//     agent/billing/b and the golden tests/golden/agent/billing/b.txtar.
//  2. Under a folder named "scenarios", the id is the file's path below that
//     folder without its extension and the golden is golden/<id>.txtar
//     beside that folder (toolout's own layout: scenarios/session/a.yaml,
//     golden/session/a.txtar).
//  3. Anywhere else, the id is the file's name without its extension and
//     the golden is golden/<id>.txtar in the file's own folder, as a Go
//     package keeps its testdata: loose/x.yaml, loose/golden/x.txtar.
//
// The display path starts at "scenarios/" under rule 2's folder (whatever
// the golden folder), and is the path as given elsewhere. The golden
// returned is absolute when file could be made absolute.
func LayoutIn(goldenDir, file string) (id, display, golden string) {
	p := locate(goldenDir, file)
	return p.id, p.display, p.golden
}

// locate applies LayoutIn's rules.
func locate(goldenDir, file string) place {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	p := place{display: filepath.ToSlash(file), goldenDir: goldenDir}
	if root, rel, ok := underScenarios(abs); ok {
		p.root = root
		p.scenariosID = withoutExt(filepath.ToSlash(rel))
		p.display = "scenarios/" + filepath.ToSlash(rel)
		p.id = p.scenariosID
		p.golden = filepath.Join(root, "golden", filepath.FromSlash(p.id)+".txtar")
		p.shown = "golden/" + p.id + ".txtar"
	} else {
		p.id = withoutExt(filepath.Base(abs))
		p.golden = filepath.Join(filepath.Dir(abs), "golden", p.id+".txtar")
		p.shown = path.Join(path.Dir(p.display), "golden", p.id+".txtar")
	}
	if goldenDir != "" {
		dir, err := filepath.Abs(goldenDir)
		if err != nil {
			dir = goldenDir
		}
		rel, _ := filepath.Rel(shared(dir, filepath.Dir(abs)), abs)
		p.id = withoutExt(filepath.ToSlash(rel))
		p.golden = filepath.Join(dir, filepath.FromSlash(p.id)+".txtar")
		p.shown = path.Join(filepath.ToSlash(goldenDir), p.id+".txtar")
	}
	return p
}

// underScenarios finds the nearest folder named "scenarios" above abs:
// its parent and abs's path below it.
func underScenarios(abs string) (root, rel string, ok bool) {
	for dir := abs; ; {
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", false
		}
		if filepath.Base(parent) == "scenarios" {
			rel, _ := filepath.Rel(parent, abs)
			return filepath.Dir(parent), rel, true
		}
		dir = parent
	}
}

// shared returns the deepest folder that holds both a and b (absolute).
func shared(a, b string) string {
	for {
		if within(a, b) {
			return b
		}
		parent := filepath.Dir(b)
		if parent == b {
			return b
		}
		b = parent
	}
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func withoutExt(name string) string { return strings.TrimSuffix(name, path.Ext(name)) }

// acceptCommand is the command that accepts sc's transcript as its golden
// (--update), typed where the user stands: command (Runner.Command, the
// program as the user ran it: "toolout", "go tool toolout", ...) then
// test --update [--golden DIR] FILE, FILE and DIR as they were given
// (asGiven), single-quoted where a shell would split them. It never names a make target or a path of toolout's own
// clone: the user's repository has neither.
func acceptCommand(sc *Scenario, command string) string {
	if command == "" {
		command = DefaultCommand
	}
	cmd := command + " test --update "
	if sc.at.goldenDir != "" {
		cmd += "--golden " + ShellQuote(asGiven(sc.at.goldenDir)) + " "
	}
	return cmd + ShellQuote(asGiven(sc.File))
}

// ShellQuote single-quotes s when a POSIX shell would split or expand it,
// so that a path or argument a hint names runs verbatim when pasted.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// asGiven names a path the user gave (a scenario file, found in a folder
// the user gave, or --golden) as they gave it, only cleaned and with
// slashes: relative stays relative to where they stand ("../x.yaml"
// too), absolute stays absolute; never rewritten to scenarios/... .
func asGiven(p string) string { return filepath.ToSlash(filepath.Clean(p)) }
