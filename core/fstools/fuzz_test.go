package fstools_test

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/fstools"
	"github.com/toolout/toolout/internal/seeds"
)

// scenarioPaths returns the path arguments of the Read and Grep calls scripted
// in the scenarios.
func scenarioPaths(f *testing.F) []string {
	var out []string
	var walk func(n *yaml.Node, underArgs bool)
	walk = func(n *yaml.Node, underArgs bool) {
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 1 {
				key := n.Content[i-1].Value
				if underArgs && key == "path" && c.Kind == yaml.ScalarNode {
					out = append(out, c.Value)
				}
				walk(c, key == "args")
				continue
			}
			walk(c, false)
		}
	}
	docs, err := seeds.Docs("../../scenarios")
	for _, doc := range docs {
		walk(doc, false)
	}
	if err != nil || len(out) == 0 {
		f.Fatalf("no Read or Grep paths in the scenarios (%v)", err)
	}
	return out
}

// fuzzTree builds the tree of the confinement specs under a fresh folder:
// a secret next to the root, files and a nested folder inside it, and
// symbolic links that stay inside, leave it, chain, loop or are absolute.
func fuzzTree(f *testing.F) (root string, fsys *fstools.FS) {
	base := f.TempDir()
	root, fsys, err := buildTree(base, map[string]string{
		"outside/secret.txt":        "TOP SECRET\n",
		"root/log.txt":              "a ok\nb ERROR x\nc ok\n",
		"root/sub/deeper/notes.txt": "note ERROR z",
		"root/....":                 "dots\n",
		"root/raw\x83/f.txt":        "raw ERROR\n",
	}, map[string]string{
		"link-in":     "log.txt",
		"sub/up":      "../log.txt",
		"sub/out":     "../../outside/secret.txt",
		"link-out":    "../outside/secret.txt",
		"link-abs":    filepath.Join(base, "outside", "secret.txt"),
		"link-abs-in": filepath.Join(base, "root", "log.txt"),
		"dir-out":     "../outside",
		"dir-in":      "sub",
		"chain1":      "chain2",
		"chain2":      "../outside/secret.txt",
		"loop":        "loop",
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { fsys.Close() })
	if _, err := fsys.Grep(fstools.GrepParams{Pattern: "ERROR"}); err != nil {
		f.Fatalf("Grep over the whole root: %v", err)
	}
	return root, fsys
}

// lexicalRefusal is the package contract for paths refused before the file
// system is touched, written as a second implementation: the reason, or "".
func lexicalRefusal(p string) string {
	switch {
	case p == "":
		return "empty path"
	case strings.ContainsRune(p, 0):
		return "it contains a NUL byte"
	case strings.HasPrefix(p, "/"):
		return "absolute paths are not allowed; give a path relative to the root"
	case len(p) >= 2 && p[1] == ':' && strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", rune(p[0])):
		return "absolute Windows paths are not allowed; give a path relative to the root"
	case strings.Contains(p, `\`):
		return `backslashes are not path separators here; use "/"`
	case slices.Contains(strings.Split(p, "/"), ".."):
		return `".." is not allowed; paths stay under the root`
	}
	return ""
}

const escapeReason = "it resolves outside the root through a symbolic link"

// refusal is the error text for refusing p: the path quoted whole, or its
// first 256 bytes (cut on a character) and its length.
func refusal(p, why string) string {
	if len(p) <= 256 {
		return fmt.Sprintf("path %q: refused: %s", p, why)
	}
	cut := 256
	for back := 0; back < 3 && p[cut-back]&0xC0 == 0x80; back++ {
		if p[cut-back-1]&0xC0 != 0x80 {
			cut -= back + 1 // the byte before the continuation bytes starts the character
			break
		}
	}
	return fmt.Sprintf("path %q… (%d bytes): refused: %s", p[:cut], len(p), why)
}

// FuzzPath checks path resolution on any path string, against a real tree
// with symbolic links that leave the root:
//   - CheckPath refuses exactly the paths the contract refuses (empty, NUL,
//     absolute, Windows-style, any ".."), with ErrRefused and the one-line
//     text `path "<p>": refused: <reason>`; a path it accepts comes back as a
//     clean local path (filepath.IsLocal, no empty, "." or ".." element);
//   - Read and Grep never show the secret kept beside the root, refuse the
//     lexically refused paths with the same error, refuse other paths only
//     for a symbolic link that leaves the root, and whatever they read
//     resolves (through every link) to a file inside the root;
//   - every error is one line, and every answer is deterministic.
func FuzzPath(f *testing.F) {
	for _, p := range scenarioPaths(f) {
		f.Add(p)
	}
	for _, p := range []string{
		".", "./", "log.txt", "./log.txt", "sub/deeper/notes.txt", "sub//deeper/", "sub/./up", "link-in",
		"link-out", "link-abs", "link-abs-in", "dir-out/secret.txt", "dir-in/up", "dir-in/out", "sub/out",
		"chain1", "loop", "....", "...", "..", "../", "a/../b", "sub/..", "/etc/passwd", "//x", `C:\x`, "c:/x",
		"c:x", `\\host\share`, `..\outside`, "log.txt\x00", "%2e%2e/outside", "．．/outside", "~/x", "log.txt/",
		"/" + strings.Repeat("x", 300), strings.Repeat("./", 200) + "link-out", strings.Repeat("é/", 200) + "..",
		"sub/deeper/../../../outside/secret.txt", "\u202e..", " ..", ".. ", "dir-out/", "raw\x83/f.txt", "raw\x83",
	} {
		f.Add(p)
	}
	root, fsys := fuzzTree(f)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		clean, err := fstools.CheckPath(p)
		checkLexical(t, p, clean, err)
		read := func() (string, error) { return fsys.Read(fstools.ReadParams{Path: p}) }
		grep := func() (string, error) { return fsys.Grep(fstools.GrepParams{Pattern: "SECRET|ERROR|dots", Path: p}) }
		for _, op := range []struct {
			name string
			run  func() (string, error)
		}{{"Read", read}, {"Grep", grep}} {
			out, err := op.run()
			out2, err2 := op.run()
			if out != out2 || fmt.Sprint(err) != fmt.Sprint(err2) {
				t.Fatalf("%s %q not deterministic: %q, %v then %q, %v", op.name, p, out, err, out2, err2)
			}
			if strings.Contains(out, "TOP SECRET") {
				t.Fatalf("%s %q showed the secret outside the root: %q", op.name, p, out)
			}
			if err != nil && strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("%s %q: error is not one line: %q", op.name, p, err)
			}
			if op.name == "Grep" && p == "" {
				continue // Grep's empty path is the root
			}
			checkRefusal(t, op.name, p, err)
			if err == nil && clean != "" {
				inside(t, realRoot, filepath.Join(root, filepath.FromSlash(clean)))
			}
		}
	})
}

func checkLexical(t *testing.T, p, clean string, err error) {
	t.Helper()
	if again, err2 := fstools.CheckPath(p); again != clean || fmt.Sprint(err) != fmt.Sprint(err2) {
		t.Fatalf("CheckPath(%q) not deterministic", p)
	}
	why := lexicalRefusal(p)
	switch {
	case why != "":
		want := refusal(p, why)
		if !errors.Is(err, fstools.ErrRefused) || err.Error() != want || clean != "" {
			t.Fatalf("CheckPath(%q) = %q, %v; want the refusal %q", p, clean, err, want)
		}
	case err != nil:
		t.Fatalf("CheckPath(%q) refused a path the contract allows: %v", p, err)
	case clean != path.Clean(p) || !validClean(clean) || !filepath.IsLocal(filepath.FromSlash(clean)):
		t.Fatalf("CheckPath(%q) = %q, not a clean local path", p, clean)
	}
}

// validClean is fs.ValidPath without its UTF-8 rule (file names on disk are
// bytes): "." or slash-separated elements, none empty, "." or "..".
func validClean(p string) bool {
	if p == "." {
		return true
	}
	for _, e := range strings.Split(p, "/") {
		if e == "" || e == "." || e == ".." {
			return false
		}
	}
	return true
}

// checkRefusal checks that a tool refused p exactly when the contract does:
// lexically, or for a link that leaves the root.
func checkRefusal(t *testing.T, op, p string, err error) {
	t.Helper()
	why := lexicalRefusal(p)
	switch {
	case why != "":
		if want := refusal(p, why); err == nil || err.Error() != want {
			t.Fatalf("%s %q: got %v, want %q", op, p, err, want)
		}
	case errors.Is(err, fstools.ErrRefused):
		if want := refusal(p, escapeReason); err.Error() != want {
			t.Fatalf("%s %q: refused with %q, want %q", op, p, err, want)
		}
	}
}

// inside checks that file, with every link resolved, lies in realRoot.
func inside(t *testing.T, realRoot, file string) {
	t.Helper()
	resolved, err := filepath.EvalSymlinks(file)
	if err != nil {
		t.Fatalf("%s was read but does not resolve: %v", file, err)
	}
	rel, err := filepath.Rel(realRoot, resolved)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		t.Fatalf("%s resolves to %s, outside the root %s", file, resolved, realRoot)
	}
}
