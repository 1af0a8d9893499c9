package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// configErr is the shape of every load error: the file, the line:col of
// the problem, one line; or the file alone for its size.
var configErr = regexp.MustCompile(`^gw\.yaml:(\d+):(\d+): [^\n]+$|^gw\.yaml: the file is over \d+ bytes; a config is small$`)

// FuzzGatewayConfig checks the config loader on any file:
//   - it never panics; an error is one line naming gw.yaml and a line:col
//     inside the file (or the file's size);
//   - a file without "$" that it accepts, yaml.v3's own strict decoder
//     (KnownFields) accepts too, into the same FileConfig, and it has a
//     pipes.tool_output;
//   - loading twice gives the same answer.
func FuzzGatewayConfig(f *testing.F) {
	for _, file := range []string{"testdata/gateway.yaml", "testdata/gateway-redis.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", "# c\n", "---\n", "{}", "store: {backend: memory}\n", "pipes:\n  tool_output:\n    stratgy: simple\n",
		"pipes:\n  tool_output:\n    min_bytes: abc\n", "pipes: [tool_output]\n", "pipes:\n  tool_output:\n    <<: {enabled: true}\n",
		"pipes:\n  tool_output:\n    strategy: simple\n    strategy: api\n", "pipes:\n  tool_output: \"si\xffmple\"\n",
		"pipes: {tool_output: {enabled: true}}\n# \a\n", "pipes: {tool_output: {enabled: true}}\n---\nstore: {}\n",
		"a: &a [*a]\n", "pipes: &p {tool_output: *p}\n", "providers: {x: {model: m}}\npipes: {tool_output: {skip_tools: [a, b]}}\n",
		"pipes: {tool_output: {enabled: true, original_ttl: 5m, rate_limit: 1.5}}\nlimits: {max_body_bytes: 0x10}\n",
		"pipes: {tool_output: {enabled: true, rate_limit: .nan}}\n", "pipes: {tool_output: {target_ratio: -.inf}}\n",
		// yamlstrict.Scalar's policy: a quoted integer, yes for a boolean,
		// a null that keeps the default.
		"pipes: {tool_output: {enabled: yes, min_bytes: \"5\", max_bytes: ~}}\n",
		// A syntax error on line 2 that yaml.v3 names as line 1, a
		// Go type in a type error, a near miss of a key.
		"pipes:\n  tool_output: {enabled: true\nstore: {}\n", "pipes:\n  tool_output: {skip_tools: {a: 1}}\n",
		"pipes:\n  tool_outptu: {enabled: true}\n", "pipes:\n  tool_output:\n    enabled: true\n   strategy: simple\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	file := filepath.Join(dir, "gw.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fc, err := loadGatewayConfig(file)
		fc2, err2 := loadGatewayConfig(file)
		if !reflect.DeepEqual(fc, fc2) || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("two loads differ: %v / %v", err, err2)
		}
		if err != nil {
			msg := strings.Replace(err.Error(), file, "gw.yaml", 1)
			m := configErr.FindStringSubmatch(msg)
			if m == nil {
				t.Fatalf("error not in the file:line:col form, or not one line: %q", msg)
			}
			if m[1] != "" {
				line, _ := strconv.Atoi(m[1])
				breaks := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n").Replace(string(data))
				if lines := strings.Count(breaks, "\n") + 1; line < 1 || line > lines {
					t.Fatalf("line %d outside the file's %d lines: %q", line, lines, msg)
				}
			}
			return
		}
		if bytes.Contains(data, []byte("$")) {
			return // expanded after parsing, unlike yaml.v3's text
		}
		var want FileConfig
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("accepted a config yaml.v3 refuses (%v):\n%q", err, data)
		}
		if !reflect.DeepEqual(fc, want) {
			t.Fatalf("decoded %+v, yaml.v3 decodes %+v", fc, want)
		}
	})
}
