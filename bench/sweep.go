package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
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

// ReadBaseline reads the rows of a saved comparison (bench/baseline.json,
// as --format json writes it).
func ReadBaseline(path string) ([]Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var saved struct {
		Rows []Row `json:"rows"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return saved.Rows, nil
}
