package leaked_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/internal/seeds"
)

// vector is the input of one scenario of scenarios/leaked, read here so
// that the specs and the fuzz target start from every scenario input; what
// each scenario expects is checked by the harness (harness/components'
// leaked component), not again here.
type vector struct {
	Name   string `yaml:"-"`
	Input  string `yaml:"-"`
	Config struct {
		ScanFences bool             `yaml:"scan_fences"`
		Pythonic   bool             `yaml:"pythonic"`
		Tools      []map[string]any `yaml:"tools"`
	} `yaml:"config"`
}

// options are the extractor's options of the vector's config, with
// sequential IDs.
func (v vector) options() leaked.Options {
	opts := leaked.Options{Sources: seqIDs(), ScanFences: v.Config.ScanFences, Pythonic: v.Config.Pythonic}
	if v.Config.Tools != nil {
		data, err := json.Marshal(v.Config.Tools)
		if err == nil {
			opts.Tools, err = leaked.ParseTools(data)
		}
		if err != nil {
			panic(v.Name + ": config.tools: " + err.Error())
		}
	}
	return opts
}

const vectorDir = "../../scenarios/leaked"

// vectors loads every scenario of scenarios/leaked.
func vectors() []vector {
	var out []vector
	err := seeds.EachYAML(vectorDir, func(f string, data []byte) error {
		var raw struct {
			Input struct {
				Text yaml.Node `yaml:"text"`
			} `yaml:"input"`
		}
		var v vector
		if err := yaml.Unmarshal(data, &raw); err != nil {
			panic(f + ": " + err.Error())
		}
		if err := yaml.Unmarshal(data, &v); err != nil {
			panic(f + ": " + err.Error())
		}
		v.Name = strings.TrimSuffix(filepath.Base(f), ".yaml")
		switch t := raw.Input.Text; t.Kind {
		case yaml.ScalarNode:
			v.Input = t.Value
		case yaml.MappingNode:
			var spec struct{ File string }
			if err := t.Decode(&spec); err != nil || spec.File == "" {
				panic(f + ": input.text: want a string or {file: NAME}")
			}
			b, err := os.ReadFile(filepath.Join(vectorDir, spec.File))
			if err != nil {
				panic(err)
			}
			v.Input = string(b)
		}
		out = append(out, v)
		return nil
	})
	if err != nil || len(out) == 0 {
		panic(fmt.Sprintf("leaked: no vectors under %s (%v)", vectorDir, err))
	}
	return out
}
