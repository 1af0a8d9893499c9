package paging

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Kind says what an argument does.
type Kind int

const (
	// Limit asks for fewer items, lines or bytes.
	Limit Kind = iota
	// Position asks for another part: an offset, a page, a cursor.
	Position
)

// Param is one paging argument of a tool.
type Param struct {
	Name string
	Kind Kind
	Type string // its JSON type: "integer", "number" or "string"
}

// Arg is an argument name and the JSON types it may have.
type Arg struct {
	Name  string
	Types []string
}

var numeric = []string{"integer", "number"}

// Limits are the names of arguments that ask for less, first preferred.
var Limits = []Arg{
	{"limit", numeric}, {"max_results", numeric}, {"maxResults", numeric}, {"page_size", numeric}, {"pageSize", numeric},
	{"per_page", numeric}, {"perPage", numeric}, {"max_items", numeric}, {"maxItems", numeric}, {"head_limit", numeric},
	{"num_results", numeric}, {"numResults", numeric}, {"max_count", numeric}, {"maxCount", numeric}, {"count", numeric},
	{"top", numeric}, {"first", numeric}, {"last", numeric},
}

// Positions are the names of arguments that ask for another part, first
// preferred.
var Positions = []Arg{
	{"offset", numeric}, {"start_line", numeric}, {"startLine", numeric}, {"skip", numeric}, {"start", numeric},
	{"page", numeric}, {"page_number", numeric}, {"pageNumber", numeric},
	{"cursor", []string{"string"}}, {"start_cursor", []string{"string"}}, {"startCursor", []string{"string"}},
	{"page_token", []string{"string"}}, {"pageToken", []string{"string"}}, {"next_token", []string{"string"}},
	{"nextToken", []string{"string"}}, {"after", []string{"string"}},
}

// schema is what Params reads of an input schema.
type schema struct {
	Properties map[string]struct {
		Type json.RawMessage `json:"type"`
	} `json:"properties"`
}

// Params returns the paging arguments of an input schema (see the package
// doc).
func Params(inputSchema []byte) []Param {
	var s schema
	if json.Unmarshal(inputSchema, &s) != nil || len(s.Properties) == 0 {
		return nil
	}
	var out []Param
	for kind, list := range [][]Arg{Limits, Positions} {
		for _, a := range list {
			p, ok := s.Properties[a.Name]
			if !ok {
				continue
			}
			if t := typeOf(p.Type, a.Types); t != "" {
				out = append(out, Param{Name: a.Name, Kind: Kind(kind), Type: t})
			}
		}
	}
	return out
}

// typeOf returns the first of want that the declared type raw is or holds,
// or "".
func typeOf(raw json.RawMessage, want []string) string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if slices.Contains(want, one) {
			return one
		}
		return ""
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		for _, t := range many {
			if slices.Contains(want, t) {
				return t
			}
		}
	}
	return ""
}

// Hint is the sentence that tells a model how to call tool again for
// less, from its paging arguments, or "" when it has none.
func Hint(tool string, params []Param) string {
	var limit, pos string
	for _, p := range params {
		switch {
		case p.Kind == Limit && limit == "":
			limit = p.Name
		case p.Kind == Position && pos == "":
			pos = p.Name
		}
	}
	switch {
	case limit != "" && pos != "":
		return fmt.Sprintf("Or call %s again asking for less: a smaller `%s`, then `%s` for the rest.", tool, limit, pos)
	case limit != "":
		return fmt.Sprintf("Or call %s again asking for less: a smaller `%s`.", tool, limit)
	case pos != "":
		return fmt.Sprintf("Or call %s again with `%s` to read one part at a time.", tool, pos)
	}
	return ""
}
