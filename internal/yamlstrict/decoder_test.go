package yamlstrict_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/internal/yamlstrict"
)

type inner struct {
	Words int    `yaml:"words"`
	Name  string `yaml:"name"`
}

type config struct {
	Inner   inner             `yaml:"inner"`
	Labels  []string          `yaml:"labels"`
	Wait    time.Duration     `yaml:"wait"`
	Tags    map[string]string `yaml:"tags"`
	Ratio   float64           `yaml:"ratio"`
	Extra   map[string]any    `yaml:"extra"`
	Skipped string            `yaml:"-"`
}

// decode runs a Decoder on src and returns the value and each problem as
// "line:col kind what key want".
func decode(t *testing.T, src string, d yamlstrict.Decoder) (config, []string) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	var got []string
	d.Report = func(p yamlstrict.Problem) {
		got = append(got, fmt.Sprintf("%d:%d %d %s %s %s%s", p.N.Line, p.N.Column, p.Kind, p.What, p.Key, p.Want, p.Nearest))
	}
	c := config{Inner: inner{Words: 7}}
	d.Decode(&doc, reflect.ValueOf(&c).Elem(), "")
	return c, got
}

// TestDecoderReportsEveryProblemAtItsNode: one pass reports an unknown key
// (with the key it is likely a misspelling of), a duplicate, a merge key,
// a value of the wrong kind and a bad duration, each where it is, and
// decodes the rest.
func TestDecoderReportsEveryProblemAtItsNode(t *testing.T) {
	src := "inner: {wrds: 3, name: n}\nlabels: [a, b]\nwait: -1s\ntags: {a: x, a: y}\nratio: .nan\nbase: &b {name: m}\nmerged: {<<: *b}\n"
	c, got := decode(t, src, yamlstrict.Decoder{})
	want := []string{
		fmt.Sprintf("1:9 %d inner wrds words", yamlstrict.UnknownKey),
		fmt.Sprintf("3:7 %d wait  ", yamlstrict.BadValue),
		fmt.Sprintf("4:14 %d tags a ", yamlstrict.DuplicateKey),
		fmt.Sprintf("5:8 %d ratio  a finite number", yamlstrict.WrongKind),
		fmt.Sprintf("6:1 %d  base ", yamlstrict.UnknownKey),
		fmt.Sprintf("7:1 %d  merged ", yamlstrict.UnknownKey),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c.Inner.Name != "n" || c.Inner.Words != 7 || len(c.Labels) != 2 || c.Tags["a"] != "x" {
		t.Errorf("the rest is not decoded: %+v", c)
	}
	c, got = decode(t, "extra: {n: !!int abc, m: 2}\n", yamlstrict.Decoder{})
	if len(got) != 1 || !strings.Contains(got[0], fmt.Sprintf("1:12 %d extra.n", yamlstrict.BadValue)) || c.Extra["m"] != 2 {
		t.Errorf("a value that does not decode into any: %q, %v", got, c.Extra)
	}
	_, got = decode(t, "inner: &i {name: n}\ntags: {<<: {a: b}}\n", yamlstrict.Decoder{})
	if len(got) != 1 || !strings.Contains(got[0], fmt.Sprintf(" %d tags <<", yamlstrict.MergeKey)) {
		t.Errorf("a merge key: %q", got)
	}
}

// TestDecoderOptions: null keeps a default, ${VAR} is typed after its
// expansion, a lone scalar is a list only when asked, a hook decodes its
// own types and Validate sees every value.
func TestDecoderOptions(t *testing.T) {
	c, got := decode(t, "inner: ~\nlabels: smoke\n", yamlstrict.Decoder{})
	if c.Inner.Words != 7 || len(got) != 1 || !strings.Contains(got[0], "labels  a list of strings") {
		t.Errorf("null and a lone scalar without LoneScalarList: %+v %q", c, got)
	}
	c, got = decode(t, "labels: smoke\n", yamlstrict.Decoder{LoneScalarList: true})
	if len(got) != 0 || len(c.Labels) != 1 || c.Labels[0] != "smoke" {
		t.Errorf("LoneScalarList: %+v %q", c, got)
	}
	expand := func(s string) string { return strings.ReplaceAll(s, "${N}", "12") }
	c, got = decode(t, "inner:\n  words: ${N}\n  name: '${N}'\n", yamlstrict.Decoder{Expand: expand})
	if len(got) != 0 || c.Inner.Words != 12 || c.Inner.Name != "12" {
		t.Errorf("Expand: %+v %q", c, got)
	}
	var validated []string
	c, got = decode(t, "inner: {name: hooked}\nratio: 2\n", yamlstrict.Decoder{
		Hook: func(n *yaml.Node, v reflect.Value, _ string) bool {
			if v.Type() != reflect.TypeFor[inner]() {
				return false
			}
			v.Set(reflect.ValueOf(inner{Name: "by the hook"}))
			return true
		},
		Validate: func(_ *yaml.Node, _ reflect.Value, what string) { validated = append(validated, what) },
	})
	if len(got) != 0 || c.Inner.Name != "by the hook" || c.Ratio != 2 {
		t.Errorf("Hook: %+v %q", c, got)
	}
	if strings.Join(validated, ",") != "ratio," {
		t.Errorf("Validate saw %q, want ratio then the top level (a hooked value validates itself)", validated)
	}
}
