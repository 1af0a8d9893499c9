package fstools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/fstools"
)

func ptr[T any](v T) *T { return &v }

// tree builds, in a fresh temp dir:
//
//	outside/secret.txt           (next to the root, never readable)
//	root/log.txt                 (5 lines)
//	root/sub/deeper/notes.txt
//	root/link-in -> log.txt      (relative, stays inside)
//	root/sub/up -> ../log.txt    (relative, stays inside)
//	root/link-out -> ../outside/secret.txt
//	root/link-abs -> <abs>/outside/secret.txt
//	root/link-abs-in -> <abs>/root/log.txt
//	root/dir-out -> ../outside
//	root/chain1 -> chain2 -> chain3 -> ../outside/secret.txt
//	root/loop -> loop
func tree() (root string, fsys *fstools.FS) {
	base := GinkgoT().TempDir()
	root, fsys, err := buildTree(base, map[string]string{
		"outside/secret.txt":        "TOP SECRET\n",
		"root/log.txt":              "a ok\nb ERROR x\nc ok\nd ERROR y\ne ok\n",
		"root/sub/deeper/notes.txt": "note ERROR z",
	}, map[string]string{
		"link-in":     "log.txt",
		"sub/up":      "../log.txt",
		"link-out":    "../outside/secret.txt",
		"link-abs":    filepath.Join(base, "outside", "secret.txt"),
		"link-abs-in": filepath.Join(base, "root", "log.txt"),
		"dir-out":     "../outside",
		"chain1":      "chain2",
		"chain2":      "chain3",
		"chain3":      "../outside/secret.txt",
		"loop":        "loop",
	})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(fsys.Close)
	return root, fsys
}

// buildTree writes files (slash path under base: content, folders made as
// needed) and symbolic links (slash path under base/root: target), and
// opens base/root. The specs' tree and the fuzz targets' share it.
func buildTree(base string, files, links map[string]string) (root string, fsys *fstools.FS, err error) {
	root = filepath.Join(base, "root")
	for name, content := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return "", nil, err
		}
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			return "", nil, err
		}
	}
	fsys, err = fstools.Open(root)
	return root, fsys, err
}

// writeFile writes content to name under root, for the specs that add a
// file to the tree.
func writeFile(root, name, content string) {
	GinkgoHelper()
	Expect(os.WriteFile(filepath.Join(root, name), []byte(content), 0o644)).To(Succeed())
}

var _ = Describe("confinement", func() {
	var fsys *fstools.FS
	BeforeEach(func() { _, fsys = tree() })

	DescribeTable("no path escapes the root, through Read or Grep",
		func(p string, why string) {
			out, err := fsys.Read(fstools.ReadParams{Path: p})
			Expect(err).To(HaveOccurred(), "Read %q answered %q", p, out)
			Expect(err.Error()).To(ContainSubstring(why))
			Expect(out).NotTo(ContainSubstring("TOP SECRET"))
			out, err = fsys.Grep(fstools.GrepParams{Pattern: "SECRET", Path: p})
			if p != "" { // for Grep, no path is the root
				Expect(err).To(HaveOccurred(), "Grep %q answered %q", p, out)
			}
			Expect(out).NotTo(ContainSubstring("TOP SECRET"))
		},
		Entry("parent", "..", `".." is not allowed`),
		Entry("parent file", "../outside/secret.txt", `".." is not allowed`),
		Entry("dot then parent", "./../outside/secret.txt", `".." is not allowed`),
		Entry("parent after a dir", "sub/../../outside/secret.txt", `".." is not allowed`),
		Entry("parent that stays inside", "sub/../log.txt", `".." is not allowed`),
		Entry("parent with trailing slash", "../", `".." is not allowed`),
		Entry("deep parent chain", "sub/deeper/../../../outside/secret.txt", `".." is not allowed`),
		Entry("dots and slashes", ".//..//outside/secret.txt", `".." is not allowed`),
		Entry("absolute", "/etc/passwd", "absolute paths are not allowed"),
		Entry("absolute root", "/", "absolute paths are not allowed"),
		Entry("double slash absolute", "//etc/passwd", "absolute paths are not allowed"),
		Entry("Windows drive", `C:\Windows\win.ini`, "absolute Windows paths"),
		Entry("Windows drive, forward slashes", "c:/Windows/win.ini", "absolute Windows paths"),
		Entry("Windows parent", `..\outside\secret.txt`, "backslashes are not path separators"),
		Entry("Windows nested parent", `sub\..\..\outside\secret.txt`, "backslashes are not path separators"),
		Entry("UNC", `\\server\share\secret.txt`, "backslashes are not path separators"),
		Entry("NUL byte", "log.txt\x00../../outside/secret.txt", "NUL byte"),
		Entry("NUL alone", "\x00", "NUL byte"),
		Entry("empty", "", "empty path"),
		Entry("percent-encoded dots", "%2e%2e/outside/secret.txt", "no such file under the root"),
		Entry("double-encoded dots", "%252e%252e/outside/secret.txt", "no such file under the root"),
		Entry("fullwidth dots", "．．/outside/secret.txt", "no such file under the root"),
		Entry("tilde", "~/secret.txt", "no such file under the root"),
		Entry("symlink out", "link-out", "resolves outside the root"),
		Entry("symlink with absolute target out", "link-abs", "resolves outside the root"),
		Entry("symlink with absolute target in", "link-abs-in", "resolves outside the root"),
		Entry("symlinked dir out", "dir-out/secret.txt", "resolves outside the root"),
		Entry("symlinked dir out, trailing slash", "dir-out/", "resolves outside the root"),
		Entry("symlink chain out", "chain1", "resolves outside the root"),
		Entry("symlink chain middle", "chain2", "resolves outside the root"),
		Entry("symlink loop", "loop", "loop"),
		Entry("missing", "nope.txt", "no such file under the root"),
	)

	It("follows symbolic links that stay inside the root", func() {
		for _, p := range []string{"link-in", "sub/up", "./log.txt", "sub/deeper/notes.txt"} {
			out, err := fsys.Read(fstools.ReadParams{Path: p})
			Expect(err).NotTo(HaveOccurred(), p)
			Expect(out).To(ContainSubstring("ERROR"), p)
		}
	})

	It("names a path over 256 bytes by its start and length, not whole", func() {
		long := "/" + strings.Repeat("x", 1000)
		_, err := fsys.Read(fstools.ReadParams{Path: long})
		Expect(err).To(MatchError(`path "/` + strings.Repeat("x", 255) + `"… (1001 bytes): refused: ` +
			"absolute paths are not allowed; give a path relative to the root"))
		_, err = fsys.Grep(fstools.GrepParams{Pattern: "x", Path: strings.Repeat("é/", 100) + "x"}) // cut on a character
		Expect(err).To(MatchError(`path "` + strings.Repeat("é/", 85) + `"… (301 bytes): no such file under the root`))
		dots := strings.Repeat("./", 100_000) + "log.txt"
		Expect(fsys.Read(fstools.ReadParams{Path: dots, Offset: 9})).To(Equal("(no lines: offset 9 is past the end of log.txt, which has 5 lines)"))
		Expect(fsys.Grep(fstools.GrepParams{Pattern: "nope", Path: dots})).To(Equal(`No matches for "nope" in log.txt.`))
	})

	It("wraps ErrRefused for refused paths only", func() {
		_, err := fsys.Read(fstools.ReadParams{Path: "../x"})
		Expect(errors.Is(err, fstools.ErrRefused)).To(BeTrue())
		_, err = fsys.Read(fstools.ReadParams{Path: "link-out"})
		Expect(errors.Is(err, fstools.ErrRefused)).To(BeTrue())
		_, err = fsys.Read(fstools.ReadParams{Path: "nope"})
		Expect(errors.Is(err, fstools.ErrRefused)).To(BeFalse())
	})

	It("searches a directory without following links out of it", func() {
		out, err := fsys.Grep(fstools.GrepParams{Pattern: "ERROR|SECRET"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("log.txt:2:b ERROR x\nlog.txt:4:d ERROR y\nsub/deeper/notes.txt:1:note ERROR z\n"))
	})
})

var _ = Describe("Read", func() {
	var root string
	var fsys *fstools.FS
	BeforeEach(func() { root, fsys = tree() })

	write := func(name, content string) { writeFile(root, name, content) }

	It("reads a small file whole", func() {
		Expect(fsys.Read(fstools.ReadParams{Path: "log.txt"})).To(Equal("a ok\nb ERROR x\nc ok\nd ERROR y\ne ok\n"))
	})

	It("reads a window of lines: offset 0-based, limit in lines (spec 8.1)", func() {
		var b strings.Builder
		for i := range 1000 {
			fmt.Fprintf(&b, "Line %d\n", i)
		}
		write("lines.txt", b.String())
		out, err := fsys.Read(fstools.ReadParams{Path: "lines.txt", Offset: 10, Limit: ptr(5)})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("Line 10\nLine 11\nLine 12\nLine 13\nLine 14\n"))
		Expect(fsys.Read(fstools.ReadParams{Path: "lines.txt", Offset: 998})).To(Equal("Line 998\nLine 999\n"))
		Expect(fsys.Read(fstools.ReadParams{Path: "lines.txt", Offset: 1000, Limit: ptr(3)})).To(
			Equal("(no lines: offset 1000 is past the end of lines.txt, which has 1000 lines)"))
	})

	It("keeps a last line without newline, and long lines whole", func() {
		long := strings.Repeat("x", 70_000)
		write("long.txt", "first\n"+long+"\nlast")
		Expect(fsys.Read(fstools.ReadParams{Path: "long.txt", Offset: 1, Limit: ptr(2)})).To(Equal(long + "\nlast"))
	})

	It("refuses a file over 25000 estimated tokens without limit, with the spec's exact text, before reading", func() {
		write("big.txt", strings.Repeat("x", 200_000))
		Expect(fsys.Read(fstools.ReadParams{Path: "big.txt"})).To(Equal(
			"Error: File content (~50000 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit " +
				"parameters to read specific portions of the file, or use grep_content to search for specific content."))
		Expect(fsys.Read(fstools.ReadParams{Path: "big.txt", Offset: 3})).To(HavePrefix("Error: File content (~50000 tokens)"))
	})

	It("triggers strictly above 25000 tokens of bytes/4 rounded down", func() {
		write("at.txt", strings.Repeat("y", 100_003)) // 25000 tokens
		out, err := fsys.Read(fstools.ReadParams{Path: "at.txt"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HaveLen(100_003))
		write("over.txt", strings.Repeat("y", 100_004)) // 25001 tokens
		Expect(fsys.Read(fstools.ReadParams{Path: "over.txt"})).To(HavePrefix("Error: File content (~25001 tokens) exceeds"))
	})

	It("refuses a window that is itself too large instead of returning part of it", func() {
		write("wide.txt", strings.Repeat("z", 150_000)+"\nshort\n")
		Expect(fsys.Read(fstools.ReadParams{Path: "wide.txt", Limit: ptr(1)})).To(Equal(
			"Error: Lines 0 to 0 (~37500 tokens) exceed maximum allowed tokens (25000). Please use a smaller limit, " +
				"or use grep_content to search for specific content."))
		Expect(fsys.Read(fstools.ReadParams{Path: "wide.txt", Offset: 1, Limit: ptr(1)})).To(Equal("short\n"))
	})

	DescribeTable("rejects bad arguments",
		func(args, want string) {
			_, err := fsys.RunRead(context.Background(), json.RawMessage(args))
			Expect(err).To(MatchError(want))
		},
		Entry("negative offset", `{"path":"log.txt","offset":-1}`, "offset -1: must be 0 or more (a 0-based line index)"),
		Entry("zero limit", `{"path":"log.txt","limit":0}`, "limit 0: must be 1 or more (a number of lines)"),
		Entry("unknown field", `{"path":"log.txt","lines":3}`, `Read arguments: unknown field "lines"`),
		Entry("wrong type", `{"path":"log.txt","limit":"3"}`, "Read arguments: limit: want int, got string"),
		Entry("directory", `{"path":"sub"}`, `path "sub": is a directory; Read takes a file (Grep searches directories)`),
	)
})

var _ = Describe("Grep", func() {
	var root string
	var fsys *fstools.FS
	BeforeEach(func() { root, fsys = tree() })

	It("prints N:text for one file and context lines with separators", func() {
		Expect(fsys.Grep(fstools.GrepParams{Pattern: "ERROR", Path: "log.txt"})).To(Equal("2:b ERROR x\n4:d ERROR y\n"))
		Expect(fsys.Grep(fstools.GrepParams{Pattern: "^a|^e", Path: "log.txt", Context: 1})).To(Equal("1:a ok\n2-b ERROR x\n--\n4-d ERROR y\n5:e ok\n"))
		Expect(fsys.Grep(fstools.GrepParams{Pattern: "ERROR y", Path: "log.txt", Context: 1})).To(Equal("3-c ok\n4:d ERROR y\n5-e ok\n"))
	})

	It("searches a directory holding a folder whose name is not UTF-8 (file names are bytes)", func() {
		Expect(os.MkdirAll(filepath.Join(root, "raw\x83"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "raw\x83", "f.txt"), []byte("ERROR raw\n"), 0o644)).To(Succeed())
		out, err := fsys.Grep(fstools.GrepParams{Pattern: "ERROR raw"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("raw\x83/f.txt:1:ERROR raw\n"))
		Expect(fsys.Read(fstools.ReadParams{Path: "raw\x83/f.txt"})).To(Equal("ERROR raw\n"))
	})

	It("answers no match in plain words", func() {
		Expect(fsys.Grep(fstools.GrepParams{Pattern: "WARN", Path: "log.txt"})).To(Equal(`No matches for "WARN" in log.txt.`))
	})

	It("bounds the listing by max_results and says how many matched", func() {
		Expect(fsys.Grep(fstools.GrepParams{Pattern: "ok", Path: "log.txt", MaxResults: 2})).To(Equal(
			"1:a ok\n3:c ok\n(2 of 3 matching lines shown: raise max_results or use a more specific pattern)\n"))
	})

	It("returns the spec's error when the matches are over 25000 estimated tokens", func() {
		line := strings.Repeat("m", 2000)
		Expect(os.WriteFile(filepath.Join(root, "wide.txt"), []byte(strings.Repeat(line+"\n", 60)), 0o644)).To(Succeed())
		out, err := fsys.Grep(fstools.GrepParams{Pattern: "m", Path: "wide.txt"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(MatchRegexp(`^Error: Search returned ~30\d\d\d tokens of matches\. Please use a more specific pattern or limit results with max_results parameter\.$`))
		out, _ = fsys.Grep(fstools.GrepParams{Pattern: "m", Path: "wide.txt", MaxResults: 10})
		Expect(out).To(HaveSuffix("(10 of 60 matching lines shown: raise max_results or use a more specific pattern)\n"))
	})

	DescribeTable("rejects bad arguments",
		func(args, want string) {
			_, err := fsys.RunGrep(context.Background(), json.RawMessage(args))
			Expect(err).To(MatchError(want))
		},
		Entry("no pattern", `{"path":"log.txt"}`, "pattern is required"),
		Entry("bad pattern", `{"pattern":"(","path":"log.txt"}`, "pattern \"(\": error parsing regexp: missing closing ): `(`"),
		Entry("negative context", `{"pattern":"a","context":-2}`, "context -2: must be 0 or more"),
		Entry("not an object", `[1]`, "Grep arguments: want a JSON object, got array"),
	)
})

var _ = Describe("shell output check", func() {
	It("passes output up to 25000 tokens and refuses more with the spec's text", func() {
		out, over := fstools.CheckCommandOutput(strings.Repeat("s", 100_003))
		Expect(over).To(BeFalse())
		Expect(out).To(HaveLen(100_003))
		out, over = fstools.CheckCommandOutput(strings.Repeat("s", 200_000))
		Expect(over).To(BeTrue())
		Expect(out).To(Equal("Error: Command output (~50000 tokens) exceeds maximum allowed. " +
			"Please pipe output through head/tail/grep, or redirect to a file and read specific portions."))
	})
})

var _ = Describe("descriptors", func() {
	It("offer Read and Grep with valid JSON schemas", func() {
		for _, t := range []struct {
			name     string
			schema   json.RawMessage
			required []any
		}{{fstools.ReadTool().Name, fstools.ReadTool().InputSchema, []any{"path"}}, {fstools.GrepTool().Name, fstools.GrepTool().InputSchema, []any{"pattern"}}} {
			var m map[string]any
			Expect(json.Unmarshal(t.schema, &m)).To(Succeed(), t.name)
			Expect(m["required"]).To(Equal(t.required))
			Expect(m["additionalProperties"]).To(BeFalse())
		}
		Expect(fstools.ReadTool().Name).To(Equal("Read"))
		Expect(fstools.GrepTool().Name).To(Equal("Grep"))
	})
})
