// Package cicheck holds, as specs, the rule that toolout's GitHub Actions
// workflow (.github/workflows/test.yml) runs exactly what its CI entry
// point (.ci/run) runs: the workflow's one command is .ci/run, after the
// checkout and a Go set up from go.mod with its cache, and .ci/run installs
// redis-server and runs make test. Copying the commands into the workflow
// instead would let the two drift; the specs fail when a step is added
// that .ci/run does not know of. They also hold docs/ci.md to the
// workflow's timeout. Read parses a workflow, the part of it they check.
package cicheck

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// maxWorkflow bounds a workflow file.
const maxWorkflow = 1 << 20

// Workflow is the part of a GitHub Actions workflow the specs check.
type Workflow struct {
	Name string         `yaml:"name"`
	Jobs map[string]Job `yaml:"jobs"`
}

// Job is one job of a workflow.
type Job struct {
	RunsOn         string `yaml:"runs-on"`
	TimeoutMinutes int    `yaml:"timeout-minutes"`
	Steps          []Step `yaml:"steps"`
}

// Step is one step: an action (Uses, With) or a command (Run).
type Step struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Run  string            `yaml:"run"`
	If   string            `yaml:"if"`
}

// Read parses a workflow file's data; name is the file's name in errors.
func Read(name string, data []byte) (Workflow, error) {
	var w Workflow
	if len(data) > maxWorkflow {
		return w, fmt.Errorf("cicheck: read %s: %d bytes, over %d", name, len(data), maxWorkflow)
	}
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return w, fmt.Errorf("cicheck: read %s: %w", name, err)
	}
	return w, nil
}

// Runs lists the commands of a job's steps, in order.
func (j Job) Runs() []string {
	var runs []string
	for _, s := range j.Steps {
		if s.Run != "" {
			runs = append(runs, s.Run)
		}
	}
	return runs
}
