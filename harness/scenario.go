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

	"github.com/toolout/toolout/internal/yamlstrict"

	"github.com/toolout/toolout/fakes"
)

// Scenario is one YAML scenario file. Config, Input and the component part of
// Expect are decoded by the component named in Component.
type Scenario struct {
	// ID names the scenario in reports and transcripts, and its golden
	// (LayoutIn): under scenarios/ its path there without ".yaml", which the
	// `scenario:` field, when present, must equal; elsewhere its file name
	// without ".yaml", or, with a golden folder, its path below the folder
	// it shares with that folder.
	ID          string       `yaml:"scenario"`
	Description string       `yaml:"description"`
	Labels      []string     `yaml:"labels"`
	Component   string       `yaml:"component"`
	Wire        string       `yaml:"wire"` // the API the model speaks: openai, anthropic, responses (checkWire)
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
	at   place
}

// Source records where a scenario came from when it was imported.
type Source struct {
	Trace    string   `yaml:"trace"`
	SHA256   string   `yaml:"sha256"`
	Messages []int    `yaml:"messages"`
	Redacted []string `yaml:"redacted"`
	// Omitted counts what the trace held that the scenario does not replay
	// as it was, "kind xN" (thinking blocks, images, ...); absent when
	// nothing was.
	Omitted []string `yaml:"omitted,omitempty"`
}

var labelRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// MaxScenarioBytes bounds a scenario file. The YAML parser needs some
// hundred bytes of memory per value, and a file of brackets is a value every
// byte; large payloads belong in a file beside the scenario (text: {file:
// NAME}) or are generated.
const MaxScenarioBytes = 1 << 20

// Load reads and validates one scenario file with the components of reg. The
// error, if any, is an ErrorList holding every problem found, each at a
// file:line:col position (a file that cannot be read is named alone).
//
// Bounds and choices: a file holds one YAML document (a second one after
// "---" is an error; an empty one is allowed); it is at most
// MaxScenarioBytes; aliases may expand it by at most 1,048,576 values, and an
// alias inside the node it refers to is an error, so a "billion laughs" file
// fails fast at the alias that crosses the bound. Nesting is bounded by the
// YAML parser (10,000 levels). Where the parser names no line (bytes that are
// not UTF-8 or are control characters, an unknown anchor) the position is
// found in the file.
//
// The scenario's ID and golden are found by LayoutIn without a golden
// folder (Runner.Load uses the Runner's GoldenDir).
func Load(reg *Registry, file string) (*Scenario, error) { return load(reg, "", file) }

func load(reg *Registry, goldenDir, file string) (*Scenario, error) {
	at := locate(goldenDir, file)
	display := at.display
	src, err := readScenario(file)
	if err != nil {
		return nil, ErrorList{{Pos: Pos{File: display}, Msg: unwrapPath(err).Error()}}
	}
	if len(src) > MaxScenarioBytes {
		return nil, ErrorList{{Pos: Pos{display, 1, 1}, Msg: fmt.Sprintf("the file is over %d bytes; keep large payloads "+
			"in a file beside it (text: {file: NAME}) or generate them", MaxScenarioBytes)}}
	}
	sc, errs := parse(reg, src, display, filepath.Dir(file))
	if sc == nil {
		errs.Sort()
		return nil, errs.Err()
	}
	if sc.ID != "" && at.scenariosID != "" && sc.ID != at.scenariosID {
		k, _ := lookup(sc.root, "scenario")
		errs.Add(Pos{display, k.Line, k.Column}, "scenario %q does not match the file's path (want %q)", Clip(sc.ID), at.scenariosID)
	}
	sc.ID, sc.Path, sc.File, sc.Golden, sc.at = at.id, display, file, at.golden, at
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return sc, nil
}

// readScenario reads file, or its first MaxScenarioBytes+1 bytes.
func readScenario(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxScenarioBytes+1))
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
			d.errs = append(d.errs, yamlSyntaxError(display, src, err))
		}
		return nil, d.errs
	}
	d.secondDocument(dec, src)
	if !d.checkAliases(&doc) {
		return nil, d.errs
	}
	root := yamlstrict.Resolve(&doc)
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
		n := yamlstrict.Resolve(root)
		_, ln := lookup(n, "llm")
		if ln != nil && i < len(ln.Content) {
			sn := yamlstrict.Resolve(ln.Content[i])
			sc.LLM[i].Pos = d.pos(sn).String()
			if step.ID == "" {
				sc.LLM[i].ID = fmt.Sprintf("step-%d", i+1)
			}
		}
	}
	d.checkStepIDs(sc)
	d.checkWire(sc)
	for i, l := range sc.Labels {
		if !labelRE.MatchString(l) {
			_, ln := lookup(root, "labels")
			at := ln
			if ln.Kind == yaml.SequenceNode {
				at = ln.Content[i]
			}
			d.errorf(at, "labels[%d]: %q: want letters, digits, '_', '.', '-'", i, Clip(l))
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
			msg := fmt.Sprintf("component %q: unknown", Clip(sc.Component))
			if s := yamlstrict.Nearest(sc.Component, reg.Names()); s != "" {
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
			at := yamlstrict.Resolve(ln.Content[i])
			if k, _ := lookup(at, "id"); k != nil {
				at = k
			}
			d.errorf(at, "llm[%d]: duplicate step id %q", i, Clip(s.ID))
		}
		seen[s.ID] = true
	}
}

// secondDocument reports a second YAML document in a scenario file: a file
// holds one scenario, and what follows a "---" would be silently ignored. An
// empty document after a trailing "---" is allowed.
func (d *decoder) secondDocument(dec *yaml.Decoder, src []byte) {
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
	case err != nil:
		d.errs = append(d.errs, yamlSyntaxError(d.file, src, err))
	case len(doc.Content) == 1 && doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Value == "" &&
		doc.Content[0].Tag == "!!null" && doc.Content[0].Style == 0:
	default:
		d.errorf(&doc, "a scenario file holds one YAML document; a second one starts here")
	}
}

// yamlSyntaxError turns an error of the YAML parser into a positioned Error:
// a reader problem (bad bytes, a forbidden character) and an unknown anchor
// are placed in src by problemPos, any other problem where the parser
// stopped (yamlstrict.Locate), else at 1:1.
func yamlSyntaxError(display string, src []byte, err error) *Error {
	msg := yamlstrict.Message(err)
	if p := problemPos(display, src, msg); p.Line != 1 || p.Col != 1 {
		return &Error{Pos: p, Msg: "syntax error: " + msg}
	}
	if line, col, m, ok := yamlstrict.Locate(src, err); ok {
		return &Error{Pos: Pos{display, line, col}, Msg: "syntax error: " + m}
	}
	return &Error{Pos: Pos{display, 1, 1}, Msg: "syntax error: " + msg}
}

// Discover returns the scenario files (*.yaml, *.yml) named by paths: files
// as given, folders walked recursively, sorted within each folder. Its
// error names the path and what went wrong, without a package prefix: a
// command prints it after its own name ("toolout test: ...").
func Discover(paths ...string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, unwrapPath(err))
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
			return nil, err
		}
	}
	return slices.Compact(out), nil
}

func (sc *Scenario) dir() string { return filepath.Dir(sc.File) }
