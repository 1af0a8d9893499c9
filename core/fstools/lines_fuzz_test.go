package fstools_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/fstools"
	"github.com/toolout/toolout/internal/seeds"
)

// scenarioGreps returns the Grep patterns and the texts of the scenarios:
// the patterns of Grep calls and oracles, and every "text" value.
func scenarioGreps(f *testing.F) (patterns, texts []string) {
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 1 && c.Kind == yaml.ScalarNode {
				switch n.Content[i-1].Value {
				case "pattern":
					patterns = append(patterns, c.Value)
				case "text":
					texts = append(texts, c.Value)
				}
			}
			walk(c)
		}
	}
	docs, err := seeds.Docs("../../scenarios")
	for _, doc := range docs {
		walk(doc)
	}
	if err != nil || len(patterns) == 0 || len(texts) == 0 {
		f.Fatalf("no Grep patterns or texts in the scenarios (%v)", err)
	}
	return patterns, texts
}

// FuzzLines checks Read's line counting and Grep's listing on any file
// content, pattern and context:
//   - Read counts the lines of the model (a line ends after "\n"; bytes
//     after the last "\n" are one more line) and returns the first and the
//     last line as they are;
//   - Grep's listing equals a second implementation of grep -n -C (with the
//     cut of long lines, the notes, max_results and the size check);
//   - Grep gives the same bytes with a 16-byte read buffer, where almost
//     every line takes the streaming path, as with its normal buffer.
func FuzzLines(f *testing.F) {
	patterns, texts := scenarioGreps(f)
	for i, t := range texts {
		f.Add([]byte(t), patterns[i%len(patterns)], uint8(i%3), uint8(0))
	}
	for _, n := range boundarySizes {
		long := strings.Repeat("é", n/2) + strings.Repeat("a", n%2)
		f.Add([]byte(long), "a$", uint8(1), uint8(2))
		f.Add([]byte("x\n"+long+"\r\n"), "^x|é{2}a", uint8(0), uint8(5))
	}
	f.Add([]byte(strings.Repeat("a", 4096)), "a", uint8(0), uint8(1))
	f.Add([]byte("a\r\rb\r\n\r\n\n\xff\xfe\r"), "\r|^$|\\x{FFFD}", uint8(2), uint8(0))
	f.Add([]byte(strings.Repeat("z", 9000)+"NEEDLE"+strings.Repeat("é", 3000)), "NEEDLE", uint8(0), uint8(0))
	root := f.TempDir()
	normal, err := fstools.Open(root)
	if err != nil {
		f.Fatal(err)
	}
	small, err := fstools.Open(root)
	if err != nil {
		f.Fatal(err)
	}
	fstools.SetGrepBuffer(small, 16)
	f.Fuzz(func(t *testing.T, content []byte, pattern string, context, maxResults uint8) {
		re, err := regexp.Compile(pattern)
		if err != nil || pattern == "" {
			return
		}
		if err := os.WriteFile(filepath.Join(root, "f.txt"), content, 0o644); err != nil {
			t.Fatal(err)
		}
		lines := lineModel(string(content))
		if len(content) == 0 {
			lines = nil
		}
		checkRead(t, normal, lines)
		p := fstools.GrepParams{Pattern: pattern, Path: "f.txt", Context: int(context % 8), MaxResults: int(maxResults % 8)}
		got, err := normal.Grep(p)
		if err != nil {
			t.Fatalf("Grep: %v", err)
		}
		if again, err := small.Grep(p); err != nil || again != got {
			t.Fatalf("Grep with a 16-byte buffer differs (%v):\n%q\nwant\n%q", err, again, got)
		}
		if len(content) < 60_000 {
			if want := grepModel(re, p, lines); got != want {
				t.Fatalf("Grep %+v:\n%q\nwant\n%q", p, got, want)
			}
		}
	})
}

func checkRead(t *testing.T, fsys *fstools.FS, lines []string) {
	t.Helper()
	n := len(lines)
	one := 1
	got, err := fsys.Read(fstools.ReadParams{Path: "f.txt", Offset: n, Limit: &one})
	if want := fmt.Sprintf("(no lines: offset %d is past the end of f.txt, which has %d lines)", n, n); err != nil || got != want {
		t.Fatalf("Read past the end: %q, %v; want %q", got, err, want)
	}
	for _, i := range []int{0, n - 1} {
		if i < 0 || i >= n {
			continue
		}
		want := lines[i]
		if tokens := fstools.Estimate(int64(len(want))); tokens > fstools.MaxTokens {
			want = fstools.WindowTooLarge(tokens, i, 1)
		}
		if got, err := fsys.Read(fstools.ReadParams{Path: "f.txt", Offset: i, Limit: &one}); err != nil || got != want {
			t.Fatalf("Read line %d: %q, %v; want %q", i, got, err, want)
		}
	}
}

// grepModel lists what Grep should answer for one file, written from the
// package contract: the lines of the first max matches with context lines
// around them, up to the next match not listed; "--" between groups; long
// lines cut (around the first match for a matching line); then the notes
// on cut lines and on max_results; the spec's error over MaxTokens.
func grepModel(re *regexp.Regexp, p fstools.GrepParams, lines []string) string {
	maxResults := p.MaxResults
	if maxResults == 0 {
		maxResults = fstools.DefaultMaxResults
	}
	texts := make([]string, len(lines))
	var matches []int
	for i, l := range lines {
		texts[i] = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
		if re.MatchString(texts[i]) {
			matches = append(matches, i)
		}
	}
	if len(matches) == 0 {
		return fmt.Sprintf("No matches for %q in f.txt.", p.Pattern)
	}
	end := len(lines) // listing stops before the first match not listed
	if len(matches) > maxResults {
		end = matches[maxResults]
	}
	listed := map[int]byte{}
	for _, m := range matches[:min(len(matches), maxResults)] {
		for i := max(0, m-p.Context); i <= m+p.Context && i < end; i++ {
			listed[i] = '-'
		}
	}
	for _, m := range matches {
		if _, ok := listed[m]; ok {
			listed[m] = ':'
		}
	}
	var out, notes bytes.Buffer
	last := -1
	for i := range lines {
		sep, ok := listed[i]
		if !ok {
			continue
		}
		if p.Context > 0 && last >= 0 && i > last+1 {
			out.WriteString("--\n")
		}
		last = i
		text, from := texts[i], 0
		if len(text) > fstools.MaxLineBytes {
			if sep == ':' {
				from = max(0, re.FindStringIndex(text)[0]-fstools.MaxLineBytes/4)
			}
			for k := 0; k < 3 && from < len(text) && !utf8.RuneStart(text[from]); k++ {
				from++
			}
			cut := text[from:min(len(text), from+fstools.MaxLineBytes)]
			if from+len(cut) < len(text) { // leave out a character cut in two
				k := len(cut) - 1
				for k > 0 && k > len(cut)-utf8.UTFMax && !utf8.RuneStart(cut[k]) {
					k--
				}
				if k >= 0 && !utf8.FullRuneInString(cut[k:]) {
					cut = cut[:k]
				}
			}
			fmt.Fprintf(&notes, "(line %d is cut: %d bytes long, %d shown from byte offset %d)\n", i+1, len(text), len(cut), from)
			text = cut
		}
		out.WriteString(strconv.Itoa(i+1) + string(sep) + text + "\n")
	}
	out.Write(notes.Bytes())
	if len(matches) > maxResults {
		fmt.Fprintf(&out, "(%d of %d matching lines shown: raise max_results or use a more specific pattern)\n", maxResults, len(matches))
	}
	if tokens := fstools.Estimate(int64(out.Len())); tokens > fstools.MaxTokens {
		return fstools.SearchTooLarge(tokens)
	}
	return out.String()
}
