package seeds_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolout/toolout/internal/seeds"
)

// fatal stands in for a test that fails: Fatalf records the message and
// stops the helper, as testing's does.
type fatal struct {
	testing.TB
	msg string
}

type stopped struct{}

func (f *fatal) Helper() {}

func (f *fatal) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(stopped{})
}

// failure runs fn with a fatal and returns its message, "" when fn did not fail.
func failure(fn func(tb testing.TB)) (msg string) {
	f := &fatal{}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopped); !ok {
				panic(r)
			}
			msg = f.msg
		}
	}()
	fn(f)
	return ""
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"b.json": "2", "a.json": "1", "c.txt": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := seeds.Files(t, filepath.Join(dir, "*.json"))
	if want := [][]byte{[]byte("1"), []byte("2")}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Files = %q, want %q (name order, only the matches)", got, want)
	}
	for pattern, want := range map[string]string{
		filepath.Join(dir, "*.yaml"): "seeds: no file matches " + filepath.Join(dir, "*.yaml"),
		filepath.Join(dir, "[x"):     "seeds: pattern " + filepath.Join(dir, "[x") + ": syntax error in pattern",
	} {
		if msg := failure(func(tb testing.TB) { seeds.Files(tb, pattern) }); msg != want {
			t.Errorf("Files(%q) failed with %q, want %q", pattern, msg, want)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "d.json"), 0o755); err != nil { // matched, and not readable as a file
		t.Fatal(err)
	}
	if msg := failure(func(tb testing.TB) { seeds.Files(tb, filepath.Join(dir, "*.json")) }); !strings.Contains(msg, "d.json: is a directory") {
		t.Errorf("Files with a folder among the matches failed with %q", msg)
	}
}

func TestMustOutputs(t *testing.T) {
	if got, want := seeds.MustOutputs(t, "testdata/example", 3), []string{"line\nline\nline\n"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("MustOutputs = %q, want %q", got, want)
	}
	empty := t.TempDir()
	if msg, want := failure(func(tb testing.TB) { seeds.MustOutputs(tb, empty, 10) }), "seeds from "+empty+": <nil> (0 found)"; msg != want {
		t.Errorf("MustOutputs on an empty folder failed with %q, want %q", msg, want)
	}
}
