package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/internal/yamlstrict"
)

// maxConfigBytes bounds a gateway config file.
const maxConfigBytes = 1 << 20

// emptyConfig is the error for a config that sets nothing.
const emptyConfig = "empty config: it sets nothing, and would start a gateway that compresses nothing; " +
	"set pipes.tool_output (see cmd/toolout/testdata/gateway.yaml), with enabled: false for a passthrough on purpose"

// loadGatewayConfig reads the YAML config at path strictly, and names the
// file:line:col of what it refuses (the first problem, and how many more):
// a file over 1 MiB, a byte that is not UTF-8 or a character YAML forbids,
// a syntax error (where the parser stopped: yamlstrict.Locate), a second
// document, a config
// that sets nothing or lacks pipes.tool_output (an empty file would start a
// gateway that compresses nothing), an unknown or duplicate key (with the
// nearest known one), a merge key, a value of the wrong type.
//
// ${VAR} is expanded from the environment inside each value, after
// parsing: a variable cannot add keys or move positions, and a plain value
// is typed after expansion (min_bytes: ${MIN} is a number). In flow style
// ({…}, […]) a ${VAR} must be quoted, since "{" cannot start a plain value
// there.
func loadGatewayConfig(path string) (FileConfig, error) {
	var fc FileConfig
	f, err := os.Open(path)
	if err != nil {
		return fc, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	f.Close()
	switch {
	case err != nil:
		return fc, err
	case len(data) > maxConfigBytes:
		return fc, fmt.Errorf("%s: the file is over %d bytes; a config is small", path, maxConfigBytes)
	}
	c := &configLoader{file: path, data: data}
	root := c.parse()
	if root != nil {
		c.decode(root, reflect.ValueOf(&fc).Elem(), "")
		if t := mappingValue(mappingValue(root, "pipes"), "tool_output"); len(c.errs) == 0 && (t == nil || yamlstrict.IsNull(t)) {
			c.at(root, "pipes.tool_output is missing: the gateway would compress nothing; set it, with enabled: false for a passthrough on purpose")
		}
	}
	if err := c.err(); err != nil {
		return FileConfig{}, err // nothing half-decoded
	}
	return fc, nil
}

// configLoader decodes one config file and collects its problems.
type configLoader struct {
	file string
	data []byte
	errs []configError
}

type configError struct {
	line, col int
	msg       string
}

func (c *configLoader) errorf(line, col int, format string, args ...any) {
	c.errs = append(c.errs, configError{line, col, fmt.Sprintf(format, args...)})
}

func (c *configLoader) at(n *yaml.Node, format string, args ...any) {
	c.errorf(max(n.Line, 1), max(n.Column, 1), format, args...)
}

// err returns the first problem in the file, with the number of others.
func (c *configLoader) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(c.errs, func(a, b configError) int { return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col)) })
	e := c.errs[0]
	more := ""
	switch n := len(c.errs) - 1; {
	case n == 1:
		more = " (and 1 more problem)"
	case n > 1:
		more = fmt.Sprintf(" (and %d more problems)", n)
	}
	return fmt.Errorf("%s:%d:%d: %s%s", c.file, e.line, e.col, e.msg, more)
}

// unquotedVarInFlow finds a ${VAR} after a flow indicator on its line, with
// no quote between: a syntax error, since "{" cannot start a plain scalar
// in flow style (the variable is expanded after parsing).
var unquotedVarInFlow = regexp.MustCompile(`[\[{,][^"'\n]*\$\{`)

// parse checks the characters, parses the one document and returns its
// root mapping, or nil with the problem recorded.
func (c *configLoader) parse() *yaml.Node {
	if c.badChar() {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(c.data))
	var doc, next yaml.Node
	err := dec.Decode(&doc)
	if err == nil {
		if err = dec.Decode(&next); errors.Is(err, io.EOF) {
			err = nil
		} else if err == nil && !yamlstrict.IsNull(next.Content[0]) {
			c.at(next.Content[0], "a config holds one YAML document; a second one starts here")
			return nil
		}
	}
	switch {
	case errors.Is(err, io.EOF): // no document: only comments, or nothing
		c.errorf(1, 1, "%s", emptyConfig)
		return nil
	case err != nil:
		line, col, msg, ok := yamlstrict.Locate(c.data, err)
		if !ok {
			line, col, msg = 1, 1, yamlstrict.Message(err)
		}
		if m := unquotedVarInFlow.FindIndex(c.data); m != nil {
			msg += ` (a ${VAR} inside {…} or […] must be quoted: "${VAR}")`
			yamlstrict.Walk(c.data, func(ch yamlstrict.Char) bool { // at the "$"
				line, col = ch.Line, ch.Col
				return ch.Off < m[1]-2
			})
		}
		c.errorf(line, col, "%s", msg)
		return nil
	}
	root := yamlstrict.Resolve(doc.Content[0])
	switch {
	case yamlstrict.IsNull(root) || root.Kind == yaml.MappingNode && len(root.Content) == 0:
		c.errorf(1, 1, "%s", emptyConfig)
		return nil
	case root.Kind != yaml.MappingNode:
		c.at(root, "want a mapping of settings, got %s", nodeKind(root))
		return nil
	}
	return root
}

// badChar records the first byte that is not UTF-8, or character that YAML
// does not allow (c-printable), at its line:col, lines broken as YAML
// breaks them (at "\n", "\r\n", "\r", U+0085, U+2028, U+2029).
func (c *configLoader) badChar() bool {
	if bytes.HasPrefix(c.data, []byte{0xff, 0xfe}) || bytes.HasPrefix(c.data, []byte{0xfe, 0xff}) {
		c.errorf(1, 1, "invalid UTF-8 (byte 0x%02x): a config is UTF-8 text, and this file is UTF-16", c.data[0])
		return true
	}
	bad := false
	yamlstrict.Walk(c.data, func(ch yamlstrict.Char) bool {
		switch {
		case ch.R < 0:
			c.errorf(ch.Line, ch.Col, "invalid UTF-8 (byte 0x%02x): a config is UTF-8 text", c.data[ch.Off])
			bad = true
		case !yamlstrict.Printable(ch.R):
			what := "character"
			if unicode.IsControl(ch.R) {
				what = "control character"
			}
			c.errorf(ch.Line, ch.Col, "%s U+%04X is not allowed in YAML", what, ch.R)
			bad = true
		}
		return !bad
	})
	return bad
}

// mappingValue returns the value of key in mapping n, or nil when n is
// not a mapping or has no such key.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || yamlstrict.Resolve(n).Kind != yaml.MappingNode {
		return nil
	}
	n = yamlstrict.Resolve(n)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return yamlstrict.Resolve(n.Content[i+1])
		}
	}
	return nil
}

// decode sets v from n strictly with the decoder both readers share
// (yamlstrict.Decoder), ${VAR} expanded from the environment in each
// scalar before it is typed, every problem recorded at its own node and
// worded here. path names v ("pipes.tool_output").
func (c *configLoader) decode(n *yaml.Node, v reflect.Value, path string) {
	yd := yamlstrict.Decoder{Report: c.problem, Expand: func(s string) string { return os.Expand(s, os.Getenv) }}
	yd.Decode(n, v, path)
}

// problem words one problem of the decoder as config errors read.
func (c *configLoader) problem(p yamlstrict.Problem) {
	in := ""
	if p.What != "" {
		in = " in " + p.What
	}
	switch p.Kind {
	case yamlstrict.WrongKind:
		got := gotKind(p.N)
		if p.Want == "a mapping" {
			got = nodeKind(p.N)
		}
		c.at(p.N, "%s: want %s, got %s", p.What, p.Want, got)
	case yamlstrict.KeyNotString:
		c.at(p.N, "want a plain key%s, got %s", in, nodeKind(p.N))
	case yamlstrict.MergeKey:
		c.at(p.N, `merge keys ("<<") are not supported in a config; write the keys out`)
	case yamlstrict.DuplicateKey:
		c.at(p.N, "duplicate key %q%s (first at line %d)", p.Key, in, p.First.Line)
	case yamlstrict.UnknownKey:
		if p.Nearest != "" {
			c.at(p.N, "unknown field %q%s (did you mean %q?)", p.Key, in, p.Nearest)
			return
		}
		c.at(p.N, "unknown field %q%s (known: %s)", p.Key, in, strings.Join(p.Known, ", "))
	case yamlstrict.BadValue:
		c.at(p.N, "%s: %v", p.What, p.Err)
	}
}

// nodeKind names n as an error message says it: "a mapping", "a list", or
// "a T value" for a scalar of tag !!T.
func nodeKind(n *yaml.Node) string {
	if k := yamlstrict.Container(n); k != "" {
		return k
	}
	return "a " + strings.TrimPrefix(n.ShortTag(), "!!") + " value"
}

// gotKind names node n in a "want …, got …" message: a scalar by its text
// (clipped to 60 characters), a container by its kind.
func gotKind(n *yaml.Node) string {
	if k := yamlstrict.Container(n); k != "" {
		return k
	}
	return yamlstrict.Quote(n.Value)
}
