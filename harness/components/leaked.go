package components

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/harness"
)

// leaked component:
//
//	component: leaked
//	config:
//	  scan_fences: false
//	  pythonic: false                # also recognize [name(k=v), ...] lists
//	  tools:                         # the tools offered, to type XML parameters
//	  - {name: get_weather, parameters: {properties: {days: {type: integer}}}}
//	input: {text: <Text>}
//	expect:
//	  content: "remaining text"      # or null for no content left
//	  identical: true                # content is the input, byte for byte
//	  calls: [{name: a, arguments: {s: x}}]
//	  patterns: ["<tools>"]
//	  dropped: [{reason: "invalid JSON"}]   # reason substrings, in order
//	  repairs: [trailing_comma]
//
// Every run is also checked to lose no text: the content must be the input
// with the removed spans cut out, trimmed; and the input is streamed
// (leaked.NewStream) whole, in deltas of 1, 2, 3, 7 and 64 bytes and in a
// random split seeded by the input: a split where the stream differs from
// Extract is a "stream" mismatch.
type leakedConfig struct {
	ScanFences bool             `yaml:"scan_fences"`
	Pythonic   bool             `yaml:"pythonic"`
	Tools      []map[string]any `yaml:"tools"`
}

// options builds the extractor's options from a scenario's config.
func (c *leakedConfig) options(env *harness.Env) (leaked.Options, error) {
	opts := leaked.Options{Sources: env.Sources, ScanFences: c.ScanFences, Pythonic: c.Pythonic}
	if c.Tools != nil {
		data, err := json.Marshal(c.Tools)
		if err != nil {
			return opts, fmt.Errorf("config.tools: %w", err)
		}
		if opts.Tools, err = leaked.ParseTools(data); err != nil {
			return opts, fmt.Errorf("config.tools: %w", err)
		}
	}
	return opts, nil
}

type leakedInput struct {
	Text harness.Text `yaml:"text"`
}

type leakedExpect struct {
	Content   yaml.Node `yaml:"content"`
	Identical bool      `yaml:"identical"`
	Calls     []struct {
		Name      string         `yaml:"name"`
		Arguments map[string]any `yaml:"arguments"`
	} `yaml:"calls"`
	Patterns []string `yaml:"patterns"`
	Dropped  []struct {
		Reason string `yaml:"reason"`
	} `yaml:"dropped"`
	Repairs []string `yaml:"repairs"`
}

type leakedOutcome struct {
	input  string
	res    leaked.Result
	stream []harness.Mismatch // where the streaming parser differs from Extract
}

func registerLeaked(reg *harness.Registry) {
	harness.Register(reg, harness.Spec[leakedConfig, leakedInput, leakedExpect, leakedOutcome]{
		Name: "leaked",
		Doc:  "recovers tool calls leaked as text in input.text (core/leaked)",
		Run: func(_ context.Context, env *harness.Env, cfg *leakedConfig, in *leakedInput) (leakedOutcome, error) {
			opts, err := cfg.options(env)
			if err != nil {
				return leakedOutcome{}, err
			}
			res := leaked.Extract(in.Text.Value, opts)
			return leakedOutcome{input: in.Text.Value, res: res, stream: streamMismatches(in.Text.Value, opts, leaked.CheckStream)}, nil
		},
		Render: func(o leakedOutcome) ([]harness.Section, error) {
			sec, err := harness.JSONSection("result.json", o.res)
			return []harness.Section{sec}, err
		},
		Check: checkLeaked,
	})
}

func checkLeaked(exp *leakedExpect, o leakedOutcome) []harness.Mismatch {
	var out []harness.Mismatch
	r := o.res
	switch c := &exp.Content; {
	case c.Kind == 0:
	case c.Kind == yaml.ScalarNode && c.Tag == "!!null":
		if r.Content != nil {
			out = append(out, harness.Mismatch{Field: "content", Msg: fmt.Sprintf("got %s, want null", harness.Show(*r.Content))})
		}
	case r.Content == nil:
		out = append(out, harness.Mismatch{Field: "content", Msg: fmt.Sprintf("got null, want %s", harness.Show(c.Value))})
	case *r.Content != c.Value:
		out = append(out, harness.Mismatch{Field: "content", Msg: fmt.Sprintf("got %s, want %s", harness.Show(*r.Content), harness.Show(c.Value))})
	}
	if exp.Identical && (r.Content == nil || *r.Content != o.input) {
		msg := "the content is not the input, byte for byte: it is null"
		if r.Content != nil {
			i := commonPrefix(*r.Content, o.input)
			msg = fmt.Sprintf("the content is not the input, byte for byte: it differs %s", harness.ShowAt(*r.Content, i))
		}
		out = append(out, harness.Mismatch{Field: "identical", Msg: msg})
	}
	// Every scenario also holds to the whole contract: no text is lost but
	// what is reported as removed.
	if err := leaked.Check(o.input, r); err != nil {
		out = append(out, harness.Mismatch{Field: "contract", Msg: err.Error()})
	}
	out = append(out, o.stream...)
	if exp.Calls != nil {
		if len(exp.Calls) != len(r.Calls) {
			out = append(out, harness.Mismatch{Field: "calls", Msg: fmt.Sprintf("got %d calls, want %d; %s", len(r.Calls), len(exp.Calls), harness.Found("calls", leakedCalls(r)))})
		} else {
			for i, c := range exp.Calls {
				if c.Name != r.Calls[i].Name {
					out = append(out, harness.Mismatch{Field: "calls", Msg: fmt.Sprintf("[%d].name: got %q, want %q", i, r.Calls[i].Name, c.Name)})
				}
				if c.Arguments != nil && !sameJSON(c.Arguments, r.Calls[i].Arguments) {
					out = append(out, harness.Mismatch{Field: "calls", Msg: fmt.Sprintf("[%d].arguments: got %s, want %s", i, harness.Show(string(r.Calls[i].Arguments)), harness.Show(jsonText(c.Arguments)))})
				}
			}
		}
	}
	if exp.Patterns != nil && !reflect.DeepEqual(exp.Patterns, orNil(r.Patterns)) {
		out = append(out, harness.Mismatch{Field: "patterns", Msg: fmt.Sprintf("got %q, want %q", r.Patterns, exp.Patterns)})
	}
	if exp.Dropped != nil {
		if len(exp.Dropped) != len(r.Dropped) {
			out = append(out, harness.Mismatch{Field: "dropped", Msg: fmt.Sprintf("got %d dropped, want %d; %s", len(r.Dropped), len(exp.Dropped), harness.Found("dropped reasons", droppedReasons(r)))})
		} else {
			for i, d := range exp.Dropped {
				if !strings.Contains(r.Dropped[i].Reason, d.Reason) {
					out = append(out, harness.Mismatch{Field: "dropped", Msg: fmt.Sprintf("[%d].reason: got %s, want it to contain %q", i, harness.Show(r.Dropped[i].Reason), d.Reason)})
				}
			}
		}
	}
	if exp.Repairs != nil {
		var kinds []string
		for _, rp := range r.Repairs {
			kinds = append(kinds, rp.Kind)
		}
		if !reflect.DeepEqual(exp.Repairs, orNil(kinds)) {
			out = append(out, harness.Mismatch{Field: "repairs", Msg: fmt.Sprintf("got %q, want %q", kinds, exp.Repairs)})
		}
	}
	return out
}

// leakedCalls renders the recovered calls as "name arguments".
func leakedCalls(r leaked.Result) []string {
	var calls []string
	for _, c := range r.Calls {
		calls = append(calls, c.Name+" "+string(c.Arguments))
	}
	return calls
}

func droppedReasons(r leaked.Result) []string {
	var reasons []string
	for _, d := range r.Dropped {
		reasons = append(reasons, d.Reason)
	}
	return reasons
}

// commonPrefix returns the length in bytes of the longest common prefix of a
// and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// jsonText renders a YAML-decoded value as JSON, for a message.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func orNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// sameJSON reports whether the YAML-decoded value and the JSON text are equal
// as JSON values.
func sameJSON(want map[string]any, got []byte) bool {
	b, err := json.Marshal(want)
	if err != nil {
		return false
	}
	var w, g any
	return json.Unmarshal(b, &w) == nil && json.Unmarshal(got, &g) == nil && reflect.DeepEqual(w, g)
}
