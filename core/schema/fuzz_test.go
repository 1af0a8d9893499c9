package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/schema"
	"github.com/toolout/toolout/internal/hostile"
	"github.com/toolout/toolout/internal/seeds"
)

const scenarioDir = "../../scenarios/schema"

// seedSchemas returns every schema the scenarios use (data files and inline
// texts; generated ones cut to 32 KiB), the inputs of the defects the issue
// lists, and the field paths the inspect scenarios ask for.
func seedSchemas() (schemas [][]byte, paths []string) {
	files, _ := filepath.Glob(filepath.Join(scenarioDir, "data", "*.json"))
	providers, _ := filepath.Glob(filepath.Join(scenarioDir, "data", "providers", "*.json"))
	files = append(files, providers...)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		schemas = append(schemas, data)
	}
	scenarios := 0
	err := seeds.EachYAML(scenarioDir, func(f string, data []byte) error {
		scenarios++
		var sc struct {
			Input struct {
				Schema struct {
					Text     *string
					Generate *struct {
						Repeat string
						Bytes  int
					}
				}
				Inspect struct {
					FieldPath *string `yaml:"field_path"`
				}
			}
		}
		if err := yaml.Unmarshal(data, &sc); err != nil {
			panic(f + ": " + err.Error())
		}
		if t := sc.Input.Schema.Text; t != nil {
			schemas = append(schemas, []byte(*t))
		}
		if g := sc.Input.Schema.Generate; g != nil {
			schemas = append(schemas, []byte(strings.Repeat(g.Repeat, g.Bytes/len(g.Repeat)+1)[:min(g.Bytes, 32<<10)]))
		}
		if p := sc.Input.Inspect.FieldPath; p != nil {
			paths = append(paths, *p)
		}
		return nil
	})
	if err != nil || len(files) == 0 || scenarios == 0 {
		panic(fmt.Sprintf("schema: no scenarios under %s (%v)", scenarioDir, err))
	}
	for _, s := range []string{
		// The defects: these panicked, overflowed the stack or took seconds.
		`{"type":"object","properties":{"a":{"type":"array"}}}`,
		`{"type":"object","properties":{"a":{"type":"array","items":{"type":"array"}}}}`,
		`{"type":"object","properties":{"a":{"type":"array","items":3}}}`,
		`{"type":"array"}`,
		`{"type":["object","array"],"properties":{"a":{"type":"string"}},"items":{"type":"string"}}`,
		`{"properties":{"a":{"enum":["x",1,null]},"b":{"anyOf":[{"type":"string"},{"properties":{"c":{}}}]},"d":{"anyOf":{}}}}`,
		`{"type":"object","properties":{"a":true,"b":false,"c":3,"d":[],"e":{"properties":[]}}}`,
		`{}`, `true`, `false`, `null`, `[]`,
		`{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},"properties":{"x":{"$ref":"#/$defs/A"}}}`,
		`{"$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"},{"properties":{"q":{"type":"string"}}}]}},"properties":{"x":{"$ref":"#/$defs/A"}}}`,
		`{"$defs":{"A":{"type":"array","items":{"$ref":"#/$defs/A"}}},"properties":{"f":{"$ref":"#/$defs/A"}}}`,
		`{"type":"object","properties":{"id":{"type":"string"},"self":{"$ref":"#"}}}`,
		strings.Repeat("[", 20_000),
		strings.Repeat(`{"type":"object","properties":{"a":`, 1000) + `{}` + strings.Repeat("}}", 1000),
	} {
		schemas = append(schemas, []byte(s))
	}
	// One large root container once got 2 of its 30 lines (the fill
	// expanded only containers that fit whole).
	var large strings.Builder
	for i := range 50 {
		fmt.Fprintf(&large, `,"f%02d":{"type":"string"}`, i)
	}
	schemas = append(schemas, []byte(`{"properties":{"id":{"type":"string"},"order":{"properties":{`+large.String()[1:]+`}}}}`))
	for _, in := range hostile.Schemas {
		schemas = append(schemas, in.Make(4<<10))
	}
	return schemas, append(paths, "", "[]", "a", "a[]", "a[].b", "[][]")
}

var (
	leafLine     = regexp.MustCompile(`(?s)^(.*): ([A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)*)$`)
	markerLine   = regexp.MustCompile(`(?s)^(.*): ([A-Za-z0-9_-]+) \((?:contains (\d+) sub-fields|unknown keys); inspect_tool_output\(\.\.\., field_path=(".*")\)\)$`)
	overflowLine = regexp.MustCompile(`(?s)^(.*)\* \(\+(\d+) more fields; inspect_tool_output\(\.\.\., field_path=(".*")\)\)$`)
)

// line is one parsed output line.
type line struct {
	shown, fieldPath string
	marker, overflow bool
	count            int // sub-fields of a "contains" marker; -1 for unknown keys
}

// parseLine checks a line against the formats; abs is false for preview
// lines, whose shown path is relative.
func parseLine(t *testing.T, l string, abs bool) line {
	t.Helper()
	if m := markerLine.FindStringSubmatch(l); m != nil {
		fp, err := strconv.Unquote(m[4])
		if err != nil {
			t.Fatalf("marker %q: field_path %s: %v", l, m[4], err)
		}
		if abs && fp != m[1] && !(m[1] == "data" && fp == "") {
			t.Fatalf("marker %q: field_path %q is not its path %q", l, fp, m[1])
		}
		if !abs && !strings.HasSuffix(fp, m[1]) {
			t.Fatalf("marker %q: field_path %q does not end with %q", l, fp, m[1])
		}
		n := -1
		if m[3] != "" {
			n, _ = strconv.Atoi(m[3])
		}
		return line{shown: m[1], fieldPath: fp, marker: true, count: n}
	}
	if m := overflowLine.FindStringSubmatch(l); m != nil {
		fp, err := strconv.Unquote(m[3])
		if err != nil || !(m[1] == "" && fp == "" || m[1] == fp+".") {
			t.Fatalf("overflow %q: field_path %s does not match %q", l, m[3], m[1])
		}
		return line{shown: m[1], fieldPath: fp, overflow: true}
	}
	if m := leafLine.FindStringSubmatch(l); m != nil {
		return line{shown: m[1]}
	}
	t.Fatalf("line %q is neither `path: type` nor a fold or overflow marker", l)
	return line{}
}

// plainNames reports whether every object key in the JSON is usable in a
// field path (no '.', '[' or ']', not empty), so that every marker can be
// inspected by its field_path.
func plainNames(data []byte) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	stack := []any{v}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := x.(type) {
		case map[string]any:
			for k, e := range x {
				if k == "" || strings.ContainsAny(k, ".[]") {
					return false
				}
				stack = append(stack, e)
			}
		case []any:
			stack = append(stack, x...)
		}
	}
	return true
}

// FuzzSummarize checks, on any input, that Summarize answers valid JSON
// with a summary and invalid JSON with a positioned error; that the summary
// has at most max_fields lines, each `path: type` or a fold or overflow
// marker in the exact formats; that every root key is listed when they fit;
// that has_hidden_fields is set when a marker is present; that the budget
// is used when fields remain (fewer lines than max_fields only when every
// field down to the summary depth is listed); that every
// "contains N" marker can be inspected and has N children; and that the
// answer is the same twice.
func FuzzSummarize(f *testing.F) {
	schemas, _ := seedSchemas()
	for i, s := range schemas {
		f.Add(s, uint8(i), uint8(i/3))
	}
	f.Fuzz(func(t *testing.T, data []byte, fields, depth uint8) {
		opts := schema.Options{MaxFields: int(fields % 40), MaxDepth: int(depth % 8)}
		limit := opts.MaxFields
		if limit == 0 {
			limit = schema.MaxSummaryFields
		}
		s, err := schema.Summarize(data, opts)
		var syn *jsonlex.SyntaxError
		var nest *schema.NestingError
		switch {
		case err != nil && !errors.As(err, &syn) && !errors.As(err, &nest):
			t.Fatalf("error of an unknown kind: %v", err)
		case err != nil && strings.Contains(err.Error(), "\n"):
			t.Fatalf("error on several lines: %q", err)
		case (err == nil) != json.Valid(data):
			t.Fatalf("json.Valid %v, but error %v", json.Valid(data), err)
		case err != nil:
			return
		}
		if len(s.OutputFields) == 0 || len(s.OutputFields) > limit {
			t.Fatalf("%d lines for max_fields %d", len(s.OutputFields), limit)
		}
		shown := map[string]bool{}
		for _, l := range s.OutputFields {
			p := parseLine(t, l, true)
			shown[p.shown] = true
			if (p.marker || p.overflow) && !s.HasHiddenFields {
				t.Fatalf("marker %q but has_hidden_fields false", l)
			}
			if p.marker && p.count >= 0 && len(data) < 8<<10 && plainNames(data) {
				in, err := schema.Inspect(data, "t", p.fieldPath, schema.InspectOptions{MaxFields: 1})
				if err != nil || in.TotalChildFields != p.count {
					t.Fatalf("marker %q: inspect says %d children, %v", l, in.TotalChildFields, err)
				}
			}
		}
		checkRootKeys(t, data, s, limit, shown)
		depthOr := opts.MaxDepth
		if depthOr == 0 {
			depthOr = schema.DefaultSummaryMaxDepth
		}
		if l := budgetUnused(data, s, limit, depthOr); l != "" {
			t.Fatalf("%d lines of %d, but %q is not listed: %q", len(s.OutputFields), limit, l, s.OutputFields)
		}
		if again, _ := schema.Summarize(data, opts); !reflect.DeepEqual(again, s) {
			t.Fatalf("not deterministic:\n%q\n%q", s.OutputFields, again.OutputFields)
		}
	})
}

// budgetUnused names a field the summary left out although it has lines to
// spare ("" when there is none): the budget is used when fields remain. When
// the summary has fewer than limit lines, every field down to the summary
// depth has its line, that is every line of the inspector's preview of the
// root at that depth (its leaves, and the fold markers of the containers
// the depth stops, of unknown keys and of recursion). Only schemas whose whole
// tree an inspection walks uncut (so no cap cuts the summary either), with
// plain names and an object root, are checked.
func budgetUnused(data []byte, s schema.Summary, limit, depth int) string {
	if len(s.OutputFields) >= limit || len(data) >= 8<<10 || !plainNames(data) {
		return ""
	}
	all, err := schema.Inspect(data, "t", "", schema.InspectOptions{MaxFields: 1 << 20, MaxDepth: 1 << 20})
	if err != nil || all.Truncated || all.NodeType == "array" {
		return ""
	}
	in, err := schema.Inspect(data, "t", "", schema.InspectOptions{MaxFields: 1 << 20, MaxDepth: depth})
	if err != nil {
		return ""
	}
	listed := map[string]bool{}
	for _, l := range s.OutputFields {
		listed[l] = true
	}
	for _, l := range in.FlattenedFields {
		if !listed[l] {
			return l
		}
	}
	return ""
}

// shownBelow reports a shown path below name: when nothing is hidden, a
// container has no line and its leaves' paths show it.
func shownBelow(shown map[string]bool, name string) bool {
	for p := range shown {
		if strings.HasPrefix(p, name+".") {
			return true
		}
	}
	return false
}

// checkRootKeys: when the root is an object with at most max fields, each
// has its own line (its name, or its name with "[]"s, as shown path), or,
// when nothing is hidden, a container shows through its leaves' paths.
func checkRootKeys(t *testing.T, data []byte, s schema.Summary, limit int, shown map[string]bool) {
	t.Helper()
	in, err := schema.Inspect(data, "t", "", schema.InspectOptions{MaxFields: 1 << 20, MaxDepth: 1})
	if err != nil || in.NodeType == "array" || in.TotalChildFields > limit || in.TotalChildFields != len(in.Children) {
		return
	}
	for _, c := range in.Children {
		name := c.Name + strings.Repeat("[]", strings.Count(c.Type, "array of "))
		if !shown[name] && !(!s.HasHiddenFields && shownBelow(shown, name)) {
			t.Fatalf("root key %q has no line in %q", name, s.OutputFields)
		}
	}
}

// FuzzInspect checks, on any input and field path, that Inspect answers
// with an inspection or an *InspectError on one line; that children and
// flattened_fields stay within max_fields, every preview line in the exact
// formats; that truncated is set when children were cut and total_child_fields
// is exact when it is not; that the tool call's envelope agrees; and that
// the answer is the same twice.
func FuzzInspect(f *testing.F) {
	schemas, paths := seedSchemas()
	for i, s := range schemas {
		f.Add(s, paths[i%len(paths)], uint8(i), uint8(i/5))
	}
	f.Fuzz(func(t *testing.T, data []byte, path string, fields, depth uint8) {
		opts := schema.InspectOptions{MaxFields: int(fields % 50), MaxDepth: int(depth % 8)}
		limit := opts.MaxFields
		if limit == 0 {
			limit = schema.DefaultInspectMaxFields
		}
		in, err := schema.Inspect(data, "t", path, opts)
		var ie *schema.InspectError
		if err != nil && (!errors.As(err, &ie) || strings.Contains(err.Error(), "\n")) {
			t.Fatalf("error not an *InspectError on one line: %q", err)
		}
		// The envelope agrees (JSON arguments cannot carry invalid UTF-8).
		args, _ := json.Marshal(map[string]any{"tool_id": "t", "field_path": path, "max_depth": opts.MaxDepth, "max_fields": limit})
		if opts.MaxDepth == 0 {
			args, _ = json.Marshal(map[string]any{"tool_id": "t", "field_path": path, "max_fields": limit})
		}
		r := schema.NewIndex(schema.ToolSpec{ToolID: "t", OutputSchema: data}).InspectToolOutput(args)
		if utf8.ValidString(path) && (r.Successful != (err == nil) || err != nil && !strings.HasSuffix(r.Error, ie.Msg) || err == nil && !reflect.DeepEqual(*r.Data, in)) {
			t.Fatalf("envelope %+v disagrees with %v", r, err)
		}
		if err != nil {
			return
		}
		if len(in.Children) > limit || len(in.FlattenedFields) > limit || in.TotalChildFields < len(in.Children) {
			t.Fatalf("%d children of %d, %d preview lines, for max_fields %d", len(in.Children), in.TotalChildFields, len(in.FlattenedFields), limit)
		}
		if len(in.Children) < in.TotalChildFields && !in.Truncated {
			t.Fatalf("children cut (%d of %d) but truncated false", len(in.Children), in.TotalChildFields)
		}
		for _, l := range in.FlattenedFields {
			if p := parseLine(t, l, false); p.overflow {
				t.Fatalf("overflow marker %q in a preview", l)
			}
		}
		if again, _ := schema.Inspect(data, "t", path, opts); !reflect.DeepEqual(again, in) {
			t.Fatalf("not deterministic")
		}
	})
}
