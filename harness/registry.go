package harness

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
	"github.com/toolout/toolout/internal/yamlstrict"
)

// Env is what a component's Run gets from the harness: deterministic sources,
// the scripted LLM, a scratch folder, and a log that goes into the transcript.
type Env struct {
	// Sources are fresh sequential IDs, nonces and a stepping clock.
	Sources core.Sources
	// Clock is the clock behind Sources.Now, for components that move time.
	Clock *fakes.Clock
	// LLM is the scripted fake built from the scenario's llm steps.
	LLM *fakes.LLM
	// Wire is the scenario's wire, empty when it names none; a
	// component's model is Model, which answers through it.
	Wire llmwire.Wire
	// Dir is the folder of the scenario file.
	Dir string
	// TempDir is a scratch folder removed after the run; its path is replaced
	// by $TMP in transcripts.
	TempDir string

	mu   sync.Mutex
	logs []string
}

// Logf adds a line to the transcript's log section. Components must log in a
// deterministic order.
func (e *Env) Logf(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.logs = append(e.logs, fmt.Sprintf(format, args...))
}

// Mismatch is an expectation that did not hold. Field is the dotted path of the
// key under expect (e.g. "result.contains"), used to point at the YAML line.
type Mismatch struct {
	Field string
	Msg   string
}

// Spec describes a component: how to decode its config (C), input (I) and
// expectations (E), how to run it to a result (R), how to render the result
// into transcript sections, and how to check it.
type Spec[C, I, E, R any] struct {
	Name string
	// Doc is one line for `toolout test --list`-style help.
	Doc string
	// LLM says whether the component calls the LLM; when false, llm steps are
	// an error.
	LLM bool
	// Defaults fills the config before the scenario's values are decoded.
	Defaults func(*C)
	// Run runs the component.
	Run func(ctx context.Context, env *Env, cfg *C, in *I) (R, error)
	// Render turns the result into sections; nil renders it as JSON into a
	// section named "result.json".
	Render func(R) ([]Section, error)
	// Check compares the result with the expectations.
	Check func(exp *E, got R) []Mismatch
}

// prepared runs a decoded scenario and returns its sections and a check.
type prepared func(ctx context.Context, env *Env) ([]Section, func() []Mismatch, error)

type component interface {
	name() string
	doc() string
	prepare(d *decoder, sc *Scenario) prepared
}

// Registry maps component names to components. It is safe for concurrent
// reads once built.
type Registry struct {
	components map[string]component
	scratch    func() (string, error)
}

// SetScratch sets how a run makes its scratch folder (Env.TempDir), which
// the run removes with everything in it when it returns. nil, the default,
// is os.MkdirTemp("", "toolout-scenario-"). The components that store
// outputs there set one that also removes the folders of runs killed before
// they could (components.Default). Call it before the registry is used.
func (reg *Registry) SetScratch(mk func() (string, error)) { reg.scratch = mk }

// tempDir makes a scratch folder for one run.
func (reg *Registry) tempDir() (string, error) {
	if reg.scratch != nil {
		return reg.scratch()
	}
	return os.MkdirTemp("", "toolout-scenario-")
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{components: map[string]component{}} }

// Register adds a component to reg. It panics on a duplicate name, which is a
// programming error.
func Register[C, I, E, R any](reg *Registry, s Spec[C, I, E, R]) {
	if _, dup := reg.components[s.Name]; dup {
		panic("harness: component " + s.Name + " registered twice")
	}
	reg.components[s.Name] = &s
}

// Names returns the registered component names, sorted.
func (reg *Registry) Names() []string {
	names := make([]string, 0, len(reg.components))
	for n := range reg.components {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Doc returns the one-line description of a component.
func (reg *Registry) Doc(name string) string {
	if c, ok := reg.components[name]; ok {
		return c.doc()
	}
	return ""
}

func (reg *Registry) lookup(name string) (component, bool) {
	c, ok := reg.components[name]
	return c, ok
}

func (s *Spec[C, I, E, R]) name() string { return s.Name }
func (s *Spec[C, I, E, R]) doc() string  { return s.Doc }

func (s *Spec[C, I, E, R]) prepare(d *decoder, sc *Scenario) prepared {
	cfg, in, exp := new(C), new(I), new(E)
	if s.Defaults != nil {
		s.Defaults(cfg)
	}
	if sc.Config.Kind != 0 {
		d.decode(&sc.Config, reflectValue(cfg), "config")
	}
	if sc.Input.Kind != 0 {
		d.decode(&sc.Input, reflectValue(in), "input")
	}
	if rest := withoutKey(&sc.Expect, "failure"); rest != nil {
		d.decode(rest, reflectValue(exp), "expect")
	}
	if !s.LLM && len(sc.LLM) > 0 {
		k, _ := lookup(sc.root, "llm")
		d.errorf(k, "llm: component %q makes no LLM calls", s.Name)
	}
	return func(ctx context.Context, env *Env) ([]Section, func() []Mismatch, error) {
		got, err := s.Run(ctx, env, cfg, in)
		if err != nil {
			return nil, nil, err
		}
		var secs []Section
		if s.Render != nil {
			secs, err = s.Render(got)
		} else {
			var sec Section
			sec, err = JSONSection("result.json", got)
			secs = []Section{sec}
		}
		if err != nil {
			return nil, nil, fmt.Errorf("render: %w", err)
		}
		check := func() []Mismatch {
			if s.Check == nil {
				return nil
			}
			return s.Check(exp, got)
		}
		return secs, check, nil
	}
}

// withoutKey returns a copy of mapping n without key, nil when nothing is left.
func withoutKey(n *yaml.Node, key string) *yaml.Node {
	n = yamlstrict.Resolve(n)
	if n == nil || n.Kind == 0 {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return n
	}
	cp := *n
	cp.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != key {
			cp.Content = append(cp.Content, n.Content[i], n.Content[i+1])
		}
	}
	if len(cp.Content) == 0 {
		return nil
	}
	return &cp
}

// normalizeTemp replaces the scratch folder's path in text by $TMP.
func normalizeTemp(text, dir string) string {
	if dir == "" {
		return text
	}
	return strings.ReplaceAll(text, dir, "$TMP")
}
