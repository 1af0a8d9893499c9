package leaked_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/leaked"
)

// FuzzExtract checks, on any input, that Extract does not panic, that every
// call has a non-empty name, object arguments and a unique id, and that input
// without a wrapper comes back byte-identical. The scenario inputs seed it.
func FuzzExtract(f *testing.F) {
	for _, v := range vectors() {
		f.Add(v.Input)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := leaked.Extract(in, leaked.Options{})
		ids := map[string]bool{}
		for _, c := range r.Calls {
			var obj map[string]any
			if c.Name == "" || json.Unmarshal(c.Arguments, &obj) != nil || obj == nil {
				t.Fatalf("bad call %q %s", c.Name, c.Arguments)
			}
			if ids[c.ID] {
				t.Fatalf("duplicate id %s", c.ID)
			}
			ids[c.ID] = true
		}
		if len(r.Patterns) == 0 && (r.Content == nil || *r.Content != in) {
			t.Fatalf("no wrapper, but the content changed")
		}
		if r.Content != nil && len(r.Patterns) > 0 && *r.Content != strings.TrimSpace(*r.Content) {
			t.Fatalf("content not trimmed")
		}
	})
}
