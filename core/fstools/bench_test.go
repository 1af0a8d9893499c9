package fstools_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/fstools"
	"github.com/toolout/toolout/internal/hostile"
)

// hostileFiles are files of about size bytes for Read and Grep: many empty
// lines; one line as long as the file; lines longer than MaxLineBytes
// (cut); CRLF lines; a match on every line (grep -C 3 lists at most 100).
var hostileFiles = []hostile.Input{
	{Name: "empty-lines", Make: func(n int) []byte { return []byte(strings.Repeat("\n", n)) }},
	{Name: "one-line", Make: func(n int) []byte { return []byte(strings.Repeat("lorem ipsum ", n/12)) }},
	{Name: "long-lines", Make: func(n int) []byte {
		return []byte(strings.Repeat(strings.Repeat("x", 3*fstools.MaxLineBytes)+" ERROR\n", n/(3*fstools.MaxLineBytes+7)))
	}},
	{Name: "crlf", Make: func(n int) []byte { return []byte(strings.Repeat("a\r\n", n/3)) }},
	{Name: "all-match", Make: func(n int) []byte { return []byte(strings.Repeat("2026-11-25 ERROR job failed\n", n/28)) }},
}

// BenchmarkReadAdversarial reads the last ten lines of each of
// hostileFiles (Read counts every line before them) at 1 MiB and 10 MiB
// (make bench-linear's pairs).
func BenchmarkReadAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileFiles, func(b *testing.B, data []byte) {
		fs := openFile(b, data)
		lines := strings.Count(string(data), "\n")
		limit := 10
		for b.Loop() {
			if _, err := fs.Read(fstools.ReadParams{Path: "f.log", Offset: max(lines-10, 0), Limit: &limit}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGrepAdversarial greps each of hostileFiles for "ERROR" with
// three lines of context at 1 MiB and 10 MiB.
func BenchmarkGrepAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileFiles, func(b *testing.B, data []byte) {
		fs := openFile(b, data)
		for b.Loop() {
			if _, err := fs.Grep(fstools.GrepParams{Pattern: "ERROR", Path: "f.log", Context: 3}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestGrepHoldsContextWithoutAllocatingPerLine: the context lines held
// before a match slide along one array, so Grep's allocations do not grow
// with the lines it reads (each line past the context reallocated the
// window, and sizing it formatted the line number: 1.3 allocations and
// 140 bytes a line on empty lines, 142 MB for 1 MiB).
func TestGrepHoldsContextWithoutAllocatingPerLine(t *testing.T) {
	allocs := func(lines int) float64 {
		dir := t.TempDir()
		data := strings.Repeat("\n", lines) + "ERROR\n"
		if err := os.WriteFile(filepath.Join(dir, "f.log"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		fs, err := fstools.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer fs.Close()
		return testing.AllocsPerRun(3, func() {
			if _, err := fs.Grep(fstools.GrepParams{Pattern: "ERROR", Path: "f.log", Context: 3}); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(10_000), allocs(100_000)
	if large > small+10 {
		t.Errorf("Grep allocated %.0f times over 10,000 lines and %.0f over 100,000: it allocates per line", small, large)
	}
}

// openFile opens a directory holding data as f.log.
func openFile(b *testing.B, data []byte) *fstools.FS {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.log"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	fs, err := fstools.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { fs.Close() })
	return fs
}
