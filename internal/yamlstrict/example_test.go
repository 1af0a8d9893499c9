package yamlstrict_test

import (
	"fmt"
	"reflect"

	"github.com/toolout/toolout/internal/yamlstrict"
	"go.yaml.in/yaml/v3"
)

// A reader places the first character YAML refuses, and suggests the key
// an unknown one was meant to be.
func ExampleWalk() {
	src := []byte("pipes:\r\n  tool_output: {enabled: true}\n# bell \a\n")
	yamlstrict.Walk(src, func(c yamlstrict.Char) bool {
		if !yamlstrict.Printable(c.R) {
			fmt.Printf("%d:%d: U+%04X is not allowed in YAML\n", c.Line, c.Col, c.R)
			return false
		}
		return true
	})
	fmt.Println(yamlstrict.Nearest("stratgy", []string{"enabled", "strategy"}))
	// Output:
	// 3:8: U+0007 is not allowed in YAML
	// strategy
}

// A reader decodes a file's nodes with the Decoder and words each problem
// its own way; every one is reported, each at its node.
func ExampleDecoder() {
	var doc yaml.Node
	_ = yaml.Unmarshal([]byte("pipes:\n  min_byte: 10\n  max_bytes: \"20\"\n"), &doc)
	var cfg struct {
		Pipes struct {
			MinBytes int `yaml:"min_bytes"`
			MaxBytes int `yaml:"max_bytes"`
		} `yaml:"pipes"`
	}
	d := yamlstrict.Decoder{Report: func(p yamlstrict.Problem) {
		switch p.Kind {
		case yamlstrict.UnknownKey:
			fmt.Printf("%d:%d: unknown key %q in %s (did you mean %q?)\n", p.N.Line, p.N.Column, p.Key, p.What, p.Nearest)
		case yamlstrict.WrongKind:
			fmt.Printf("%d:%d: %s: want %s, got %s\n", p.N.Line, p.N.Column, p.What, p.Want, yamlstrict.Quote(p.N.Value))
		}
	}}
	d.Decode(&doc, reflect.ValueOf(&cfg).Elem(), "")
	// Output:
	// 2:3: unknown key "min_byte" in pipes (did you mean "min_bytes"?)
	// 3:14: pipes.max_bytes: want an integer, got "20"
}
