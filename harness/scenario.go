package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/fakes"
)

// Scenario is one YAML scenario file. Config, Input and the component part of
// Expect are decoded by the component named in Component.
type Scenario struct {
	// ID is the path under scenarios/ without ".yaml"; the `scenario:` field,
	// when present, must equal it.
	ID          string       `yaml:"scenario"`
	Description string       `yaml:"description"`
	Labels      []string     `yaml:"labels"`
	Component   string       `yaml:"component"`
	Source      *Source      `yaml:"source"`
	Config      yaml.Node    `yaml:"config"`
	Input       yaml.Node    `yaml:"input"`
	LLM         []fakes.Step `yaml:"llm"`
	Expect      yaml.Node    `yaml:"expect"`

	// Path is the file as displayed in messages.
	Path string `yaml:"-"`
	// File is the file's path on disk.
	File string `yaml:"-"`
	// Golden is the path on disk of the scenario's golden file.
	Golden string `yaml:"-"`
	// Line is the line of the first key, where test runners locate the scenario.
	Line int `yaml:"-"`
	// Failure is expect.failure: the message the run must fail with.
	Failure string `yaml:"-"`

	root *yaml.Node
	dec  *decoder
	run  prepared
}

// Source records where a scenario came from when it was imported.
type Source struct {
	Trace    string   `yaml:"trace"`
	SHA256   string   `yaml:"sha256"`
	Messages []int    `yaml:"messages"`
	Redacted []string `yaml:"redacted"`
}

var labelRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// Layout says where a scenario file's ID, display path and golden file are:
// for a file under a folder named "scenarios", the ID is its path below that
// folder without ".yaml", the display path starts at "scenarios/", and the
// golden is golden/<ID>.txtar beside that folder. Other files (such as
// malformed examples under testdata) have their base name as ID, the path as
// given for display, and no golden.
func Layout(file string) (id, display, golden string) {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	dir := abs
	for {
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		if filepath.Base(parent) == "scenarios" {
			root := filepath.Dir(parent)
			rel, _ := filepath.Rel(parent, abs)
			id = strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel))
			display = "scenarios/" + filepath.ToSlash(rel)
			golden = filepath.Join(root, "golden", filepath.FromSlash(id)+".txtar")
			return id, display, golden
		}
		dir = parent
	}
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base)), filepath.ToSlash(file), ""
}

// Load reads and validates one scenario file with the components of reg. The
// error, if any, is an ErrorList holding every problem found.
func Load(reg *Registry, file string) (*Scenario, error) {
	id, display, golden := Layout(file)
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, ErrorList{{Pos: Pos{File: display}, Msg: unwrapPath(err).Error()}}
	}
	sc, errs := parse(reg, src, display, filepath.Dir(file))
	if sc == nil {
		return nil, errs.Err()
	}
	if sc.ID != "" && sc.ID != id && golden != "" {
		k, _ := lookup(sc.root, "scenario")
		errs.Add(Pos{display, k.Line, k.Column}, "scenario %q does not match the file's path (want %q)", sc.ID, id)
	}
	sc.ID, sc.Path, sc.File, sc.Golden = id, display, file, golden
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return sc, nil
}

func reflectValue(p any) reflect.Value { return reflect.ValueOf(p).Elem() }

func parse(reg *Registry, src []byte, display, dir string) (*Scenario, ErrorList) {
	d := &decoder{file: display, dir: dir}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			d.errs.Add(Pos{display, 1, 1}, "empty scenario file")
		} else {
			d.errs = append(d.errs, yamlSyntaxError(display, err))
		}
		return nil, d.errs
	}
	root := resolve(&doc)
	if root.Kind != yaml.MappingNode {
		d.errorf(root, "a scenario is a mapping, got %s", kindName(root))
		return nil, d.errs
	}
	sc := &Scenario{root: root, dec: d, Line: root.Line}
	if len(root.Content) > 0 {
		sc.Line = root.Content[0].Line
	}
	d.decodeStruct(root, reflectValue(sc), "")
	for i, step := range sc.LLM {
		n := resolve(root)
		_, ln := lookup(n, "llm")
		if ln != nil && i < len(ln.Content) {
			sn := resolve(ln.Content[i])
			sc.LLM[i].Pos = d.pos(sn).String()
			if step.ID == "" {
				sc.LLM[i].ID = fmt.Sprintf("step-%d", i+1)
			}
		}
	}
	d.checkStepIDs(sc)
	for i, l := range sc.Labels {
		if !labelRE.MatchString(l) {
			_, ln := lookup(root, "labels")
			at := ln
			if ln.Kind == yaml.SequenceNode {
				at = ln.Content[i]
			}
			d.errorf(at, "labels[%d]: %q: want letters, digits, '_', '.', '-'", i, l)
		}
	}
	// expect.failure is the harness's; the rest belongs to the component.
	if k, fv := lookup(&sc.Expect, "failure"); k != nil {
		d.decode(fv, reflectValue(&sc.Failure), "expect.failure")
		if sc.Failure == "" {
			d.errorf(fv, "expect.failure: want the message the run must fail with")
		}
	}
	switch k, _ := lookup(root, "component"); {
	case k == nil:
		d.errs.Add(Pos{display, sc.Line, 1}, "missing field \"component\" (known: %s)", strings.Join(reg.Names(), ", "))
	default:
		c, ok := reg.lookup(sc.Component)
		if !ok {
			_, v := lookup(root, "component")
			msg := fmt.Sprintf("component %q: unknown", sc.Component)
			if s := suggest(sc.Component, reg.Names()); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			} else {
				msg += " (known: " + strings.Join(reg.Names(), ", ") + ")"
			}
			d.errorf(v, "%s", msg)
			break
		}
		sc.run = c.prepare(d, sc)
	}
	return sc, d.errs
}

func (d *decoder) checkStepIDs(sc *Scenario) {
	seen := map[string]bool{}
	_, ln := lookup(sc.root, "llm")
	for i, s := range sc.LLM {
		if seen[s.ID] {
			at := resolve(ln.Content[i])
			if k, _ := lookup(at, "id"); k != nil {
				at = k
			}
			d.errorf(at, "llm[%d]: duplicate step id %q", i, s.ID)
		}
		seen[s.ID] = true
	}
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func yamlSyntaxError(display string, err error) *Error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		var line int
		fmt.Sscan(m[1], &line)
		return &Error{Pos: Pos{display, line, 1}, Msg: "syntax error: " + m[2]}
	}
	return &Error{Pos: Pos{File: display}, Msg: "syntax error: " + strings.TrimPrefix(msg, "yaml: ")}
}

// Discover returns the scenario files (*.yaml, *.yml) named by paths: files
// as given, folders walked recursively, sorted within each folder.
func Discover(paths ...string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("harness: %s: %w", p, unwrapPath(err))
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("harness: %w", err)
		}
	}
	return slices.Compact(out), nil
}

func (sc *Scenario) dir() string { return filepath.Dir(sc.File) }
