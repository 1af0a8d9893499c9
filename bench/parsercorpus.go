package bench

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/leaked"
)

// Peers are the three serving stacks whose parsers the parity corpus records,
// in the order of its expected blocks.
var Peers = []string{"dynamo", "vllm", "sglang"}

// CorpusCall is one call as the corpus records it: a name and the arguments
// as a canonical JSON value (object keys sorted), so that two calls are equal
// exactly when their strings are.
type CorpusCall struct {
	Name      string
	Arguments string
}

// CorpusCase is one case of the parser-parity corpus: a model's text, the
// tools offered, and the calls each peer parser returned. A peer is absent
// from Outputs when its block records no calls (no parser for the family, an
// expected crash, or a divergence noted without the output).
type CorpusCase struct {
	Family      string
	ID          string // PARSER.batch.2.a
	Description string
	Text        string
	Tools       json.RawMessage // the case's tools as a JSON array
	Outputs     map[string][]CorpusCall
}

// corpusLimit bounds one fixture file; the largest vendored one is 6 KB.
const corpusLimit = 1 << 20

// LoadParserCorpus reads every <family>/PARSER.batch*.yaml of fsys, as the
// parity harness does, and returns the cases with a model text, by family
// then case number. A case without model_text (the corpus marks a sub-case
// that does not apply to a family that way) is skipped. A bare case
// PARSER.batch.N is dropped when the family has sub-cases PARSER.batch.N.x:
// the corpus moved such a case into its sub-case file, and an older flat file
// can still hold it.
func LoadParserCorpus(fsys fs.FS) ([]CorpusCase, error) {
	files, err := fs.Glob(fsys, "*/PARSER.batch*.yaml")
	if err != nil {
		return nil, fmt.Errorf("bench: parser corpus: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("bench: parser corpus: no */PARSER.batch*.yaml file")
	}
	var all []CorpusCase
	for _, name := range files {
		cases, err := loadCorpusFile(fsys, name)
		if err != nil {
			return nil, err
		}
		all = append(all, cases...)
	}
	all = dropOrphans(all)
	slices.SortFunc(all, func(a, b CorpusCase) int {
		if c := strings.Compare(a.Family, b.Family); c != 0 {
			return c
		}
		return compareCaseIDs(a.ID, b.ID)
	})
	return all, nil
}

type corpusFile struct {
	Family string                    `yaml:"family"`
	Cases  map[string]corpusCaseYAML `yaml:"cases"`
}

type corpusCaseYAML struct {
	Description string         `yaml:"description"`
	ModelText   *string        `yaml:"model_text"`
	Tools       []any          `yaml:"tools"`
	Expected    map[string]any `yaml:"expected"`
}

func loadCorpusFile(fsys fs.FS, name string) ([]CorpusCase, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("bench: parser corpus: %w", err)
	}
	if len(data) > corpusLimit {
		return nil, fmt.Errorf("bench: parser corpus: %s: %d bytes, over the limit of %d", name, len(data), corpusLimit)
	}
	var f corpusFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("bench: parser corpus: %s: %w", name, err)
	}
	if f.Family == "" || f.Family != path.Dir(name) {
		return nil, fmt.Errorf("bench: parser corpus: %s: family %q is not its folder's", name, f.Family)
	}
	var out []CorpusCase
	for id, c := range f.Cases {
		if c.ModelText == nil {
			continue
		}
		tools, err := json.Marshal(c.Tools)
		if err != nil {
			return nil, fmt.Errorf("bench: parser corpus: %s: %s: tools: %w", name, id, err)
		}
		outputs, err := peerOutputs(c.Expected)
		if err != nil {
			return nil, fmt.Errorf("bench: parser corpus: %s: %s: %w", name, id, err)
		}
		out = append(out, CorpusCase{Family: f.Family, ID: id, Description: c.Description,
			Text: *c.ModelText, Tools: tools, Outputs: outputs})
	}
	return out, nil
}

// peerOutputs reads an expected block: {dynamo, vllm, sglang} each with its
// calls, or (the corpus's first schema) {calls, normal_text}, Dynamo's alone.
func peerOutputs(expected map[string]any) (map[string][]CorpusCall, error) {
	if _, legacy := expected["calls"]; legacy {
		expected = map[string]any{"dynamo": expected}
	}
	out := map[string][]CorpusCall{}
	for _, peer := range Peers {
		block, _ := expected[peer].(map[string]any)
		raw, ok := block["calls"]
		if !ok {
			continue
		}
		list, ok := raw.([]any)
		if !ok && raw != nil {
			return nil, fmt.Errorf("expected.%s.calls is not a list", peer)
		}
		calls := []CorpusCall{}
		for i, item := range list {
			call, err := corpusCall(item)
			if err != nil {
				return nil, fmt.Errorf("expected.%s.calls[%d]: %w", peer, i, err)
			}
			calls = append(calls, call)
		}
		out[peer] = calls
	}
	return out, nil
}

func corpusCall(item any) (CorpusCall, error) {
	m, ok := item.(map[string]any)
	if !ok {
		return CorpusCall{}, fmt.Errorf("not a mapping")
	}
	name, _ := m["name"].(string)
	args, err := canonicalJSON(m["arguments"])
	if err != nil {
		return CorpusCall{}, err
	}
	return CorpusCall{Name: name, Arguments: args}, nil
}

// canonicalJSON renders a decoded YAML or JSON value as JSON with sorted
// object keys; numbers go through float64, as encoding/json reads them.
func canonicalJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var back any
	if err := json.Unmarshal(b, &back); err != nil {
		return "", err
	}
	b, err = json.Marshal(back)
	return string(b), err
}

func dropOrphans(cases []CorpusCase) []CorpusCase {
	withSubs := map[string]bool{}
	for _, c := range cases {
		if parts := strings.Split(c.ID, "."); len(parts) == 4 {
			withSubs[c.Family+"/"+strings.Join(parts[:3], ".")] = true
		}
	}
	return slices.DeleteFunc(cases, func(c CorpusCase) bool { return withSubs[c.Family+"/"+c.ID] })
}

// compareCaseIDs orders PARSER.batch.2.a before PARSER.batch.10: numeric
// parts as numbers, the others as text.
func compareCaseIDs(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil && na != nb:
			return na - nb
		case (ea != nil || eb != nil) && pa[i] != pb[i]:
			return strings.Compare(pa[i], pb[i])
		}
	}
	return len(pa) - len(pb)
}

// ExtractCorpusCalls runs core/leaked on a case: the case's tools type the
// parameter values, and pythonic calls are recognized in the pythonic family
// only (the option a user sets for a model that writes them; prose can look
// like them elsewhere).
func ExtractCorpusCalls(c CorpusCase) ([]CorpusCall, error) {
	var tools leaked.Tools
	if len(c.Tools) > 0 && string(c.Tools) != "null" {
		var err error
		if tools, err = leaked.ParseTools(c.Tools); err != nil {
			return nil, fmt.Errorf("bench: parser corpus: %s/%s: tools: %w", c.Family, c.ID, err)
		}
	}
	res := leaked.Extract(c.Text, leaked.Options{Tools: tools, Pythonic: c.Family == "pythonic"})
	calls := make([]CorpusCall, 0, len(res.Calls))
	for _, call := range res.Calls {
		var v any
		if err := json.Unmarshal(call.Arguments, &v); err != nil {
			return nil, fmt.Errorf("bench: parser corpus: %s/%s: arguments of %s: %w", c.Family, c.ID, call.Name, err)
		}
		args, err := canonicalJSON(v)
		if err != nil {
			return nil, err
		}
		calls = append(calls, CorpusCall{Name: call.Name, Arguments: args})
	}
	return calls, nil
}
