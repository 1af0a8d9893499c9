package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/toolout/toolout/core/jsonlex"
)

// Run is one set of knobs to compare the strategies with, and its label in
// the rows ("default", "overlap_percent=0").
type Run struct {
	Label string
	Knobs Knobs
}

// ParseSweeps turns --set sweeps ("knob=v1,v2") into runs, after the default
// one: one run per value, the other knobs at their defaults.
func ParseSweeps(sets []string) ([]Run, error) {
	runs := []Run{{"default", DefaultKnobs()}}
	for _, s := range sets {
		name, values, ok := strings.Cut(s, "=")
		if !ok || values == "" {
			return nil, fmt.Errorf("--set %q: want knob=v1,v2", s)
		}
		for _, v := range strings.Split(values, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("--set %s: value %q: want an integer", name, v)
			}
			k := DefaultKnobs()
			if err := k.Set(name, n); err != nil {
				return nil, fmt.Errorf("--set: %v", err)
			}
			runs = append(runs, Run{fmt.Sprintf("%s=%d", name, n), k})
		}
	}
	return runs, nil
}

// ReadBaseline reads the model and rows of a saved comparison
// (bench/baseline.json, as --format json writes it). A file that names no
// model was written before runs named theirs, by the oracles.
func ReadBaseline(path string) (Model, []Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Model{}, nil, err
	}
	var saved struct {
		Model *Model `json:"model"`
		Rows  []Row  `json:"rows"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		return Model{}, nil, baselineError(path, data, err)
	}
	if saved.Model == nil {
		return Oracle, saved.Rows, nil
	}
	return *saved.Model, saved.Rows, nil
}

// baselineError names where a baseline file is not what ReadBaseline
// reads: path:line:col and what is wrong there, in one line.
func baselineError(path string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off := int(se.Offset)
		if strings.HasPrefix(se.Error(), "invalid character") && off > 0 {
			off-- // the offset counts the offending character
		}
		line, col := jsonlex.LineCol(data, off)
		return fmt.Errorf("%s:%d:%d: not a baseline: %s", path, line, col, strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &te):
		line, col := jsonlex.LineCol(data, int(te.Offset)-1)
		field := te.Field
		if field == "" {
			field = "the file"
		}
		return fmt.Errorf("%s:%d:%d: not a baseline: %s holds a JSON %s where %s is wanted", path, line, col, field, te.Value, te.Type)
	}
	return fmt.Errorf("%s: not a baseline: %w", path, err)
}
