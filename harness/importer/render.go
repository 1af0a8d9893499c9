package importer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"go.yaml.in/yaml/v3"
)

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// The parts of importedScenario before and after its steps, with its tags:
// renderScenario encodes them on their own.
type (
	scenarioHead struct {
		Description string   `yaml:"description"`
		Labels      []string `yaml:"labels"`
		Component   string   `yaml:"component"`
		Wire        string   `yaml:"wire,omitempty"`
		Source      any      `yaml:"source"`
		Config      any      `yaml:"config,omitempty"`
		Input       any      `yaml:"input"`
	}
	scenarioTail struct {
		Expect any `yaml:"expect"`
	}
)

// renderScenario writes sc as YAML, the bytes one yaml.Encoder (indent 2)
// writes for it, a part at a time: its head, each step, its expect. The
// encoder holds every event of a document until the document ends (about
// 50 KB for a step of a few lines), so one document of 50,000 steps made
// a trace of 10 MiB peak at 1.3 GB; a step alone is encoded as a list of
// one and indented under "llm:". Only the first limit bytes are kept:
// past them renderScenario goes on counting, so that a refusal can say
// how big the scenario would be, and returns nil data.
func renderScenario(sc importedScenario, limit int) (data []byte, size int, err error) {
	var out bytes.Buffer
	add := func(b []byte) {
		size += len(b)
		if size > limit {
			out = bytes.Buffer{}
			return
		}
		out.Write(b)
	}
	head, err := encodeYAML(scenarioHead{sc.Description, sc.Labels, sc.Component, sc.Wire, sc.Source, sc.Config, sc.Input})
	if err != nil {
		return nil, 0, err
	}
	add(head)
	if len(sc.LLM) > 0 {
		add([]byte("llm:\n"))
	}
	var step []byte
	for i := range sc.LLM {
		b, err := encodeYAML([]importedStep{withArgs(sc.LLM[i])})
		if err != nil {
			return nil, 0, err
		}
		step = indent(step[:0], b)
		add(step)
	}
	tail, err := encodeYAML(scenarioTail{sc.Expect})
	if err != nil {
		return nil, 0, err
	}
	add(tail)
	if size > limit {
		return nil, size, nil
	}
	return out.Bytes(), size, nil
}

// withArgs is st with the arguments of its calls decoded into Args.
func withArgs(st importedStep) importedStep {
	calls := st.Respond.ToolCalls
	for j, c := range calls {
		if c.args == "" {
			continue
		}
		if &calls[0] == &st.Respond.ToolCalls[0] {
			calls = slices.Clone(calls) // the step's own stay as they are
		}
		calls[j].Args = scriptedArgs(c.args)
	}
	st.Respond.ToolCalls = calls
	return st
}

// indent appends b to dst with two spaces before each line that is not
// empty: a block nested one level deeper (an empty line of a literal
// scalar is written without its indentation).
func indent(dst, b []byte) []byte {
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, []byte("\n"))
		if len(line) > 0 {
			dst = append(dst, "  "...)
		}
		dst = append(append(dst, line...), '\n')
		b = rest
	}
	return dst
}

// encodeYAML is v as one YAML document, indented by 2.
func encodeYAML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	data := b.Bytes() // what Close adds (a stream's end) is not the document's
	return data, enc.Close()
}

// marshalScenario is sc as YAML (see renderScenario), however big.
func marshalScenario(sc importedScenario) ([]byte, error) {
	data, _, err := renderScenario(sc, int(^uint(0)>>1))
	return data, err
}
