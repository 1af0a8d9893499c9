// Package seeds reads fuzz seeds from the bundled scenarios and from
// files, for the fuzz targets of packages that must not import the harness
// (core's). It is test code's helper only: MustOutputs and Files fail the
// test rather than return an error, as a fuzz target without its seeds
// would fuzz from nothing.
//
// Generated outputs are approximated: the template is repeated once per line,
// without the harness's template functions, at most maxLines times. That is
// close enough for a seed and keeps the seeds free of the harness.
package seeds

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Outputs returns the tool output (input.output) of every scenario under
// dir, in walk order: text as given, a file's content (relative to the
// scenario), or a generated output's template repeated at most maxLines
// times.
func Outputs(dir string, maxLines int) ([]string, error) {
	var out []string
	err := EachYAML(dir, func(path string, data []byte) error {
		var sc struct {
			Input struct {
				Output yaml.Node `yaml:"output"`
			} `yaml:"input"`
		}
		if err := yaml.Unmarshal(data, &sc); err != nil {
			return err
		}
		text, err := outputText(filepath.Dir(path), &sc.Input.Output, maxLines)
		out = append(out, text)
		return err
	})
	return out, err
}

// MustOutputs is Outputs for a fuzz target: it fails tb when the scenarios
// under dir cannot be read or hold no output.
func MustOutputs(tb testing.TB, dir string, maxLines int) []string {
	tb.Helper()
	texts, err := Outputs(dir, maxLines)
	if err != nil || len(texts) == 0 {
		tb.Fatalf("seeds from %s: %v (%d found)", dir, err, len(texts))
	}
	return texts
}

// Files returns the content of every file that the glob pattern matches,
// in name order; it fails tb when the pattern is malformed, matches
// nothing, or a file cannot be read.
func Files(tb testing.TB, pattern string) [][]byte {
	tb.Helper()
	names, err := filepath.Glob(pattern)
	switch {
	case err != nil:
		tb.Fatalf("seeds: pattern %s: %v", pattern, err)
	case len(names) == 0:
		tb.Fatalf("seeds: no file matches %s", pattern)
	}
	out := make([][]byte, 0, len(names))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			tb.Fatalf("seeds: %v", err)
		}
		out = append(out, data)
	}
	return out
}

// Docs returns the YAML document of every scenario under dir, in walk
// order, for fuzz targets that pick their seeds from anywhere in a
// scenario; a file that is not YAML is left out.
func Docs(dir string) ([]*yaml.Node, error) {
	var out []*yaml.Node
	err := EachYAML(dir, func(_ string, data []byte) error {
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) == nil {
			out = append(out, &doc)
		}
		return nil
	})
	return out, err
}

// EachYAML calls fn with the path and content of every .yaml file under
// dir (every scenario), in walk order (lexical), until fn returns an error,
// which it returns.
func EachYAML(dir string, fn func(path string, data []byte) error) error {
	return filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return fn(path, data)
	})
}

func outputText(dir string, n *yaml.Node, maxLines int) (string, error) {
	if n.Kind == yaml.ScalarNode || n.Kind == 0 {
		return n.Value, nil
	}
	var o struct {
		Text     string
		File     string
		Generate struct {
			Lines    int
			Template string
		}
	}
	if err := n.Decode(&o); err != nil {
		return "", err
	}
	switch {
	case o.File != "":
		data, err := os.ReadFile(filepath.Join(dir, o.File))
		return string(data), err
	case o.Generate.Template != "":
		return strings.Repeat(o.Generate.Template+"\n", min(o.Generate.Lines, maxLines)), nil
	}
	return o.Text, nil
}
