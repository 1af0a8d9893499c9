package paging_test

import (
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/paging"
)

var _ = Describe("Params", func() {
	DescribeTable("finds the paging arguments by name and declared type",
		func(schema string, want []paging.Param) {
			Expect(paging.Params([]byte(schema))).To(Equal(want))
		},
		Entry("offset and limit", `{"type":"object","properties":{"offset":{"type":"integer"},"limit":{"type":"integer"},"q":{"type":"string"}}}`,
			[]paging.Param{{Name: "limit", Kind: paging.Limit, Type: "integer"}, {Name: "offset", Kind: paging.Position, Type: "integer"}}),
		Entry("GitHub's per_page and page", `{"properties":{"page":{"type":"number"},"per_page":{"type":"number"}}}`,
			[]paging.Param{{Name: "per_page", Kind: paging.Limit, Type: "number"}, {Name: "page", Kind: paging.Position, Type: "number"}}),
		Entry("a cursor", `{"properties":{"cursor":{"type":"string"},"limit":{"type":["integer","null"]}}}`,
			[]paging.Param{{Name: "limit", Kind: paging.Limit, Type: "integer"}, {Name: "cursor", Kind: paging.Position, Type: "string"}}),
		Entry("camelCase", `{"properties":{"pageSize":{"type":"integer"},"pageToken":{"type":"string"}}}`,
			[]paging.Param{{Name: "pageSize", Kind: paging.Limit, Type: "integer"}, {Name: "pageToken", Kind: paging.Position, Type: "string"}}),
		Entry("a limit of another type (a time limit)", `{"properties":{"limit":{"type":"string"},"cursor":{"type":"integer"}}}`, nil),
		Entry("no type", `{"properties":{"limit":{}}}`, nil),
		Entry("no paging argument", `{"type":"object","properties":{"command":{"type":"string"}}}`, nil),
		Entry("nested, not guessed", `{"properties":{"options":{"type":"object","properties":{"limit":{"type":"integer"}}}}}`, nil),
		Entry("no properties", `{"type":"object"}`, nil),
		Entry("not JSON", `{"properties":`, nil),
		Entry("not an object", `[1,2]`, nil),
		Entry("empty", ``, nil),
	)
})

var _ = Describe("Hint", func() {
	DescribeTable("names the first limit and the first position",
		func(params []paging.Param, want string) {
			Expect(paging.Hint("logs__query", params)).To(Equal(want))
		},
		Entry("both", []paging.Param{{Name: "max_results", Kind: paging.Limit}, {Name: "page_token", Kind: paging.Position}},
			"Or call logs__query again asking for less: a smaller `max_results`, then `page_token` for the rest."),
		Entry("a limit", []paging.Param{{Name: "limit", Kind: paging.Limit}, {Name: "top", Kind: paging.Limit}},
			"Or call logs__query again asking for less: a smaller `limit`."),
		Entry("a position", []paging.Param{{Name: "page", Kind: paging.Position}},
			"Or call logs__query again with `page` to read one part at a time."),
		Entry("none", nil, ""),
	)
})

// FuzzParams: on any bytes Params does not panic, returns only names of
// the lists, each once, of a declared type the list allows, and Hint is
// one line naming them.
func FuzzParams(f *testing.F) {
	f.Add([]byte(`{"properties":{"offset":{"type":"integer"},"limit":{"type":["null","integer"]}}}`))
	f.Add([]byte(`{"properties":{"cursor":{"type":"string"},"page":{"type":"number"},"limit":{"type":{"a":1}}}}`))
	f.Add([]byte(`{"properties":null}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		params := paging.Params(schema)
		seen := map[string]bool{}
		for _, p := range params {
			if seen[p.Name] {
				t.Fatalf("%q twice", p.Name)
			}
			seen[p.Name] = true
			if !listed(p) {
				t.Fatalf("%+v: not a listed name and type", p)
			}
		}
		h := paging.Hint("t", params)
		if strings.Contains(h, "\n") || (h == "") != (len(params) == 0) {
			t.Fatalf("hint %q for %+v", h, params)
		}
	})
}

func listed(p paging.Param) bool {
	list := paging.Limits
	if p.Kind == paging.Position {
		list = paging.Positions
	}
	for _, a := range list {
		for _, ty := range a.Types {
			if a.Name == p.Name && ty == p.Type {
				return true
			}
		}
	}
	return false
}
