package yamlstrict_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/internal/yamlstrict"
)

func TestWalkPlacesCharactersAsTheParserCounts(t *testing.T) {
	type pos struct{ off, line, col int }
	cases := []struct {
		name string
		src  string
		want []pos // of each character, in order
	}{
		{"LF", "a\nb", []pos{{0, 1, 1}, {1, 1, 2}, {2, 2, 1}}},
		{"CRLF is one break", "a\r\nb", []pos{{0, 1, 1}, {1, 1, 2}, {2, 2, 1}, {3, 2, 1}}},
		{"CR alone", "a\rb", []pos{{0, 1, 1}, {1, 1, 2}, {2, 2, 1}}},
		{"NEL and LS", "\u0085\u2028b", []pos{{0, 1, 1}, {2, 2, 1}, {5, 3, 1}}},
		{"columns in characters", "é\tb", []pos{{0, 1, 1}, {2, 1, 2}, {3, 1, 3}}},
		{"UTF-16LE after a BOM", "\xff\xfea\x00\n\x00b\x00", []pos{{2, 1, 1}, {4, 1, 2}, {6, 2, 1}}},
		{"UTF-16BE surrogate pair", "\xfe\xff\xd8\x3d\xde\x00\x00b", []pos{{2, 1, 1}, {6, 1, 2}}},
	}
	for _, c := range cases {
		var got []pos
		yamlstrict.Walk([]byte(c.src), func(ch yamlstrict.Char) bool {
			got = append(got, pos{ch.Off, ch.Line, ch.Col})
			return true
		})
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestWalkStopsAtABrokenSequence(t *testing.T) {
	for _, src := range []string{"ab\n\xffc", "\xff\xfea\x00\x00\xdc", "\xfe\xff\x00"} {
		var last yamlstrict.Char
		n := 0
		yamlstrict.Walk([]byte(src), func(ch yamlstrict.Char) bool { last, n = ch, n+1; return true })
		if last.R != -1 {
			t.Errorf("%q: the walk ended at %+v after %d characters, want a -1 character last", src, last, n)
		}
	}
}

func TestFieldsFollowsInlineAndSkipsDashed(t *testing.T) {
	type Inner struct {
		A int `yaml:"a"`
		B int `yaml:"-"`
	}
	type Outer struct {
		Inner   `yaml:",inline"`
		C       string `yaml:"c,omitempty"`
		Plain   bool
		private int
	}
	names, index := yamlstrict.Fields(reflect.TypeFor[Outer]())
	if want := []string{"a", "c", "plain"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	if want := (map[string][]int{"a": {0, 0}, "c": {1}, "plain": {2}}); !reflect.DeepEqual(index, want) {
		t.Fatalf("index %v, want %v", index, want)
	}
}

func TestNearest(t *testing.T) {
	names := []string{"strategy", "min_bytes", "limits", "turn"}
	for s, want := range map[string]string{"stratgy": "strategy", "Limit": "limits", "trun": "turn", "xyz": "", "": "", "max_results": ""} {
		if got := yamlstrict.Nearest(s, names); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestDuration(t *testing.T) {
	node := func(src string) *yaml.Node {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatal(err)
		}
		return n.Content[0]
	}
	for src, want := range map[string]string{"30s": "30s", "1h30m": "1h30m0s", "0": "0s", "0s": "0s",
		"30": `duration "30": want e.g. 30s or 5m`, "-1s": `duration "-1s": want 0 (the default) or more`,
		"[1s]": "want a duration such as 30s or 5m", "5 minutes": `duration "5 minutes": want e.g. 30s or 5m`} {
		d, err := yamlstrict.Duration(node(src))
		got := d.String()
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("Duration(%s) = %s, want %s", src, got, want)
		}
	}
	if d, _ := yamlstrict.Duration(node("2m")); d != 2*time.Minute {
		t.Errorf("2m decoded as %v", d)
	}
}

func TestNodesAreReadThroughAliasesAndDocuments(t *testing.T) {
	var doc yaml.Node
	src := "m: &m {a: 1}\nl: &l [1]\nn: &n ~\ne:\ns: x\nam: *m\nal: *l\nan: *n\n"
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	root := yamlstrict.Resolve(&doc)
	value := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		value[root.Content[i].Value] = root.Content[i+1]
	}
	cases := []struct {
		key       string
		null      bool
		container string
	}{
		{"m", false, "a mapping"}, {"l", false, "a list"}, {"n", true, ""}, {"e", true, ""}, {"s", false, ""},
		{"am", false, "a mapping"}, {"al", false, "a list"}, {"an", true, ""},
	}
	for _, c := range cases {
		n := value[c.key]
		if got := yamlstrict.IsNull(n); got != c.null {
			t.Errorf("IsNull(%s) = %v, want %v", c.key, got, c.null)
		}
		if got := yamlstrict.Container(n); got != c.container {
			t.Errorf("Container(%s) = %q, want %q", c.key, got, c.container)
		}
	}
	if !yamlstrict.IsNull(nil) || yamlstrict.Container(nil) != "" || yamlstrict.Resolve(nil) != nil {
		t.Error("a missing node must read as null, no container, nil")
	}
}

func TestLocatePlacesSyntaxErrorsWhereTheParserStopped(t *testing.T) {
	cases := []struct {
		src, want string
	}{
		// yaml.v3 says "line 1" for these: a parser error's line is 0-based.
		{"a: 1\nb: [x\nc: 2\n", "2:4 did not find expected ',' or ']'"},
		{"a: 1\nb: {x: 1\n", "2:4 did not find expected ',' or '}'"},
		// It says "line 2", the line of the mapping, for a problem on line 3.
		{"a:\n  b: 1\n c: 2\n", "3:2 did not find expected key"},
		{"a: 1\nb: c: d\n", "2:5 mapping values are not allowed in this context"},
		{"a: 1\nb: @x\n", "2:4 found character that cannot start any token"},
		{"a: [1, 2\n", "1:4 did not find expected ',' or ']'"},
		{"a: 1\n---\nb: [\n", "3:4 did not find expected node content"},
		{"a: 1\r\nb: c: d\r\n", "2:5 mapping values are not allowed in this context"},
		{"é: 1\nb: ü: d\n", "2:5 mapping values are not allowed in this context"},
	}
	for _, c := range cases {
		var n yaml.Node
		err := yaml.Unmarshal([]byte(c.src), &n)
		if err == nil && strings.Contains(c.src, "---") {
			dec := yaml.NewDecoder(strings.NewReader(c.src))
			_ = dec.Decode(&n)
			err = dec.Decode(&n)
		}
		if err == nil {
			t.Fatalf("%q parses", c.src)
		}
		line, col, msg, ok := yamlstrict.Locate([]byte(c.src), err)
		if got := fmt.Sprintf("%d:%d %s", line, col, msg); !ok || got != c.want {
			t.Errorf("%q (%v): got %s (ok %v), want %s", c.src, err, got, ok, c.want)
		}
	}
	if _, _, _, ok := yamlstrict.Locate([]byte("a: 1\n"), errors.New("yaml: line 1: not from this text")); ok {
		t.Error("an error the parser does not give for the text was placed")
	}
}
