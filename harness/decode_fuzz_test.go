package harness_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// This fuzz target is in package harness so that it can lower the bound on
// generated text (generateLimit, 4 KiB here): a scenario may generate 256 MiB, which is
// right for a benchmark and too slow for one fuzz input.

// copyScenarios copies the scenarios folder (YAML and data files) under dst
// and returns its folders, so that fuzz inputs are loaded where their file:
// references resolve.
func copyScenarios(f *testing.F, dst string) (dirs []string) {
	err := filepath.WalkDir("../scenarios", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			dirs = append(dirs, to)
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		f.Fatal(err)
	}
	return dirs
}

// loadSeeds returns the scenario files and the malformed files of
// harness/testdata, each with the index of the folder it belongs in.
func loadSeeds(f *testing.F, dirs []string, base string) (srcs [][]byte, at []uint8) {
	var files []string
	_ = filepath.WalkDir("../scenarios", func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".yaml") {
			files = append(files, p)
		}
		return err
	})
	more, _ := filepath.Glob("testdata/*.yaml")
	for _, p := range append(files, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		rel, _ := filepath.Rel("..", filepath.Dir(p))
		i := max(slices.Index(dirs, filepath.Join(base, rel)), 0)
		srcs, at = append(srcs, b), append(at, uint8(i))
	}
	return srcs, at
}

// hostile are inputs built to break a YAML decoder: bad bytes, deep nesting,
// alias bombs and cycles, several documents, merge keys, huge numbers.
func hostile() []string {
	bomb := "a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n"
	for i := 1; i < 10; i++ {
		bomb += fmt.Sprintf("a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d,", i-1), 10), ","))
	}
	ok := "component: finalreport\nconfig: {nonce: abc}\ninput: {text: x}\nexpect: {found: false}\n"
	return []string{
		ok, bomb, ok + bomb, ok + "labels: *a9\n" + bomb,
		"component: finalreport\nconfig: &c {nonce: *c}\n",
		"component: llm\nllm: &l [*l]\n",
		ok + "---\n" + ok, ok + "---\n", ok + "...\n---\n[[[\n",
		"component: finalreport\nconfig: {nonce: \xff}\n", "component: finalreport\x00\n", "\xff\xfec\x00:\x00 \x00x\x00",
		"\xef\xbb\xbf" + ok, strings.Repeat("[", 10001),
		// yamlstrict.Scalar's policy and a tag that does not decode into any.
		"component: finalreport\nconfig: {nonce: abc}\ninput: {text: x}\nexpect: {found: \"false\", closed: yes}\n",
		"component: extract\nconfig: {args: {n: !!int abc}}\n", ok + "labels: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n",
		ok + "x: *nope\n", ok + "description: {<<: {a: 1}}\n", ok + "labels: [!!binary '%%']\n",
		"component: finalreport\nconfig: {nonce: abc}\ninput: {text: {generate: {lines: 999999999999, template: x}}}\n",
		"component: finalreport\nconfig: {nonce: abc}\ninput: {text: {generate: {repeat: é, bytes: 5}}}\n",
		"component: llm\nllm:\n- {match: {tag: t}, respond: {tool_calls: [{name: n, args: {a: !!int x, b: {[1]: 2}}}]}}\n",
		"component: llm\nllm:\n- {respond: {text: ab, tool_calls: [{name: n}], stream: {chunks: 2, split: [a, ''], error_after: -1, disconnect_after: x}}}\n",
		"component: llm\nllm:\n- {respond: {text: ab, stream: {chunks: 2, mid_event: yes, delay: {every: -1s, after: 9999999999999999999, for: 1e9h}}}}\n",
		"component: extract\nconfig: {max_chunks: 99999999999999999999}\n",
		"component: leaked\ninput: {text: {file: ../../../etc/passwd}}\n",
		"component: leaked\ninput: {text: {file: /etc/passwd}}\n",
		"scenario: x\ncomponent: finalreport\r\nconfig: {nonce: abc}\r",
		"? " + strings.Repeat("k", 3000) + "\n: 1\n",
		// Syntax errors whose line yaml.v3 gives off by one, or
		// as the enclosing construct's.
		"component: finalreport\nlabels: [a\ndescription: x\n", "component: finalreport\nconfig:\n  nonce: abc\n extra: 1\n",
		"component: finalreport\ndescription: a: b\n", "component: finalreport\ndescripton: x\n",
		// A session policy whose errors are reported at the keys
		// they name, inside flow mappings, lists and an alias.
		"component: session\nconfig:\n  max_tool_response_bytes: 5\n  policy:\n    max_bytes: 1\n    context_factor: 2\n" +
			"    recovery_tools: &r [a, a, '']\n    tools: {Read: {max_bytes: 1}, '': {}, b: {context_factor: 0.0000001}}\ninput: {user: x, tools: *r}\n",
		// A scenario's wire, and custom tool calls it may not carry.
		"component: session\nwire: anthropic\ninput: {user: x}\nllm:\n- respond: {tool_calls: [{name: p, custom: true, input: x}, {name: q, input: y}, {name: r, custom: true}]}\n",
		"component: gateway\nwire: [responses]\ninput: {requests: []}\n",
	}
}

// FuzzLoad checks the scenario loader on any bytes, written where the
// scenario files live so that file: references resolve:
//   - it never panics, and stays bounded on the hostile seeds (alias bombs,
//     deep nesting, huge generate requests);
//   - every error is an ErrorList whose problems each carry the file and a
//     line:col (1-based), one line of message, in position order;
//   - input that is not UTF-8 (nor UTF-16 with a byte-order mark) is an error;
//   - loading is deterministic (same errors, same scenario);
//   - a scenario that loads, re-encoded by the YAML encoder, loads again to
//     the same values.
func FuzzLoad(f *testing.F) {
	f.Cleanup(harness.SetGenerateLimit(4 << 10))
	base := f.TempDir()
	dirs := copyScenarios(f, base)
	srcs, at := loadSeeds(f, dirs, base)
	for i, src := range srcs {
		f.Add(at[i], src)
	}
	for _, s := range hostile() {
		f.Add(uint8(0), []byte(s))
	}
	reg := components.Default()
	f.Fuzz(func(t *testing.T, dir uint8, src []byte) {
		file := filepath.Join(dirs[int(dir)%len(dirs)], "fuzz-input.yaml")
		_, display, _ := harness.Layout(file)
		load := func(src []byte) (*harness.Scenario, error) {
			t.Helper()
			if err := os.WriteFile(file, src, 0o644); err != nil {
				t.Fatal(err)
			}
			sc, err := harness.Load(reg, file)
			if err != nil {
				checkErrors(t, display, err)
			}
			return sc, err
		}
		sc, err := load(src)
		utf16 := len(src) >= 2 && (src[0] == 0xff && src[1] == 0xfe || src[0] == 0xfe && src[1] == 0xff)
		if err == nil && !utf8.Valid(src) && !utf16 {
			t.Fatalf("loaded a file that is not UTF-8: %q", src)
		}
		again, err2 := load(src)
		if fmt.Sprint(err) != fmt.Sprint(err2) || !sameScenario(sc, again) {
			t.Fatalf("not deterministic:\n%v\nthen\n%v", err, err2)
		}
		if err != nil {
			return
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(src, &doc); err != nil {
			t.Fatalf("loaded, but yaml.Unmarshal fails: %v", err)
		}
		spellNulls(&doc)
		out, err := yaml.Marshal(&doc)
		if err != nil {
			return // the encoder refuses some node shapes it decodes
		}
		back, err := load(out)
		if err != nil || !sameScenario(sc, back) {
			t.Fatalf("re-encoded as\n%s\nit loads to a different scenario (%v):\n%s", out, err, cmp.Diff(scenarioValues(sc), scenarioValues(back)))
		}
	})
}

// spellNulls writes empty nulls as "null": the YAML encoder writes an
// implicit null inside a flow mapping ({a, b: }) as an empty string.
func spellNulls(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "" {
		n.Value = "null"
	}
	for _, c := range n.Content {
		spellNulls(c)
	}
}

func checkErrors(t *testing.T, display string, err error) {
	t.Helper()
	list, ok := err.(harness.ErrorList)
	if !ok || len(list) == 0 {
		t.Fatalf("error %T is not an ErrorList: %v", err, err)
	}
	for i, e := range list {
		switch {
		case e.Pos.File != display || e.Pos.Line < 1 || e.Pos.Col < 1:
			t.Fatalf("problem without a position: %q (%+v)", e, e.Pos)
		case e.Msg == "" || strings.ContainsAny(e.Msg, "\n\r"):
			t.Fatalf("problem message is not one line: %q", e.Msg)
		case i > 0 && (list[i-1].Pos.Line > e.Pos.Line || list[i-1].Pos.Line == e.Pos.Line && list[i-1].Pos.Col > e.Pos.Col):
			t.Fatalf("problems out of order: %v before %v", list[i-1], e)
		}
	}
}

// sameScenario compares what a scenario decodes to, leaving out positions.
func sameScenario(a, b *harness.Scenario) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.DeepEqual(scenarioValues(a), scenarioValues(b))
}

func scenarioValues(sc *harness.Scenario) []any {
	if sc == nil {
		return nil
	}
	steps := slices.Clone(sc.LLM)
	for i := range steps {
		steps[i].Pos = ""
	}
	v := []any{sc.ID, sc.Description, sc.Labels, sc.Component, sc.Source, sc.Failure, steps}
	for _, n := range []*yaml.Node{&sc.Config, &sc.Input, &sc.Expect} {
		var x any
		if n.Kind != 0 {
			_ = n.Decode(&x)
		}
		v = append(v, x)
	}
	return v
}
