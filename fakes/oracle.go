package fakes

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/toolout/toolout/core"
)

// Oracle is a named responder that computes its answer from the text it was
// actually sent, so that a scenario or benchmark measures real information
// loss rather than a scripted guess.
type Oracle struct {
	// Doc says what the oracle answers and which parameters it takes.
	Doc string
	// Check validates the parameters before any request arrives.
	Check func(params map[string]any) error
	// Answer computes the answer text. The LLM wraps it in the final-report
	// wrapper according to OracleSpec.Wrap.
	Answer func(req core.Request, params map[string]any) (string, error)
}

var oracles = map[string]Oracle{
	"grep-lines": {
		Doc: "Answers the lines of the searched text that match params.pattern (a Go regexp), " +
			"in order, joined by newlines; \"NO RELEVANT DATA FOUND\" and a short note when none does. " +
			"params.in picks the text: user (the last user message, default), system, or all. " +
			"params.none, when given, is the answer when no line matches.",
		Check: func(p map[string]any) error {
			if err := onlyParams(p, "pattern", "in", "none"); err != nil {
				return err
			}
			if err := checkPattern(p); err != nil {
				return err
			}
			return errors.Join(checkIn(p), checkNone(p))
		},
		Answer: func(req core.Request, p map[string]any) (string, error) {
			re := regexp.MustCompile(p["pattern"].(string))
			var hits []string
			for line := range strings.SplitSeq(pickText(req, p), "\n") {
				if re.MatchString(line) {
					hits = append(hits, line)
				}
			}
			if len(hits) == 0 {
				return noneOr(p, fmt.Sprintf("NO RELEVANT DATA FOUND\nno line matches %q", re.String())), nil
			}
			return strings.Join(hits, "\n"), nil
		},
	},
	"grep-matches": {
		Doc: "Answers every match of params.pattern (a Go regexp) in the searched text, one per line, in order; " +
			"with params.unique true, each distinct match once, at its first place. \"NO RELEVANT DATA FOUND\" and a " +
			"short note when nothing matches, or params.none when given. params.in picks the text as for grep-lines.",
		Check: func(p map[string]any) error {
			if err := onlyParams(p, "pattern", "in", "unique", "none"); err != nil {
				return err
			}
			if err := checkPattern(p); err != nil {
				return err
			}
			if u, ok := p["unique"]; ok {
				if _, isBool := u.(bool); !isBool {
					return fmt.Errorf("params.unique %v: want true or false", u)
				}
			}
			return errors.Join(checkIn(p), checkNone(p))
		},
		Answer: func(req core.Request, p map[string]any) (string, error) {
			re := regexp.MustCompile(p["pattern"].(string))
			hits := re.FindAllString(pickText(req, p), -1)
			if u, _ := p["unique"].(bool); u {
				seen := map[string]bool{}
				hits = slices.DeleteFunc(hits, func(h string) bool {
					dup := seen[h]
					seen[h] = true
					return dup
				})
			}
			if len(hits) == 0 {
				return noneOr(p, fmt.Sprintf("NO RELEVANT DATA FOUND\nnothing matches %q", re.String())), nil
			}
			return strings.Join(hits, "\n"), nil
		},
	},
	"echo": {
		Doc:   "Answers the searched text itself. params.in picks it: user (the last user message, default), system, or all.",
		Check: func(p map[string]any) error { return errors.Join(onlyParams(p, "in"), checkIn(p)) },
		Answer: func(req core.Request, p map[string]any) (string, error) {
			return pickText(req, p), nil
		},
	},
}

// OracleNames returns the names of the known oracles, sorted.
func OracleNames() []string {
	names := make([]string, 0, len(oracles))
	for n := range oracles {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// LookupOracle returns the oracle called name.
func LookupOracle(name string) (Oracle, bool) {
	o, ok := oracles[name]
	return o, ok
}

func onlyParams(p map[string]any, known ...string) error {
	var unknown []string
	for k := range p {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return fmt.Errorf("unknown params %s (known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
}

func checkIn(p map[string]any) error {
	v, ok := p["in"]
	if !ok {
		return nil
	}
	switch v {
	case "user", "system", "all":
		return nil
	}
	return fmt.Errorf("params.in %v: want user, system or all", v)
}

func pickText(req core.Request, p map[string]any) string {
	sys, user, all := Texts(req)
	switch p["in"] {
	case "system":
		return sys
	case "all":
		return all
	}
	return user
}

// checkNone checks params.none: a string, when given.
func checkNone(p map[string]any) error {
	if v, ok := p["none"]; ok {
		if _, isString := v.(string); !isString {
			return fmt.Errorf("params.none %v: want a string", v)
		}
	}
	return nil
}

// noneOr returns params.none when it is given, else def.
func noneOr(p map[string]any, def string) string {
	if s, ok := p["none"].(string); ok {
		return s
	}
	return def
}

// checkPattern checks params.pattern: a non-empty Go regexp.
func checkPattern(p map[string]any) error {
	pat, ok := p["pattern"].(string)
	if !ok || pat == "" {
		return errors.New("params.pattern: want a non-empty string")
	}
	if _, err := regexp.Compile(pat); err != nil {
		return fmt.Errorf("params.pattern: %w", err)
	}
	return nil
}
