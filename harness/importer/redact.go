package importer

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// redactor replaces secrets with numbered placeholders, the same secret
// always by the same placeholder.
type redactor struct {
	rules  []redactRule
	seen   map[string]string
	counts map[string]int
}

type redactRule struct {
	kind string
	re   *regexp.Regexp
	// group is the submatch that is the secret (0: the whole match).
	group int
	// may, for a built-in rule, says whether s holds the literal text
	// every match of the rule holds: a string without it is not searched.
	// Go's regexp has no such prefilter for a pattern that starts with \b
	// or a class, and searched a tool output of 11 MB at 2 MB/s a rule.
	may func(s string) bool
}

// holds returns a may that looks for any of the literals.
func holds(literals ...string) func(string) bool {
	return func(s string) bool {
		for _, l := range literals {
			if strings.Contains(s, l) {
				return true
			}
		}
		return false
	}
}

// holdsFold reports whether s holds word in any ASCII case (the letters
// of "bearer" have no other case folds).
func holdsFold(word string) func(string) bool {
	first := word[:1] + strings.ToUpper(word[:1])
	return func(s string) bool {
		for i := 0; ; {
			j := strings.IndexAny(s[i:], first)
			if j < 0 {
				return false
			}
			i += j
			if len(s)-i >= len(word) && strings.EqualFold(s[i:i+len(word)], word) {
				return true
			}
			i++
		}
	}
}

func newRedactor(emails bool, extra []string) (*redactor, error) {
	r := &redactor{seen: map[string]string{}, counts: map[string]int{}}
	r.rules = []redactRule{
		// a key of a known prefix wherever it starts (glued to a word before it too:
		// FuzzCapture found "0sk-proj-…" kept), a bare sk- key at a word's start only
		// (inside a word it is likelier an identifier: risk-assessment-framework)
		{"API_KEY", regexp.MustCompile(`sk-(?:proj|ant|live|test)-[A-Za-z0-9_-]{16,}|\bsk-[A-Za-z0-9_-]{16,}`), 0, holds("sk-")},
		{"API_KEY", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), 0, holds("AKIA", "ASIA")},
		{"TOKEN", regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|github_pat|xox[abpr])_[A-Za-z0-9_-]{16,}`), 0, holds("gh", "github_pat", "xox")},
		{"BEARER", regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{8,})`), 1, holdsFold("bearer")},
		{"PASSWORD", regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@`), 1, holds("://")},
		// a home folder names the developer whose machine wrote the trace
		// (Claude Code and Codex put the working directory in their prompts)
		{"HOME", regexp.MustCompile(`(?:/home|/Users)/[A-Za-z0-9._-]+`), 0, holds("/home/", "/Users/")},
	}
	if emails {
		r.rules = append(r.rules, redactRule{"EMAIL", regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`), 0, holds("@")})
	}
	for _, x := range extra {
		re, err := regexp.Compile(x)
		if err != nil {
			return nil, fmt.Errorf("--redact %q: %v", x, err)
		}
		r.rules = append(r.rules, redactRule{"SECRET", re, 0, nil})
	}
	return r, nil
}

// apply replaces, rule by rule, each match's secret where the rule found it.
// (Replacing the secret's first occurrence in the match would leave it in
// place when the same text came earlier, as in https://pw:pw@host.)
func (r *redactor) apply(s string) string {
	for _, rule := range r.rules {
		if rule.may != nil && !rule.may(s) {
			continue
		}
		var b strings.Builder
		at := 0
		for _, m := range rule.re.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[2*rule.group], m[2*rule.group+1]
			if start < at {
				continue
			}
			secret := s[start:end]
			ph, ok := r.seen[secret]
			if !ok {
				r.counts[rule.kind]++
				ph = fmt.Sprintf("<REDACTED_%s_%d>", rule.kind, r.counts[rule.kind])
				r.seen[secret] = ph
			}
			b.WriteString(s[at:start])
			b.WriteString(ph)
			at = end
		}
		s = b.String() + s[at:]
	}
	return s
}

func (r *redactor) summary() []string {
	kinds := make([]string, 0, len(r.counts))
	for k := range r.counts {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	out := []string{}
	for _, k := range kinds {
		out = append(out, fmt.Sprintf("%s x%d", strings.ToLower(k), r.counts[k]))
	}
	return out
}
